import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyBatch
@testable import StudyInputs

/// `taskproc batch --format researchkit|mork|fhir`: one export line per analysed record, in results order,
/// made with the analysis (from the typed results), deterministic across a resume, carrying each record's
/// participant and values.
@Suite(.serialized) struct BatchExportTests {
    static func run(
        _ export: String, out: String, format: String, mork: String? = nil,
        mode: BatchRunner.Mode = .fresh(force: false)
    )
        async throws -> BatchRunner.Summary
    {
        var configuration = BatchConfiguration(inputs: [.init(export)])
        configuration.exportFormat = format
        configuration.morkConfigurationFile = mork
        return try await BatchRunner.run(
            configuration: configuration, analysis: RecordAnalysis.Options(), outputFolder: out, mode: mode, jobs: 2)
    }

    @Test func exportsFollowTheResults() async throws {
        let folder = try BatchSupport.temporaryFolder("export")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let export = folder + "/export"
        _ = try BatchSupport.generateExport(at: export, records: 40, seed: 3)

        let rkOut = folder + "/rk"
        let rk = try await Self.run(export, out: rkOut, format: "researchkit")
        let results = try BatchSupport.jsonLines(rkOut + "/results.jsonl")
        let analysed = results.filter { !(($0["results"] as? [Any]) ?? []).isEmpty }
        let rkLines = try BatchSupport.jsonLines(rkOut + "/export.researchkit.jsonl")
        #expect(rk.counts.exported == analysed.count && rkLines.count == analysed.count)
        #expect(rk.counts.exportErrors.isEmpty)
        #expect(rkLines.map { $0["source"] as! String } == analysed.map { $0["source"] as! String })
        for line in rkLines {
            let steps = try #require(line["export"] as? [[String: Any]])
            #expect(!steps.isEmpty && steps.allSatisfy { $0["_class"] as? String == "ORKStepResult" })
        }

        let out = folder + "/fhir"
        _ = try await Self.run(export, out: out, format: "fhir")
        var walkingChecked = 0
        let fhirLines = try BatchSupport.jsonLines(out + "/export.fhir.jsonl")
        // One bundle per analysed record, in order: zip below must not silently drop records.
        try #require(!analysed.isEmpty && fhirLines.count == analysed.count)
        for (line, record) in zip(fhirLines, analysed) {
            let steps = (record["results"] as? [[String: Any]] ?? []).compactMap { $0["stepCount"] as? Int }
            let bundle = try #require(line["export"] as? [String: Any])
            let values = (bundle["entry"] as? [[String: Any]] ?? []).compactMap { entry -> Int? in
                let resource = entry["resource"] as? [String: Any]
                let coding = ((resource?["code"] as? [String: Any])?["coding"] as? [[String: Any]])?.first
                guard coding?["code"] as? String == "55423-8" else { return nil }
                return ((resource?["valueQuantity"] as? [String: Any])?["value"] as? NSNumber)?.intValue
            }
            #expect(values == steps)
            if !steps.isEmpty { walkingChecked += 1 }
            // Paths in the export are the records' sources, never an extraction folder of the run.
            let text = String(decoding: try JSONSerialization.data(withJSONObject: bundle), as: UTF8.self)
            #expect(!text.contains(BatchRunner.workFolderName))
        }
        #expect(walkingChecked > 5)
        // ResearchKit task folders carry their step dates into the export: the walking step starts 10 s into the
        // task run (make_export.py), and the export keeps the device's offset.
        let dated = zip(fhirLines, analysed).filter { line, record in
            let entries = (line["export"] as? [String: Any])?["entry"] as? [[String: Any]] ?? []
            let start = (record["startTime"] as? String).flatMap(ResultDate.init)
            return entries.contains {
                let text = (($0["resource"] as? [String: Any])?["effectivePeriod"] as? [String: Any])?["start"]
                return (text as? String).flatMap(ResultDate.init).map { step in
                    start.map { step.date.timeIntervalSince($0.date) == 10 } == true && step.utcOffset == -4 * 3600
                } ?? false
            }
        }
        let researchKitRecords = analysed.filter { ($0["dialect"] as? String) == "researchKitTaskFolder" }
        #expect(!researchKitRecords.isEmpty && dated.count == researchKitRecords.count)

        // Deterministic: an interrupted run resumed writes the same export bytes (the export time is the run's).
        let first = try Data(contentsOf: URL(fileURLWithPath: out + "/export.fhir.jsonl"))
        let work = out + "/" + BatchRunner.workFolderName
        let journal = try Data(contentsOf: URL(fileURLWithPath: work + "/journal.jsonl"))
        let lines = journal.split(separator: 0x0A)
        var cut = Data(lines.prefix(lines.count / 2).joined(separator: [0x0A]))
        cut.append(0x0A)
        try cut.write(to: URL(fileURLWithPath: work + "/journal.jsonl"))
        var state = try BatchRunner.loadState(out)
        state.complete = false
        try BatchRunner.saveState(state, out)
        try FileManager.default.removeItem(atPath: out + "/export.fhir.jsonl")
        let resumed = try await Self.run(export, out: out, format: "fhir", mode: .resume)
        #expect(resumed.processedNow == lines.count - lines.count / 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/export.fhir.jsonl")) == first)

        // Records without a participant key cannot be addressed in Rave: each is listed with why, and the
        // results are still written.
        let config = folder + "/mork.json"
        try #"{"envelope": {"study_uuid": "S", "folder_oid": "F", "form_oid": "WALK"}}"#.write(
            toFile: config, atomically: true, encoding: .utf8)
        let mork = try await Self.run(export, out: folder + "/mork", format: "mork", mork: config)
        #expect(mork.counts.exported + mork.counts.exportErrors.count == analysed.count)
        #expect(!mork.counts.exportErrors.isEmpty)
        #expect(mork.counts.exportErrors.allSatisfy { $0.contains("subject_name") })
        #expect(try BatchSupport.jsonLines(folder + "/mork/results.jsonl").count == results.count)
    }
}
