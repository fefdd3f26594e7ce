import ActiveTasks
import Foundation
import SensorSignal
import StudyInputs
import StudyOutputs
import TestSupport
import Testing

/// A temporary directory removed on deinit.
@Suite struct AudioFileSummaryTests {
    @Test(arguments: [(440.0, 0.5, 44_100), (1000.0, 0.25, 48_000), (3_141.5, 0.8, 96_000), (97.5, 0.1, 16_000)])
    func sineLevelsMatchAnalyticValues(frequency: Double, amplitude: Double, sampleRate: Int) throws {
        let dir = TemporaryDirectory()
        let path = dir.path("sine.wav")
        // Float WAV: no quantisation, so the analytic values hold to rounding.
        let x = TestSignal.sine(frequency: frequency, amplitude: amplitude).samples(
            count: sampleRate * 2, sampleRate: Double(sampleRate))
        try AudioFileWriter.write([x], sampleRate: sampleRate, to: path, format: .wavFloat)
        let s = try AudioFileAnalyzer.summarize(path: path)
        let ch = try #require(s.channels.first)
        #expect(s.sampleRate == Double(sampleRate))
        #expect(abs(s.duration - 2) < 1e-12)
        #expect(s.clippingThreshold == 1.0)
        // RMS of A·sin is A/√2 and its mean is 0 (every case holds a whole number of periods in 2 s).
        #expect(abs(ch.rms / (amplitude / 2.0.squareRoot()) - 1) < 1e-4)
        #expect(abs(try #require(ch.rmsDBFS) - 20 * log10(amplitude / 2.0.squareRoot())) < 1e-3)
        #expect(abs(ch.peak - amplitude) < amplitude * 1e-4)
        #expect(abs(try #require(ch.crestFactorDB) - 10 * log10(2)) < 2e-3)
        #expect(abs(ch.dcOffset) < 1e-4 * amplitude)
        #expect(ch.clippedSamples == 0)
        // Dominant frequency within 5 % of a bin of the true tone.
        let f = try #require(ch.dominantFrequency)
        #expect(abs(f - frequency) < 0.05 * s.spectrum.binWidth, "got \(f) Hz for \(frequency) Hz")
        // A pure tone is the opposite of flat.
        #expect(try #require(ch.spectralFlatness) < 0.05)
    }

    @Test func dcOffsetAndClippingAreCounted() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("dc.wav")
        var x = TestSignal.sine(frequency: 250, amplitude: 0.2).samples(count: 8000, sampleRate: 8000).map { $0 + 0.1 }
        // 37 samples driven past full scale: 16-bit PCM stores them at the extreme codes.
        for i in stride(from: 100, to: 100 + 37 * 50, by: 50) { x[i] = i.isMultiple(of: 100) ? 1.7 : -1.3 }
        try AudioFileWriter.write([x], sampleRate: 8000, to: path, format: .wav16)
        let s = try AudioFileAnalyzer.summarize(path: path)
        let ch = try #require(s.channels.first)
        #expect(s.clippingThreshold == 32767.0 / 32768.0)
        #expect(ch.clippedSamples == 37)
        #expect(ch.peak == 1.0)  // −32768 decodes to exactly −1
        // Mean: the 0.1 offset, minus the clipped samples' displacement, plus quantisation.
        let expectedMean = x.map { min(max($0, -1), 1) }.reduce(0, +) / 8000
        #expect(abs(ch.dcOffset - expectedMean) < 2e-4)
    }

    @Test func silenceHasNoLevelsOrFrequency() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("silence.flac")
        try AudioFileWriter.write([[Double](repeating: 0, count: 4800)], sampleRate: 48_000, to: path, format: .flac16)
        let ch = try #require(try AudioFileAnalyzer.summarize(path: path).channels.first)
        #expect(ch.rms == 0)
        #expect(ch.rmsDBFS == nil)
        #expect(ch.peakDBFS == nil)
        #expect(ch.dominantFrequency == nil)
        // JSON has no −∞: silent levels are explicit nulls (every key present), and the document still encodes.
        let json = try ResultEncoding.json(try AudioFileAnalyzer.summarize(path: path))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let channel = try #require((object["channels"] as? [[String: Any]])?.first)
        for key in ["rmsDBFS", "peakDBFS", "crestFactorDB", "dominantFrequency", "spectralFlatness"] {
            #expect(channel[key] is NSNull, "\(key) should be null for silence")
        }
        #expect(channel["rms"] as? Double == 0)
    }

    @Test(arguments: [1_000, 4_097, 65_536, 1 << 20])
    func resultDoesNotDependOnBlockSize(blockFrames: Int) throws {
        let dir = TemporaryDirectory()
        let path = dir.path("noise.wav")
        let x = TestSignal.whiteNoise(rms: 0.1, seed: 7).samples(count: 100_000, sampleRate: 48_000)
        let y = TestSignal.sine(frequency: 1234, amplitude: 0.3).samples(count: 100_000, sampleRate: 48_000)
        try AudioFileWriter.write([x, y], sampleRate: 48_000, to: path, format: .wav24)
        var options = AudioAnalysisOptions()
        let reference = try AudioFileAnalyzer.summarize(path: path, options: options)
        options.blockFrames = blockFrames
        let s = try AudioFileAnalyzer.summarize(path: path, options: options)
        try #require(reference.channels.count == 2 && s.channels.count == reference.channels.count)
        for (a, b) in zip(s.channels, reference.channels) {
            #expect(abs(a.rms - b.rms) <= 1e-12 * b.rms)
            #expect(a.peak == b.peak)
            #expect(abs(a.dcOffset - b.dcOffset) <= 1e-15)
            #expect(a.clippedSamples == b.clippedSamples)
            #expect(a.dominantFrequency == b.dominantFrequency)
        }
        // White noise RMS 0.1 → −20 dBFS (seeded; 100k samples give ±0.03 dB).
        #expect(abs(try #require(s.channels[0].rmsDBFS) + 20) < 0.05)
        // Averaged white-noise periodograms are nearly flat: the expected flatness of a mean of K
        // exponential (χ²) bins is exp(ψ(K) − ln K) ≈ 1 − 1/(2K) for K = 23 segments ≈ 0.98.
        #expect(try #require(s.channels[0].spectralFlatness) > 0.95)
        #expect(try #require(s.channels[1].spectralFlatness) < 0.05)
    }

    @Test func truncatedFileFailsUnlessAccepted() throws {
        let dir = TemporaryDirectory()
        let good = dir.path("good.wav")
        try AudioFileWriter.write([[Double](repeating: 0.25, count: 16_000)], sampleRate: 16_000, to: good)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        let path = dir.path("cut.wav")
        try bytes.prefix(bytes.count * 3 / 4).write(to: URL(fileURLWithPath: path))
        #expect(throws: SoundFileError.self) { try AudioFileAnalyzer.summarize(path: path) }
        var options = AudioAnalysisOptions()
        options.acceptTruncated = true
        let s = try AudioFileAnalyzer.summarize(path: path, options: options)
        #expect(s.declaredFrameCount == 16_000)
        #expect(s.frameCount < 16_000)
    }

    @Test func renderingsCarryTheSameNumbers() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("a,b.wav")  // a comma in the name must be quoted in CSV
        try AudioFileWriter.write(
            [TestSignal.sine(frequency: 500, amplitude: 0.5).samples(count: 8000, sampleRate: 8000)], sampleRate: 8000,
            to: path)
        let s = try AudioFileAnalyzer.summarize(path: path)
        let csv = try ResultEncoding.render(s, as: .csv).split(separator: "\n")
        #expect(csv.count == 2)
        #expect(csv[1].hasPrefix("\"\(path)\","))
        let table = try ResultEncoding.render(s, as: .table)
        #expect(table.contains("-9.03 dBFS"))
        let decoded = try JSONDecoder().decode(AudioFileSummary.self, from: Data(try ResultEncoding.json(s).utf8))
        #expect(decoded == s)
    }
}
