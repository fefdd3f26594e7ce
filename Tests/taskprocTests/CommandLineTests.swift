import ActiveTasks
import ArgumentParser
import Foundation
import StudyBatch
import StudyInputs
import StudyOutputs
import TestSupport
import Testing

@testable import taskproc

/// Parse-level tests of the command-line interface.
@Suite struct CommandParsingTests {
    @Test func analyzeDefaultsToJSON() throws {
        let command = try Analyze.parse(["recording.wav"])
        #expect(command.file == "recording.wav")
        #expect(command.out.format == .json)
        #expect(command.out.output == nil)
    }

    @Test func analyzeAcceptsEveryFormat() throws {
        for format in OutputFormat.allCases {
            #expect(try Analyze.parse(["x.wav", "--format", format.rawValue]).out.format == format)
        }
        #expect(throws: (any Error).self) { try Analyze.parse(["x.wav", "--format", "xml"]) }
    }

    @Test func invalidOptionsAreRejected() {
        #expect(throws: (any Error).self) { try Analyze.parse(["x.wav", "--block-frames", "0"]) }
        #expect(throws: (any Error).self) { try Synth.parse(["o.wav", "--frequency", "30000", "--sample-rate", "48000"]) }
        #expect(throws: (any Error).self) { try Synth.parse(["o.wav", "--amplitude", "2"]) }
        #expect(throws: (any Error).self) { try Analyze.parse([]) }
    }
}

/// End-to-end runs of the built `taskproc` binary.
@Suite struct CommandLineEndToEndTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var binary: URL {
        // The test bundle sits beside the products of the same build.
        let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundleDirectory, bundleDirectory.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("taskproc")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return URL(fileURLWithPath: ".build/debug/taskproc")
    }

    func run(_ arguments: [String]) throws -> Run {
        let r = try runProcess(Self.binary, arguments)
        return Run(status: r.status, stdout: r.stdout, stderr: r.stderr)
    }

    @Test func synthThenAnalyzeReportsTheTone() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("taskproc-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("tone.flac").path
        let synth = try run([
            "synth", wav, "--frequency", "1500", "--amplitude", "0.25", "--duration", "1", "--sample-rate", "44100",
            "--channels", "2", "--file-format", "flac24",
        ])
        #expect(synth.status == 0, "\(synth.stderr)")
        // Refuses to overwrite without --force.
        #expect(try run(["synth", wav]).status != 0)

        let analyze = try run(["analyze", wav])
        #expect(analyze.status == 0, "\(analyze.stderr)")
        #expect(analyze.stderr.isEmpty)
        let summary = try JSONDecoder().decode(AudioFileSummary.self, from: Data(analyze.stdout.utf8))
        #expect(summary.channelCount == 2)
        #expect(summary.container == "FLAC")
        #expect(summary.frameCount == 44_100)
        for ch in summary.channels {
            #expect(abs((ch.rmsDBFS ?? 0) - 20 * log10(0.25 / 2.0.squareRoot())) < 0.01)
            #expect(abs((ch.dominantFrequency ?? 0) - 1500) < 0.5)
        }

        let out = dir.appendingPathComponent("summary.csv").path
        #expect(try run(["analyze", wav, "--format", "csv", "--output", out]).status == 0)
        let csv = try String(contentsOfFile: out, encoding: .utf8)
        #expect(csv.split(separator: "\n").count == 3)
        #expect(try run(["analyze", wav, "--output", out]).status != 0)  // no silent overwrite
    }

    @Test func errorsGoToStderrWithTheFileName() throws {
        let r = try run(["analyze", "/no/such/file.wav"])
        #expect(r.status != 0)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("/no/such/file.wav"))
        #expect(r.stderr.contains("no such file"))
    }

    @Test func versionAndHelp() throws {
        let v = try run(["--version"])
        #expect(v.status == 0)
        #expect(v.stdout.contains("fftw-3"))
        #expect(v.stdout.contains("libsndfile"))
        for sub in ["analyze", "synth"] {
            let h = try run([sub, "--help"])
            #expect(h.status == 0)
            #expect(h.stdout.contains("USAGE"))
        }
    }
}

/// End-to-end runs of `taskproc inspect`.
@Suite struct InspectCommandTests {
    let run = CommandLineEndToEndTests().run

    @Test func inspectsAnMPowerTappingFile() throws {
        let r = try run(["inspect", sharedDataPath("mpower-samples/pdkit_mpower_finger_tapping.json")])
        #expect(r.status == 0, "\(r.stderr)")
        let inspection = try JSONDecoder().decode(InputInspection.self, from: Data(r.stdout.utf8))
        #expect(inspection.dialect == .mPower)
        #expect(inspection.tapping.first?.taps == 166)
    }

    @Test func csvOptionsReachTheReader() throws {
        // The Oxford file needs no options (nanoseconds and m/s² are detected) …
        let path = sharedDataPath("oxford-step-counter/user1_hand_1506421989895.csv.gz")
        let detected = try run(["inspect", path, "--format", "csv"])
        #expect(detected.status == 0, "\(detected.stderr)")
        #expect(detected.stdout.contains("m/s^2"))
        // … and stating the wrong time unit is honoured, so the measured rate changes by 10⁶.
        let forced = try run(["inspect", path, "--time-unit", "ms"])
        let inspection = try JSONDecoder().decode(InputInspection.self, from: Data(forced.stdout.utf8))
        let rate = try #require(inspection.recordings.first?.samplingRate)
        #expect(abs(rate - 100e-6) < 1e-6)
        #expect(try run(["inspect", path, "--acceleration-columns", "2,3"]).status != 0)
    }

    @Test func unreadablePartsGiveExitStatusTwoAndStillReportTheRest() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("taskproc-inspect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try #"{"items":[{"timestamp":1,"x":0,"y":0,"z":1},{"timestamp":1.01,"x":0,"y":0,"z":1}]}"#
            .write(to: dir.appendingPathComponent("accel_good.json"), atomically: true, encoding: .utf8)
        try #"{"items":[{"timestamp":1,"x":"#.write(to: dir.appendingPathComponent("accel_bad.json"), atomically: true, encoding: .utf8)
        let r = try run(["inspect", dir.path, "--format", "table"])
        #expect(r.status == 2)
        #expect(r.stdout.contains("accel_good.json"))
        #expect(r.stdout.contains("samples"))
        #expect(r.stdout.contains("truncated"))
        #expect(r.stderr.contains("could not be read"))
    }
}

/// End-to-end runs of `taskproc analyze` on walking inputs.
@Suite struct AnalyzeWalkingCommandTests {
    let run = CommandLineEndToEndTests().run

    struct Walk: Decodable {
        var stepCount: Int
        var cadence: Double?
        var samplingRate: Double?
    }

    @Test func oxfordHandWalkCountsItsFootSwitchSteps() throws {
        let r = try run(["analyze", sharedDataPath("oxford-step-counter/user1_hand_1506421989895.csv.gz")])
        #expect(r.status == 0, "\(r.stderr)")
        let results = try JSONDecoder().decode([Walk].self, from: Data(r.stdout.utf8))
        let walk = try #require(results.first)
        // Ground truth: 326 foot-switch steps, 101.2 steps/min (shared/data/README.md); the issue allows 4 % / 1.5 spm.
        #expect(abs(Double(walk.stepCount) - 326) <= 0.04 * 326)
        #expect(abs((walk.cadence ?? 0) - 101.2) <= 1.5)
    }

    @Test func stillPhoneHasNoSteps() throws {
        let r = try run(["analyze", sharedDataPath("mpower-samples/pdkit_mpower_gait_stationary.json"), "--format", "csv"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = r.stdout.split(separator: "\n")
        try #require(rows.count == 2, "\(r.stderr)")
        let header = rows[0].split(separator: ",", omittingEmptySubsequences: false)
        let values = rows[1].split(separator: ",", omittingEmptySubsequences: false)
        let column = try #require(header.firstIndex(of: "stepCount"))
        #expect(values[column] == "0")
    }

    @Test func tasksWithoutAProcessorSayWhatTheyAre() throws {
        // A touch-ability result has no processor (range of motion, reaction time, the Amsler grid and the 3D-model
        // selection, earlier examples, are scored now).
        let dir = try E2E.temporaryDirectory("no-processor")
        defer { E2E.remove(dir) }
        let file = dir.appendingPathComponent("model.json").path
        try E2E.write(
            #"{"_class":"ORKTaskResult","identifier":"model","taskRunUUID":"5B1E9F0C-2D3A-4B5C-8D7E-6F5A4B3C2D1E","#
                + #""results":[{"_class":"ORKStepResult","identifier":"touch.tap","results":["#
                + #"{"_class":"ORKTouchAbilityTapResult","identifier":"touch.tap","trials":[]}]}]}"#,
            to: file)
        let r = try run(["analyze", file])
        #expect(r.status == ExpectedExit.dataError)
        #expect(r.stderr.contains("the result holds ORKTouchAbilityTapResult, which taskproc does not analyse yet"), "\(r.stderr)")
    }
}
