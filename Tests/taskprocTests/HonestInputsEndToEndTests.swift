import Foundation
import TestSupport
import Testing

/// Issue 17, items 3 and 4, through the built binary: the refusals are data errors (65) naming the file and the
/// choices, and in a batch the refused record is quarantined while the others are analysed.
@Suite struct HonestInputsEndToEndTests {
    /// A header-less 4-column walk (t in s, x, y, z in g) at 50 Hz and 1.8 steps/s.
    static func walkCSV(seconds: Int = 20) -> String {
        var text = ""
        for i in 0..<(seconds * 50) {
            let t = Double(i) / 50
            text += "\(t),0.02,0.01,\(1 + 0.25 * cos(2 * Double.pi * 1.8 * t))\n"
        }
        return text
    }

    @Test func wideHeaderlessFileIsADataErrorNamingTheChoices() throws {
        let path = sharedDataPath("weallwalk/iPhoneSensors_T1_ID2_1L_WC.csv.gz")
        let refused = try E2E.run(["analyze", path])
        #expect(refused.status == ExpectedExit.dataError, "\(refused.stderr)")
        #expect(refused.stderr.contains(path))
        #expect(refused.stderr.contains("41 columns"))
        #expect(refused.stderr.contains("--acceleration-columns X,Y,Z"))
        #expect(refused.stdout.isEmpty || !refused.stdout.contains("stepCount"))
        let chosen = try E2E.run([
            "analyze", path, "--no-header", "--time-column", "1", "--acceleration-columns", "31,32,33", "--format",
            "csv",
        ])
        #expect(chosen.status == ExpectedExit.success, "\(chosen.stderr)")
        #expect(chosen.stdout.contains("accelerometer"))
    }

    @Test func ppgTableIsRefusedAndQuarantinedInABatch() throws {
        let dir = try E2E.temporaryDirectory("honest")
        defer { E2E.remove(dir) }
        let export = dir.path + "/export"
        try E2E.write(Self.walkCSV(), to: export + "/walk.csv")
        var ppg = "t,red,green,blue\n"
        for i in 0..<600 { ppg += "\(Double(i) / 30),0.61,0.32,\(0.1 + 0.01 * sin(Double(i)))\n" }
        try E2E.write(ppg, to: export + "/camera_ppg.csv")

        let single = try E2E.run(["analyze", export + "/camera_ppg.csv"])
        #expect(single.status == ExpectedExit.dataError, "\(single.stderr)")
        #expect(single.stderr.contains("camera_ppg.csv") && single.stderr.contains("\"red\""))
        #expect(single.stderr.contains("not named for acceleration"))

        let out = dir.path + "/out"
        let batch = try E2E.run(["batch", export, "--out", out, "--no-progress"])
        #expect(batch.status == ExpectedExit.batchPartial, "\(batch.stderr)")
        let errors = try E2E.jsonLines(out + "/errors.jsonl")
        #expect(errors.count == 1)
        #expect((errors.first?["source"] as? String)?.hasSuffix("camera_ppg.csv") == true)
        #expect("\(errors.first ?? [:])".contains("not named for acceleration"))
        let results = try E2E.jsonLines(out + "/results.jsonl")
        #expect(
            results.contains {
                ($0["source"] as? String)?.hasSuffix("walk.csv") == true && $0["status"] as? String == "ok"
            })
    }

    /// A tremor recording through `analyze` and `batch`: a motion-signal summary (exit 0), never a step count; batch
    /// writes it to `tremor.csv`, beside the walking rows of a bare recording.
    @Test func tremorRecordingIsSummarisedNotCounted() throws {
        let tremor = sharedDataPath("mhealthtools-motion/kinetic_tremor_data_deviceMotion.json")
        let r = try E2E.run(["analyze", tremor])
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        try #require(results.count == 1)
        #expect(results[0]["kind"] as? String == "motionSignal" && results[0]["task"] as? String == "tremor")
        #expect(results[0]["stepCount"] == nil)

        let dir = try E2E.temporaryDirectory("tasks")
        defer { E2E.remove(dir) }
        try FileManager.default.createDirectory(atPath: dir.path + "/in", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: tremor, toPath: dir.path + "/in/kinetic_tremor_data_deviceMotion.json")
        try E2E.write(Self.walkCSV(), to: dir.path + "/in/walk.csv")
        let batch = try E2E.run(["batch", dir.path + "/in", "--out", dir.path + "/out", "--no-progress"])
        #expect(batch.status == ExpectedExit.success, "\(batch.stderr)")
        let table = try String(contentsOfFile: dir.path + "/out/tremor.csv", encoding: .utf8)
        #expect(table.contains("kinetic_tremor_data_deviceMotion.json") && table.contains(",tremor,"))
        #expect(!table.contains("stepCount"))
        let walking = try String(contentsOfFile: dir.path + "/out/walking.csv", encoding: .utf8)
        #expect(walking.contains("walk.csv") && !walking.contains("kinetic_tremor"))
    }
}
