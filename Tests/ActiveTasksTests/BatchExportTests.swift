import Foundation
import Testing

@testable import ActiveTasks

/// `taskproc batch --format researchkit|mork|fhir`: one export line per analysed record, in results order,
/// deterministic, carrying each record's participant and values.
@Suite(.serialized) struct BatchExportTests {
    @Test func exportsFollowTheResults() async throws {
        let folder = try BatchSupport.temporaryFolder("export")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let export = folder + "/export"
        _ = try BatchSupport.generateExport(at: export, records: 40, seed: 3)
        let out = folder + "/out"
        _ = try await BatchRunner.run(
            configuration: BatchConfiguration(inputs: [.init(export)]), analysis: RecordAnalysis.Options(),
            outputFolder: out, mode: .fresh(force: false), jobs: 2)
        let results = try BatchSupport.jsonLines(out + "/results.jsonl")
        let analysed = results.filter { !(($0["results"] as? [Any]) ?? []).isEmpty }
        let time = Date(timeIntervalSince1970: 1_800_000_000)

        let rk = try BatchExport.write(outputFolder: out, format: .researchkit, exportedAt: time)
        let rkLines = try BatchSupport.jsonLines(rk.file)
        #expect(rk.records == analysed.count && rkLines.count == analysed.count)
        #expect(rkLines.map { $0["source"] as! String } == analysed.map { $0["source"] as! String })
        for line in rkLines {
            let steps = try #require(line["export"] as? [[String: Any]])
            #expect(!steps.isEmpty && steps.allSatisfy { $0["_class"] as? String == "ORKStepResult" })
        }

        let fhir = try BatchExport.write(outputFolder: out, format: .fhir, exportedAt: time)
        let first = try Data(contentsOf: URL(fileURLWithPath: fhir.file))
        _ = try BatchExport.write(outputFolder: out, format: .fhir, exportedAt: time)
        #expect(try Data(contentsOf: URL(fileURLWithPath: fhir.file)) == first)  // deterministic
        var walkingChecked = 0
        let fhirLines = try BatchSupport.jsonLines(fhir.file)
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
        }
        #expect(walkingChecked > 5)
        // ResearchKit task folders carry their step dates into the export (`stepDates` in results.jsonl).
        let dated = try BatchSupport.jsonLines(fhir.file).filter { line in
            let entries = (line["export"] as? [String: Any])?["entry"] as? [[String: Any]] ?? []
            return entries.contains {
                (($0["resource"] as? [String: Any])?["effectivePeriod"] as? [String: Any])?["start"] as? String
                    == "2024-05-03T09:00:10-04:00"
            }
        }
        let researchKitRecords = analysed.filter { ($0["dialect"] as? String) == "researchKitTaskFolder" }
        #expect(!researchKitRecords.isEmpty && dated.count == researchKitRecords.count)

        let config = folder + "/mork.json"
        try #"{"envelope": {"study_uuid": "S", "folder_oid": "F", "form_oid": "WALK"}}"#.write(
            toFile: config, atomically: true, encoding: .utf8)
        // Records without a participant key cannot be addressed in Rave: the export names the record.
        do {
            _ = try BatchExport.write(outputFolder: out, format: .mork, mork: try MORKExport.Configuration(file: config))
            Issue.record("exported MORK payloads for records without a subject")
        } catch let error as ExportError {
            #expect(error.description.contains("subject_name"))
        }
    }
}
