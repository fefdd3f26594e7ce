import Archives
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyBatch
@testable import StudyInputs

/// The progress bar's estimated total while discovery runs (issue 55, item 6): a census of the inputs' files that
/// reads only folder listings and ZIP central directories, counted in the same unit discovery visits.
@Suite struct RecordCensusTests {
    /// On a generated export (folders, task folders, zips with hidden entries, broken records) the census counts
    /// exactly the files discovery visits, so that the estimate becomes the true total as discovery ends.
    @Test func theCensusCountsWhatDiscoveryVisits() throws {
        let folder = try BatchSupport.temporaryFolder("census")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let export = folder + "/export"
        _ = try BatchSupport.generateExport(at: export, records: 120, seed: 5)
        try Data("x".utf8).write(to: URL(fileURLWithPath: export + "/.DS_Store"))
        let inputs = [RecordDiscovery.Input(export)]
        let census = RecordCensus.files(inputs: inputs, limits: ArchiveLimits())
        var visited = 0
        var records = 0
        try RecordDiscovery.walk(inputs: inputs, archiveFolder: folder + "/archives", limits: ArchiveLimits()) {
            visited += RecordCensus.visited($0)
            if case .record = $0 { records += 1 }
        }
        #expect(census == visited, "census \(census), discovery visited \(visited)")
        #expect(RecordCensus.estimate(found: records, visited: visited, census: census) == records)
        #expect(records > 100)
    }

    @Test func theEstimateScalesWhatWasFoundAndNeverFallsBelowIt() {
        #expect(RecordCensus.estimate(found: 10, visited: 30, census: 300) == 100)
        #expect(RecordCensus.estimate(found: 10, visited: 30, census: 20) == 10)
        #expect(RecordCensus.estimate(found: 0, visited: 30, census: 300) == nil)
        #expect(RecordCensus.estimate(found: 3, visited: 0, census: 300) == nil)
    }

    /// A run with a progress callback reports an estimated total while discovery runs and none after it.
    @Test func aRunReportsTheEstimateWhileDiscovering() async throws {
        let folder = try BatchSupport.temporaryFolder("census-run")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let export = folder + "/export"
        _ = try BatchSupport.generateExport(at: export, records: 60, seed: 6)
        final class States: Sendable {
            let all = Mutex<[BatchRunner.ProgressState]>([])
        }
        let states = States()
        let summary = try await BatchRunner.run(
            configuration: BatchConfiguration(inputs: [.init(export)]), analysis: RecordAnalysis.Options(),
            outputFolder: folder + "/out", mode: .fresh(force: false), jobs: 2,
            progress: { state in states.all.withLock { $0.append(state) } })
        let all = states.all.withLock { $0 }
        #expect(all.allSatisfy { !$0.discoveryComplete || $0.estimatedTotal == nil })
        // The census is a thread of its own: on a small export it may finish after discovery. When it gave an
        // estimate, the last one is within 10 % of the total.
        if let last = all.last(where: { $0.estimatedTotal != nil })?.estimatedTotal {
            #expect(
                abs(Double(last - summary.records)) <= 0.1 * Double(summary.records), "\(last) of \(summary.records)")
        }
        #expect(all.last?.found == summary.records)
    }
}
