import Foundation
import TestSupport
import Testing

/// Issue 19's "done when": a generated export holding one run of every active task taskproc analyses
/// (`make_export.py --every-task`), mixed with the generator's other dialects and broken records, goes through
/// batch with zero error records among those runs, one CSV per kind, and the task-specific values where they can be
/// worked out from how the generator made the data.
@Suite struct EveryTaskExportTests {
    /// The CSV every every-task run must reach (the generator's task name → batch's kind file).
    static let kinds = [
        "walking", "balance", "tremor", "tapping", "dBHLToneAudiometry", "toneAudiometry", "environmentSPLMeter",
        "rangeOfMotion", "stroop", "trailMaking", "psat", "spatialSpanMemory", "towerOfHanoi", "holePeg",
        "accuracyStroop", "reactionTime", "normalizedReactionTime", "speechRecognition", "speechInNoise",
        "amslerGrid", "modelSelection", "survey",
    ]

    @Test func everyTaskThroughBatchWithoutAnError() throws {
        let dir = try E2E.temporaryDirectory("every-task")
        defer { E2E.remove(dir) }
        let export = dir.appendingPathComponent("export").path
        let generated = try generateStudyExport(at: export, records: 30, seed: 19, extra: ["--every-task"])
        #expect(generated.status == 0, "\(generated.output)")
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: export + ".manifest.json")))
                as? [String: Any])
        let records = try #require(manifest["records"] as? [[String: Any]])
        let everyTask = records.compactMap { $0["source"] as? String }.filter { $0.hasPrefix("every-task/") }
        #expect(everyTask.count == 22)
        let out = dir.appendingPathComponent("out").path
        let batch = try E2E.run(["batch", export, "--out", out, "--no-progress"])
        #expect(batch.status == ExpectedExit.success || batch.status == ExpectedExit.batchPartial, "\(batch.stderr)")
        let errors = try String(contentsOfFile: out + "/errors.jsonl", encoding: .utf8)
        for source in everyTask { #expect(!errors.contains("/" + source + "/"), "\(source) failed") }
        let results = try String(contentsOfFile: out + "/results.jsonl", encoding: .utf8)
        for source in everyTask { #expect(results.contains("/" + source + "/"), "\(source) has no result") }
        for kind in Self.kinds {
            let path = out + "/\(kind).csv"
            #expect(FileManager.default.fileExists(atPath: path), "no \(kind).csv")
        }
        // The tremor run's phone shakes at 5 Hz with amplitude 0.05 g on userAcceleration x (plus 0.003 g noise):
        // mhealthtools' spectral mode is within one bin (fs/998 ≈ 0.1 Hz) of 5 Hz, and the SD ≈ 0.05/√2 g.
        let tremor = try E2E.csvTable(try String(contentsOfFile: out + "/tremor.csv", encoding: .utf8))
        let row = try #require(tremor.rows.first { ($0["source"] ?? "").contains("every-task/tremor/") })
        #expect(row["featureFunction"] == "get_tremor_features")
        let mode = try #require(Double(row["accelerometer.x.mod.fr"] ?? ""))
        #expect(abs(mode - 5) < 0.11, "spectral mode \(mode) Hz")
        let sd = try #require(Double(row["accelerometer.x.sd.tm"] ?? ""))
        #expect(abs(sd - 0.05 / 2.0.squareRoot()) < 0.002, "SD \(sd) g")
    }
}
