import ActiveTasks
import ArgumentParser
import Foundation
import Testing

@testable import taskproc

/// Parse-level tests of the command-line interface.
@Suite struct CommandParsingTests {
    @Test func analyzeDefaultsToJSON() throws {
        let command = try Analyze.parse(["recording.wav"])
        #expect(command.file == "recording.wav")
        #expect(command.format == .json)
        #expect(command.output == nil)
    }

    @Test func analyzeAcceptsEveryFormat() throws {
        for format in OutputFormat.allCases {
            #expect(try Analyze.parse(["x.wav", "--format", format.rawValue]).format == format)
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
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e, as: UTF8.self))
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
