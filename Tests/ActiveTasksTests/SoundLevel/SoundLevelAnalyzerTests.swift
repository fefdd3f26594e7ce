import ActiveTasks
import Foundation
import SensorSignal
import StudyInputs
import TestSupport
import Testing

/// Encodes a WAV with ffmpeg into `codec` in an `.m4a` container.
private func encode(_ wav: String, to m4a: String, codec: String) throws {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", wav, "-c:a", codec, m4a]
    try p.run()
    p.waitUntilExit()
    guard p.terminationStatus == 0 else { throw SoundFileError.decodeFailed(path: m4a, decoder: "ffmpeg", reason: "encode") }
}

@Suite struct SoundLevelAnalyzerTests {
    /// A 12 s stereo PCM16 file: noise (rms 0.1) + 1 kHz tone on the left, a quieter tone on the right.
    static func writeRecording(_ path: String, sampleRate: Int = 44_100) throws {
        let n = 12 * sampleRate
        let fs = Double(sampleRate)
        let noise = TestSignal.whiteNoise(rms: 0.1, seed: 3).samples(count: n, sampleRate: fs)
        let tone = TestSignal.sine(frequency: 1000, amplitude: 0.2).samples(count: n, sampleRate: fs)
        let left = zip(noise, tone).map { $0 + $1 }
        let right = TestSignal.sine(frequency: 250, amplitude: 0.05).samples(count: n, sampleRate: fs)
        try AudioFileWriter.write([left, right], sampleRate: sampleRate, to: path, format: .wav16)
    }

    @Test func calibratorGives94dBSPL() throws {
        let dir = TemporaryDirectory()
        let calibrator = dir.path("calibrator.wav")
        let tone = TestSignal.sine(frequency: 1000, amplitude: 0.3).samples(count: 10 * 48_000, sampleRate: 48_000)
        try AudioFileWriter.write([tone], sampleRate: 48_000, to: calibrator, format: .wavFloat)
        let calibration = try SoundLevelAnalyzer.calibration(fromCalibrator: calibrator, level: 94)
        var options = SoundLevelAnalysisOptions()
        options.calibration = calibration
        let r = try SoundLevelAnalyzer.analyze(path: calibrator, options: options)
        #expect(r.unit == "dB SPL")
        #expect(abs(try #require(r.channels[0].LAeq) - 94) <= 0.02)
        #expect(abs(try #require(r.channels[0].LCeq) - 94) <= 0.001)
        // The derived offset is the tone's level in dBFS (94 dB SPL) minus nothing: 10·lg(0.3²/2).
        #expect(abs(calibration.sensitivityOffset - 10 * log10(0.045)) < 0.001)
        // 114 dB calibrator: the same recording reads 20 dB higher.
        options.calibration = try SoundLevelAnalyzer.calibration(fromCalibrator: calibrator, level: 114)
        #expect(abs(try #require(try SoundLevelAnalyzer.analyze(path: calibrator, options: options).channels[0].LAeq) - 114) <= 0.02)
    }

    @Test func researchKitDeviceOffsets() throws {
        #expect(SoundCalibration.parse("iPhone")?.sensitivityOffset == -23.3)
        #expect(SoundCalibration.parse("ipad")?.sensitivityOffset == -29.3)
        #expect(SoundCalibration.parse("iPod touch")?.sensitivityOffset == -23.3)
        #expect(SoundCalibration.parse("-20.5")?.sensitivityOffset == -20.5)
        #expect(SoundCalibration.parse("android") == nil)
        // ResearchKit: a full-scale sine (mean square 0.5) reads 114.3 dB on an iPhone.
        #expect(abs(10 * log10(0.5) + SoundCalibration.parse("iPhone")!.gain - 114.29) < 0.01)
    }

    @Test func pcm16FastPathEqualsTheAudioSummaryPass() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("rec.wav")
        try Self.writeRecording(path)
        var options = SoundLevelAnalysisOptions()
        options.calibration = SoundCalibration.parse("iPhone")
        let fast = try SoundLevelAnalyzer.analyze(path: path, options: options)
        var audio = AudioAnalysisOptions()
        audio.soundLevel = options
        audio.blockFrames = 1000
        let summary = try #require(try AudioFileAnalyzer.summarize(path: path, options: audio).soundLevel)
        #expect(fast.channels == summary.channels)
        #expect(fast.channels.count == 2)
        #expect(fast.channels[0].splMeterSamples.count == 10)  // 12 s / 1.1 s
        #expect(fast.channels[0].splMeterPassed == false)  // ~100 dB SPL ≥ 35
        options.rule = SPLThresholdRule(threshold: 200, requiredContiguousSamples: 10)
        #expect(try SoundLevelAnalyzer.analyze(path: path, options: options).channels[0].splMeterPassed == true)
        options.rule = SPLThresholdRule(threshold: 200, requiredContiguousSamples: 11)
        #expect(try SoundLevelAnalyzer.analyze(path: path, options: options).channels[0].splMeterPassed == false)
    }

    @Test(.enabled(if: FFmpegAudioDecoder.isAvailable)) func alacGivesTheLevelsOfTheWAV() throws {
        let dir = TemporaryDirectory()
        let wav = dir.path("rec.wav")
        let m4a = dir.path("rec.m4a")
        try Self.writeRecording(wav)
        try encode(wav, to: m4a, codec: "alac")
        let a = try SoundLevelAnalyzer.analyze(path: wav)
        let b = try SoundLevelAnalyzer.analyze(path: m4a)
        #expect(b.duration == a.duration)
        // writeRecording writes two channels; zip below must compare both.
        try #require(a.channels.count == 2 && b.channels.count == a.channels.count)
        for (x, y) in zip(a.channels, b.channels) {
            for (l, m) in [(x.LAeq, y.LAeq), (x.LCeq, y.LCeq), (x.LZeq, y.LZeq), (x.LAFmax, y.LAFmax), (x.LASmax, y.LASmax),
                (x.LCpeak, y.LCpeak), (x.LA10, y.LA10), (x.LA50, y.LA50), (x.LA90, y.LA90)]
            {
                #expect(abs(try #require(l) - (try #require(m))) <= 0.01)
            }
        }
        let summary = try AudioFileAnalyzer.summarize(path: m4a)
        #expect(summary.encoding == "ALAC")
        #expect(summary.decoder == "ffmpeg")
        #expect(summary.frameCount == 12 * 44_100)
    }

    @Test(.enabled(if: FFmpegAudioDecoder.isAvailable)) func aacDecodesWithALossyWarning() throws {
        let dir = TemporaryDirectory()
        let wav = dir.path("rec.wav")
        let m4a = dir.path("rec.m4a")
        try Self.writeRecording(wav)
        try encode(wav, to: m4a, codec: "aac")
        let r = try SoundLevelAnalyzer.analyze(path: m4a)
        #expect(r.warnings.contains { $0.contains("lossy") })
        #expect(abs(try #require(r.channels[0].LAeq) - (try #require(try SoundLevelAnalyzer.analyze(path: wav).channels[0].LAeq))) < 0.5)
    }

    @Test func missingFFmpegIsASpecificError() throws {
        let dir = TemporaryDirectory()
        let m4a = dir.path("rec.m4a")
        try Data([0, 0, 0, 0x20] + Array("ftypM4A ".utf8) + [UInt8](repeating: 0, count: 64)).write(to: URL(fileURLWithPath: m4a))
        var options = SoundLevelAnalysisOptions()
        options.ffmpegDirectory = dir.path("no-ffmpeg-here")
        #expect {
            try SoundLevelAnalyzer.analyze(path: m4a, options: options)
        } throws: { error in
            guard case .decoderUnavailable(let path, let decoder, let hint) = error as? SoundFileError else { return false }
            return path == m4a && decoder == "FFmpeg" && hint.contains("apt-get install ffmpeg")
        }
    }

    @Test func channelOutOfRangeNamesTheFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("rec.wav")
        try Self.writeRecording(path)
        var options = SoundLevelAnalysisOptions()
        options.channel = 2
        #expect(throws: SoundLevelAnalysisError.channelOutOfRange(path: path, channel: 2, channelCount: 2)) {
            try SoundLevelAnalyzer.analyze(path: path, options: options)
        }
    }
}

@Suite struct SPLMeterProcessorTests {
    static func result(_ samples: [Double]) -> String {
        let values = samples.map { String($0) }.joined(separator: ",")
        return #"{"_class":"ORKEnvironmentSPLMeterResult","identifier":"splMeter","startDate":"2019-05-27T00:35:06-0700","endDate":"2019-05-27T00:35:20-0700","sensitivityOffset":-23.3,"recordedSPLMeterSamples":["# + values + "]}"
    }

    @Test func summarisesSamplesAndAppliesTheRule() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("spl.json")
        try Self.result([40, 30, 30, 30, 30, 30, 50]).write(toFile: path, atomically: true, encoding: .utf8)
        let input = try AnalysisRegistry.load(path: path)
        let results = SPLMeterProcessor.analyze(input)
        let r = try #require(results.first)
        #expect(results.count == 1)
        // Energy average: 10·lg((10^4 + 5·10^3 + 10^5)/7).
        #expect(abs(try #require(r.energyAverage) - 10 * log10((1e4 + 5e3 + 1e5) / 7)) < 1e-9)
        #expect(r.minimum == 30 && r.maximum == 50)
        #expect(r.passed == true && r.longestRunBelow == 5 && r.ruleSource == "ResearchKit default")
        #expect(r.warnings.first?.contains("6-band EQ") == true)
        let strict = SPLMeterProcessor.analyze(input, rule: SPLThresholdRule(threshold: 35, requiredContiguousSamples: 6))
        #expect(strict.first?.passed == false && strict.first?.ruleSource == "option")
    }

    @Test func takesTheRuleFromTheStepInTheSameFolder() throws {
        let dir = TemporaryDirectory()
        try Self.result([40, 40, 40]).write(toFile: dir.path("result.json"), atomically: true, encoding: .utf8)
        let step = try String(
            contentsOfFile: sharedDataPath("researchkit-samples/ORKEnvironmentSPLMeterStep.json"), encoding: .utf8)
            .replacingOccurrences(of: #""thresholdValue":35"#, with: #""thresholdValue":45"#)
            .replacingOccurrences(of: #""requiredContiguousSamples":5"#, with: #""requiredContiguousSamples":3"#)
        try step.write(toFile: dir.path("step.json"), atomically: true, encoding: .utf8)
        let r = try #require(SPLMeterProcessor.analyze(try AnalysisRegistry.load(path: dir.url.path)).first)
        #expect(r.threshold == 45 && r.requiredContiguousSamples == 3 && r.ruleSource == "step")
        #expect(r.passed == true)
    }

    @Test func emptySampleResultHasNoVerdict() throws {
        let input = try AnalysisRegistry.load(path: sharedDataPath("researchkit-samples/ORKEnvironmentSPLMeterResult.json"))
        let r = try #require(SPLMeterProcessor.analyze(input).first)
        #expect(r.sampleCount == 0 && r.passed == nil && r.energyAverage == nil)
    }
}
