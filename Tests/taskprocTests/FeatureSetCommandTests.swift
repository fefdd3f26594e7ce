import Foundation
import TestSupport
import Testing

/// `--feature-set` on the command line: `analyze` adds the mhealthtools IMF = 2 sets, `batch` stores the choice
/// with the run (so `--resume` and shards keep it), and an unknown value is a usage error.
@Suite struct FeatureSetCommandTests {
    @Test func analyzeAddsTheWalkFeaturesOnlyWhenAsked() throws {
        let walk = sharedDataPath("mpower-samples/mhealthtools_walk_data_devicemotion.csv.gz")
        let plain = try E2E.run(["analyze", walk])
        #expect(plain.status == ExpectedExit.success, "\(plain.stderr)")
        #expect(!plain.stdout.contains("mhealthtoolsFeatures"))
        let asked = try E2E.run(["analyze", walk, "--feature-set", "mhealthtools"])
        #expect(asked.status == ExpectedExit.success, "\(asked.stderr)")
        #expect(asked.stdout.contains("\"function\" : \"get_walk_features\""))
        let wrong = try E2E.run(["analyze", walk, "--feature-set", "pdkit"])
        #expect(wrong.status == ExpectedExit.usage)
        #expect(wrong.stderr.contains("feature-set"))
    }

    @Test func batchStoresTheFeatureSetWithTheRun() throws {
        let dir = try E2E.temporaryDirectory("feature-set")
        defer { E2E.remove(dir) }
        let input = dir.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: sharedDataPath("mhealthtools-motion/kinetic_tremor_data_deviceMotion.json"),
            toPath: input.appendingPathComponent("kinetic_tremor_data_deviceMotion.json").path)
        let out = dir.appendingPathComponent("out").path
        let run = try E2E.run(["batch", input.path, "--out", out, "--feature-set", "mhealthtools", "--no-progress"])
        #expect(run.status == ExpectedExit.success, "\(run.stderr)")
        let results = try String(contentsOfFile: out + "/results.jsonl", encoding: .utf8)
        #expect(results.contains("get_kinetic_tremor_features"))
        let stored = try String(contentsOfFile: out + "/.taskproc-batch/run.json", encoding: .utf8)
        #expect(stored.contains("\"featureSet\":\"mhealthtools\"") || stored.contains("\"featureSet\" : \"mhealthtools\""), "\(stored)")
        let resumed = try E2E.run(["batch", "--resume", "--out", out, "--no-progress"])
        #expect(resumed.status == ExpectedExit.success, "\(resumed.stderr)")
        #expect(try String(contentsOfFile: out + "/results.jsonl", encoding: .utf8) == results)
    }
}
