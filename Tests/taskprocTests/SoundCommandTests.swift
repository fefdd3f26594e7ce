import ActiveTasks
import ArgumentParser
import Foundation
import StudyBatch
import StudyInputs
import StudyOutputs
import Testing

@testable import taskproc

@Suite struct SoundCommandParsingTests {
    @Test func soundOptionsParse() throws {
        let c = try Analyze.parse([
            "rec.m4a", "--channel", "0", "--sensitivity-offset", "iPhone", "--sampling-interval", "2", "--threshold", "45",
            "--required-contiguous", "3",
        ])
        #expect(c.sound.channel == 0)
        #expect(c.sound.sensitivityOffset == "iPhone")
        #expect(c.sound.samplingInterval == 2)
        #expect(c.sound.rule == SPLThresholdRule(threshold: 45, requiredContiguousSamples: 3))
        let calibrated = try Analyze.parse(["rec.wav", "--calibration-file", "tone.wav", "--calibration-level", "114"])
        #expect(calibrated.sound.calibrationLevel == 114)
        #expect(try Analyze.parse(["rec.wav"]).sound.rule == nil)
        #expect(try Analyze.parse(["rec.wav", "--third-octaves"]).sound.analysisOptions(blockFrames: 4096, acceptTruncated: false).thirdOctaveBands)
        // A negative offset is a value, not an unknown flag (ResearchKit's offsets are negative).
        #expect(try Analyze.parse(["rec.wav", "--sensitivity-offset", "-23.3"]).sound.sensitivityOffset == "-23.3")
    }

    @Test(arguments: [
        ["--sensitivity-offset", "android"], ["--calibration-file", "t.wav"], ["--calibration-level", "94"],
        ["--sensitivity-offset", "-23.3", "--calibration-file", "t.wav", "--calibration-level", "94"],
        ["--channel", "-1"], ["--sampling-interval", "0"], ["--required-contiguous", "0"],
        ["--calibration-file", "t.wav", "--calibration-level", "-3"],
    ])
    func badSoundOptionsAreRejected(_ extra: [String]) {
        #expect(throws: (any Error).self) { try Analyze.parse(["rec.wav"] + extra) }
    }
}

/// End-to-end runs of the built binary on synthesised recordings.
@Suite struct SoundCommandEndToEndTests {
    let cli = CommandLineEndToEndTests()

    func directory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("taskproc-sound-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func analyzeCalibratedToneReportsLevelsPerChannel() throws {
        let dir = directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("tone.wav").path
        #expect(try cli.run(["synth", wav, "--frequency", "1000", "--amplitude", "0.5", "--duration", "12", "--channels", "2"]).status == 0)
        let r = try cli.run(["analyze", wav, "--sensitivity-offset", "iPhone", "--channel", "0"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let level = try #require(json["soundLevel"] as? [String: Any])
        #expect(level["unit"] as? String == "dB SPL")
        let channels = try #require(level["channels"] as? [[String: Any]])
        try #require(channels.count == 1)
        let ch = channels[0]
        for key in ["LAeq", "LCeq", "LZeq", "LAFmax", "LASmax", "LAFmin", "LCpeak", "LA10", "LA50", "LA90", "duration"] {
            #expect(ch[key] is Double, "\(key) missing")
        }
        // 0.5 FS sine: 10·lg(0.125) = −9.03 dBFS, + 94 + 23.3 = 108.27 dB SPL (PCM16 quantisation: ±0.001).
        #expect(abs((ch["LAeq"] as? Double ?? 0) - 108.27) < 0.01)
        #expect((ch["splMeterSamples"] as? [Double])?.count == 10)
        #expect(ch["splMeterPassed"] as? Bool == false)

        // Calibrator file: the same tone declared 94 dB SPL reads 94.
        let calibrated = try cli.run(["analyze", wav, "--calibration-file", wav, "--calibration-level", "94", "--format", "csv"])
        #expect(calibrated.status == 0, "\(calibrated.stderr)")
        let lines = calibrated.stdout.split(separator: "\n")
        try #require(lines.count >= 2, "\(calibrated.stderr)")
        let header = lines[0].split(separator: ",").map(String.init)
        let row = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let laeq = try #require(header.firstIndex(of: "LAeq"))
        #expect(abs((Double(row[laeq]) ?? 0) - 94) < 0.02)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"))) func analyzeDecodesM4A() throws {
        let dir = directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("tone.wav").path
        let m4a = dir.appendingPathComponent("tone.m4a").path
        #expect(try cli.run(["synth", wav, "--frequency", "440", "--amplitude", "0.25", "--duration", "3", "--sample-rate", "44100"]).status == 0)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        p.arguments = ["-nostdin", "-v", "error", "-i", wav, "-c:a", "alac", m4a]
        try p.run()
        p.waitUntilExit()
        let a = try cli.run(["analyze", m4a, "--format", "table"])
        #expect(a.status == 0, "\(a.stderr)")
        #expect(a.stdout.contains("MP4 ALAC"))
        #expect(a.stdout.contains("LAeq"))
    }

    @Test func splMeterResultIsSummarised() throws {
        let dir = directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("spl.json").path
        try #"{"_class":"ORKEnvironmentSPLMeterResult","identifier":"spl","sensitivityOffset":-23.3,"recordedSPLMeterSamples":[30,31,32,33,34,50]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let r = try cli.run(["analyze", path, "--format", "csv"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("energyAverage"))
        #expect(r.stdout.contains(",true,5"))
        let strict = try cli.run(["analyze", path, "--required-contiguous", "6", "--format", "csv"])
        #expect(strict.stdout.contains(",false,5"))
    }
}
