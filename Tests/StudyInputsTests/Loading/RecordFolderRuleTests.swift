import Archives
import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyBatch
@testable import StudyInputs

/// `analyze` and batch cut a folder into the same records (``InputRecognizer/isRecordFolder(_:names:)``): a folder of
/// task folders is each task folder with its recorder files, never the recorder files read on their own.
@Suite struct RecordFolderRuleTests {
    /// Writes a walking task folder: a task result naming one accelerometer file of a 1.8 Hz synthetic walk.
    static func writeTaskFolder(_ folder: String, run: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let walk = SyntheticWalk.accelerometer(stepFrequency: 1.8, duration: 20, rate: 100, unit: .g, seed: 3)
        try SyntheticWalk.recorderLog(walk).write(
            toFile: folder + "/accel_walk.json", atomically: true, encoding: .utf8)
        let task = """
            {"_class":"ORKTaskResult","identifier":"shortWalk","taskRunUUID":"\(run)",
             "results":[{"_class":"ORKStepResult","identifier":"walking.outbound","results":[
              {"_class":"ORKFileResult","identifier":"accelerometer","contentType":"application/json",
               "fileName":"accel_walk.json"}]}]}
            """
        try task.write(toFile: folder + "/taskResult.json", atomically: true, encoding: .utf8)
    }

    /// Two task folders and a loose recorder log under one folder: `analyze` gives three inputs — each task folder as
    /// one walking task whose recording carries its step, and the loose log — the records batch discovers.
    @Test func aFolderOfTaskFoldersIsEachTaskFolder() throws {
        let directory = TemporaryDirectory()
        let root = directory.url.path
        try Self.writeTaskFolder(root + "/a", run: "0B8E2A55-3C1D-4F7A-9E61-2D4C8B7A1F41")
        try Self.writeTaskFolder(root + "/b", run: "0B8E2A55-3C1D-4F7A-9E61-2D4C8B7A1F42")
        let walk = SyntheticWalk.accelerometer(stepFrequency: 1.8, duration: 20, rate: 100, unit: .g, seed: 4)
        try SyntheticWalk.recorderLog(walk).write(toFile: root + "/loose.json", atomically: true, encoding: .utf8)

        let input = try AnalysisRegistry.load(path: root)
        #expect(input.dialect == .folder)
        #expect(input.children.map(\.path) == [root + "/a", root + "/b", root + "/loose.json"])
        #expect(input.children.map(\.dialect) == [.researchKitTaskFolder, .researchKitTaskFolder, .recorderLog])
        #expect(!input.problems.contains { $0.message.contains("task results in one folder") })
        let analyses = AnalysisRegistry.analyze(input)
        #expect(analyses.map(\.path) == input.children.map(\.path))
        let steps = analyses.map { ($0.results.first?.result as? WalkingResult)?.stepIdentifier }
        #expect(steps == ["walking.outbound", "walking.outbound", nil])

        let found = try RecordDiscovery.discover(
            inputs: [.init(root)], archiveFolder: root + "/.archives", limits: ArchiveLimits())
        #expect(found.records.map(\.location) == input.children.map(\.path))
        #expect(found.records.map(\.isFolder) == [true, true, false])
    }

    /// A folder that is one record is loaded as before: analyze on the task folder itself.
    @Test func aTaskFolderIsOneRecord() throws {
        let directory = TemporaryDirectory()
        try Self.writeTaskFolder(directory.url.path, run: "0B8E2A55-3C1D-4F7A-9E61-2D4C8B7A1F43")
        let input = try AnalysisRegistry.load(path: directory.url.path)
        #expect(input.dialect == .researchKitTaskFolder && input.kinds == [.walking] && input.children.isEmpty)
    }
}
