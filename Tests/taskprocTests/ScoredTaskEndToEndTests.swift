import Foundation
import TestSupport
import Testing

/// Scored active tasks through the command line (issue 19): a folder with one run of each goes through batch with
/// zero error records, one CSV per kind, a valid FHIR export, and no "not modelled" warning.
@Suite struct ScoredTaskEndToEndTests {
    static let kinds = [
        "stroop", "trailMaking", "psat", "spatialSpanMemory", "towerOfHanoi", "holePeg", "rangeOfMotion", "accuracyStroop",
        "reactionTime", "normalizedReactionTime", "speechInNoise", "speechRecognition", "amslerGrid",
    ]

    @Test func oneRunOfEachThroughBatchAndEveryFormat() throws {
        let dir = try E2E.temporaryDirectory("scored")
        defer { E2E.remove(dir) }
        let folder = E2E.fixture("scored")
        let out = dir.appendingPathComponent("out").path
        let batch = try E2E.run(["batch", folder, "--out", out, "--format", "fhir", "--no-progress"])
        #expect(batch.status == ExpectedExit.success, "\(batch.stderr)")
        #expect(try String(contentsOfFile: out + "/errors.jsonl", encoding: .utf8).isEmpty)
        for kind in Self.kinds {
            let csv = try E2E.csvTable(try String(contentsOfFile: out + "/\(kind).csv", encoding: .utf8))
            #expect(!csv.rows.isEmpty, "\(kind)")
        }
        let results = try String(contentsOfFile: out + "/results.jsonl", encoding: .utf8)
        #expect(!results.contains("not modelled"))
        var bundles: [String] = []
        for (i, line) in try String(contentsOfFile: out + "/export.fhir.jsonl", encoding: .utf8).split(separator: "\n").enumerated() {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let bundle = try JSONSerialization.data(withJSONObject: try #require(object["export"]))
            let file = dir.appendingPathComponent("b\(i).json").path
            try bundle.write(to: URL(fileURLWithPath: file))
            bundles.append(file)
        }
        #expect(bundles.count == Self.kinds.count)
        #expect(try E2E.validateFHIR(bundles).status == 0)
        for format in ["json", "table", "csv", "mork", "researchkit"] {
            let run = try E2E.run(["analyze", folder + "/stroop.json", "--format", format])
            #expect(run.status == ExpectedExit.success, "\(format): \(run.stderr)")
        }
        let mork = try E2E.run(["analyze", folder + "/stroop.json", "--format", "mork"])
        #expect(mork.stdout.contains("\"item_oid\" : \"STROOP_INTERFERENCE_EFFECT\""))
    }
}
