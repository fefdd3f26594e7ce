import Foundation
import TestSupport
import Testing

/// `--placement`, `--sensor-height` and `--height` on the command line: `analyze` adds the lower-back gait
/// parameters, `batch` stores them with the run (so `--resume` keeps them), and a value out of range is a usage error.
@Suite struct GaitCommandTests {
    static let trial = sharedDataPath("mobilise-d-lab/HA_001_Test5_Trial1.csv.gz")

    @Test func analyzeGivesStrideLengthOnlyForALowerBackSensorWithAHeight() throws {
        let plain = try E2E.run(["analyze", Self.trial, "--format", "csv"])
        #expect(plain.status == ExpectedExit.success, "\(plain.stderr)")
        let rows = plain.stdout.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        try #require(rows.count == 2)
        let column = try #require(rows[0].firstIndex(of: "strideLength"))
        #expect(rows[1][column].isEmpty, "stride length without a placement: \(rows[1][column])")

        let measured = try E2E.run(["analyze", Self.trial, "--sensor-height", "0.964", "--format", "table"])
        #expect(measured.status == ExpectedExit.success, "\(measured.stderr)")
        #expect(measured.stdout.contains("stride length"))
        #expect(measured.stdout.contains("lower back, 0.964 m high"))

        let fromHeight = try E2E.run(["analyze", Self.trial, "--height", "1.59"])
        #expect(fromHeight.status == ExpectedExit.success, "\(fromHeight.stderr)")
        #expect(fromHeight.stdout.contains("\"sensorHeight\" : 0.94287"), "0.593 × 1.59 m")

        for bad in [
            ["--sensor-height", "2"], ["--height", "0.1"], ["--sensor-height", "1", "--height", "1.7"],
            ["--placement", "unknown", "--sensor-height", "1"], ["--placement", "wrist"],
            ["--placement", "unknown", "--lower-back-steps", "detector"], ["--lower-back-steps", "peaks"],
        ] {
            let run = try E2E.run(["analyze", Self.trial] + bad)
            #expect(run.status == ExpectedExit.usage, "\(bad): \(run.status)")
        }
    }

    /// `--lower-back-steps` chooses where a lower-back sensor's steps come from: the Mobilise-D chain's bouts
    /// (`"gaitSequence"`, the default) or the phone step detector's; it implies a lower-back sensor.
    @Test func lowerBackStepsChoosesTheBouts() throws {
        for (args, detection) in [
            (["--sensor-height", "0.964"], "\"detection\" : \"gaitSequence\""),
            (["--sensor-height", "0.964", "--lower-back-steps", "contacts"], "\"detection\" : \"gaitSequence\""),
            (["--lower-back-steps", "detector"], "\"detection\" : \"rhythm\""),
        ] {
            let run = try E2E.run(["analyze", Self.trial] + args)
            #expect(run.status == ExpectedExit.success, "\(args): \(run.stderr)")
            #expect(run.stdout.contains(detection), "\(args): \(run.stdout.prefix(400))")
            #expect(run.stdout.contains("\"placement\" : \"lower-back\""), "\(args)")
        }
    }

    @Test func batchStoresTheSensorHeightWithTheRun() throws {
        let dir = try E2E.temporaryDirectory("gait")
        defer { E2E.remove(dir) }
        let input = dir.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.trial, toPath: input.appendingPathComponent("trial.csv.gz").path)
        let out = dir.appendingPathComponent("out").path
        let run = try E2E.run(["batch", input.path, "--out", out, "--sensor-height", "0.964", "--no-progress"])
        #expect(run.status == ExpectedExit.success, "\(run.stderr)")
        let results = try String(contentsOfFile: out + "/results.jsonl", encoding: .utf8)
        #expect(results.contains("\"placement\":\"lower-back\""), "\(results.prefix(300))")
        #expect(!results.contains("\"strideLength\":null"))
        let resumed = try E2E.run(["batch", "--resume", "--out", out, "--no-progress"])
        #expect(resumed.status == ExpectedExit.success, "\(resumed.stderr)")
        #expect(try String(contentsOfFile: out + "/results.jsonl", encoding: .utf8) == results)
    }
}
