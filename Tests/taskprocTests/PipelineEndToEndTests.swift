import Foundation
import TestSupport
import Testing

/// Issue 15 end to end: one recogniser and one registry, so a folder of unrelated results gives one analysis per
/// input (with `analyze` and `batch` alike), a dB HL task's own SPL-meter step is analysed, and `.zip` archives open
/// everywhere.
@Suite struct PipelineEndToEndTests {
    /// A folder as a new user makes it: a dB HL task result (with its SPL-meter step), a separate SPL-meter result
    /// and a walking log, side by side.
    static func mixedFolder(_ root: URL) throws -> String {
        let folder = root.appendingPathComponent("mixed").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let fm = FileManager.default
        try fm.copyItem(atPath: E2E.fixture("audiometry/dbhl-task.json"), toPath: folder + "/hearing-task.json")
        try fm.copyItem(atPath: E2E.fixture("researchkit/spl-meter.json"), toPath: folder + "/noise-check.json")
        try fm.copyItem(
            atPath: sharedDataPath("mpower-samples/pdkit_mpower_gait_stationary.json"),
            toPath: folder + "/accel_walking_outbound.json")
        return folder
    }

    /// The `kind` of every element of a JSON array printed on standard output.
    static func kinds(_ stdout: String) throws -> [String] {
        let value = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        let array = try #require(value as? [[String: Any]])
        return array.map { $0["kind"] as? String ?? "?" }
    }

    @Test func aMixedFolderGivesOneAnalysisPerInput() throws {
        let root = try E2E.temporaryDirectory("mixed")
        defer { E2E.remove(root) }
        let folder = try Self.mixedFolder(root)
        let r = try E2E.run(["analyze", folder])
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        // Files in name order: accel_walking_outbound.json (walking), hearing-task.json (the dB HL test, then its
        // SPL-meter step), noise-check.json (the separate SPL-meter result).
        #expect(try Self.kinds(r.stdout) == ["walking", "dBHLToneAudiometry", "splMeter", "splMeter"])
        // The still phone of the walking log: 0 steps (the data README's negative control).
        let results = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(results.count == 4)
        #expect(results.first?["stepCount"] as? Int == 0)

        // CSV: one block per kind, a blank line between them.
        let csv = try E2E.run(["analyze", folder, "--format", "csv"])
        #expect(csv.status == ExpectedExit.success, "\(csv.stderr)")
        let blocks = csv.stdout.components(separatedBy: "\n\n")
        #expect(blocks.count == 3, "\(csv.stdout)")
    }

    @Test func aMixedFolderGivesOneBatchRecordPerInput() throws {
        let root = try E2E.temporaryDirectory("mixed-batch")
        defer { E2E.remove(root) }
        let folder = try Self.mixedFolder(root)
        let out = root.path + "/out"
        let r = try E2E.run(["batch", folder, "-o", out, "--no-progress"])
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        #expect(r.stderr.contains("3 records: 3 analysed, 0 failed"), "\(r.stderr)")
        let lines = try E2E.jsonLines(out + "/results.jsonl")
        #expect(lines.count == 3)
        // The hearing task's own SPL-meter step is in the outputs: two SPL-meter rows (its step and the separate
        // result), one dB HL test.
        let spl = try String(contentsOfFile: out + "/environmentSPLMeter.csv", encoding: .utf8)
            .split(separator: "\n")
        #expect(spl.count == 1 + 2)
        #expect(FileManager.default.fileExists(atPath: out + "/dBHLToneAudiometry.csv"))
        #expect(FileManager.default.fileExists(atPath: out + "/walking.csv"))
    }

    @Test func analyzeAndInspectOpenAZipArchive() throws {
        let root = try E2E.temporaryDirectory("zip")
        defer { E2E.remove(root) }
        let folder = try Self.mixedFolder(root)
        let zip = root.path + "/mixed.zip"
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = [
            "python3", "-c",
            "import sys, zipfile, os; z = zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED); "
                + "[z.write(os.path.join(sys.argv[2], n), n) for n in sorted(os.listdir(sys.argv[2]))]; z.close()",
            zip, folder,
        ]
        try python.run()
        python.waitUntilExit()
        try #require(python.terminationStatus == 0)
        let r = try E2E.run(["analyze", zip])
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        #expect(try Self.kinds(r.stdout) == ["walking", "dBHLToneAudiometry", "splMeter", "splMeter"])
        let inspect = try E2E.run(["inspect", zip, "--format", "json"])
        #expect(inspect.status == ExpectedExit.success, "\(inspect.stderr)")
        #expect(inspect.stdout.contains("hearing-task.json"))
    }

    @Test func severalPathsAndAPartialResult() throws {
        let root = try E2E.temporaryDirectory("paths")
        defer { E2E.remove(root) }
        let broken = root.path + "/broken.json"
        try E2E.write("{\"items\": [", to: broken)
        let tap = sharedDataPath("mpower-samples/pdkit_mpower_finger_tapping.json")
        // One good input and one unreadable one: the good result is printed, the exit status says partial.
        let r = try E2E.run(["analyze", tap, broken])
        #expect(r.status == ExpectedExit.partlyUnreadable, "\(r.stderr)")
        #expect(try Self.kinds(r.stdout) == ["tapping"])
        #expect(r.stderr.contains("broken.json"))
        #expect(!r.stderr.contains("Usage:"))
        // Only unreadable input: a data error, no usage banner.
        let bad = try E2E.run(["analyze", broken])
        #expect(bad.status == ExpectedExit.dataError)
        #expect(bad.stdout.isEmpty && !bad.stderr.contains("Usage:"))
    }
}

/// Batch takes the calibration options `analyze` takes, so a study's sound levels are in dB SPL, and stores them
/// with the run (a resumed run calibrates the same way).
@Suite struct BatchCalibrationEndToEndTests {
    /// A synthesised 1 kHz sine of amplitude 0.5: 20·lg(0.5/√2) = −9.031 dBFS, A-weighting 0 dB at 1 kHz; with
    /// ResearchKit's iPhone offset (−23.3 dB; L = dBFS − offset + 94, docs/audio.md) LAeq = 108.269 dB SPL.
    static let expectedLAeq = 20 * log10(0.5 / 2.0.squareRoot()) + 23.3 + 94

    @Test func batchCalibratesEveryRecordingAndKeepsItOnResume() throws {
        let root = try E2E.temporaryDirectory("batch-calibration")
        defer { E2E.remove(root) }
        let export = root.path + "/export"
        try FileManager.default.createDirectory(atPath: export, withIntermediateDirectories: true)
        for name in ["a", "b"] {
            let synth = try E2E.run([
                "synth", export + "/\(name).wav", "--frequency", "1000", "--amplitude", "0.5", "--duration", "3",
            ])
            try #require(synth.status == ExpectedExit.success, "\(synth.stderr)")
        }
        let out = root.path + "/out"
        let r = try E2E.run(["batch", export, "-o", out, "--sensitivity-offset", "iPhone", "--no-progress"])
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        let lines = try E2E.jsonLines(out + "/results.jsonl")
        try #require(lines.count == 2)
        for line in lines {
            let results = try #require(line["results"] as? [[String: Any]])
            let level = try #require(results.first?["soundLevel"] as? [String: Any])
            #expect(level["unit"] as? String == "dB SPL")
            let channel = try #require((level["channels"] as? [[String: Any]])?.first)
            let laeq = try #require(channel["LAeq"] as? Double)
            #expect(abs(laeq - Self.expectedLAeq) < 0.01, "\(laeq)")
        }
        // The options are stored with the run: run.json carries the calibration.
        let run = try String(contentsOfFile: out + "/.taskproc-batch/run.json", encoding: .utf8)
        #expect(run.contains("\"sensitivityOffset\":-23.3") || run.contains("\"sensitivityOffset\" : -23.3"), "\(run)")
    }
}

/// Output failures are errors with their own exit status, never a trap (issue 16).
@Suite struct OutputFailureEndToEndTests {
    /// A full disk: standard output on `/dev/full` gives 74 and the system's reason.
    @Test func standardOutputOnAFullDiskIsAnIOError() throws {
        try #require(FileManager.default.fileExists(atPath: "/dev/full"))
        let process = Process()
        process.executableURL = CommandLineEndToEndTests.binary
        process.arguments = ["analyze", sharedDataPath("mpower-samples/pdkit_mpower_finger_tapping.json")]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let err = Pipe()
        process.standardError = err
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == ExpectedExit.ioError, "\(stderr)")
        #expect(stderr.contains("cannot write standard output: No space left on device"), "\(stderr)")
    }

    /// `merge` into one of its own shards would destroy what it merges: refused (73), the shard untouched.
    @Test func mergeRefusesAnOutputThatIsOrIsInsideAShard() throws {
        let root = try E2E.temporaryDirectory("merge-self")
        defer { E2E.remove(root) }
        let export = root.path + "/export"
        try FileManager.default.createDirectory(atPath: export, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: sharedDataPath("mpower-samples/pdkit_mpower_finger_tapping.json"),
            toPath: export + "/tapping_results.json")
        for k in 1...2 {
            let r = try E2E.run(["batch", export, "-o", root.path + "/s\(k)", "--shard", "\(k)/2", "--no-progress"])
            #expect(r.status == ExpectedExit.success || r.status == ExpectedExit.dataError, "\(r.stderr)")
        }
        let before = try FileManager.default.contentsOfDirectory(atPath: root.path + "/s2").sorted()
        for target in [root.path + "/s2", root.path + "/s1/inner"] {
            let r = try E2E.run(["merge", root.path + "/s1", root.path + "/s2", "-o", target, "--force"])
            #expect(r.status == ExpectedExit.outputExists, "\(target): \(r.stderr)")
            #expect(r.stderr.contains("shard folder"), "\(r.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path + "/s2").sorted() == before)
    }
}

/// A task folder keeps what it names and loses nothing else: a walking task (result + the log it names) with a
/// separate SPL-meter result dropped beside it gives the walk *and* the SPL-meter analysis, with `analyze` and in
/// one batch record.
@Suite struct TaskFolderWithAnExtraResultTests {
    @Test func theTaskAndTheExtraResultAreBothAnalysed() throws {
        let root = try E2E.temporaryDirectory("task-plus")
        defer { E2E.remove(root) }
        let folder = root.path + "/task"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // A synthetic 1.8 Hz walk of 30 s: 54 steps by construction.
        let items = try E2E.json(E2E.mPowerWalk(frequency: 1.8, seconds: 30))
        try JSONSerialization.data(withJSONObject: ["items": items])
            .write(to: URL(fileURLWithPath: folder + "/accel_walking.outbound.json"))
        try E2E.write(
            """
            {"_class": "ORKTaskResult", "identifier": "walk", "taskRunUUID": "0C2E6B1A-5D0C-4E55-9A53-3E2D4C1B0A99",
             "results": [{"_class": "ORKStepResult", "identifier": "walking.outbound",
               "results": [{"_class": "ORKFileResult", "identifier": "accelerometer", "contentType": "application/json",
                 "fileName": "accel_walking.outbound.json"}]}]}
            """, to: folder + "/taskResult.json")
        try FileManager.default.copyItem(atPath: E2E.fixture("researchkit/spl-meter.json"), toPath: folder + "/noise.json")
        let r = try E2E.run(["analyze", folder])
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        let results = try E2E.objects(r.stdout)
        #expect(results.map { $0["kind"] as? String ?? "?" } == ["walking", "splMeter"])
        #expect(abs((E2E.number(results.first?["stepCount"]) ?? 0) - 54) <= 1)

        let out = root.path + "/out"
        let b = try E2E.run(["batch", root.path, "-o", out, "--no-progress"])
        #expect(b.status == ExpectedExit.success, "\(b.stderr)")
        #expect(b.stderr.contains("1 records: 1 analysed, 0 failed"), "\(b.stderr)")
        #expect(b.stderr.contains("environmentSPLMeter 1") && b.stderr.contains("walking 1"), "\(b.stderr)")
    }
}
