import Foundation
import SensorSignal
import TestSupport
import Testing

@testable import ActiveTasks

/// Sound-level definitions that no other test pinned (M30, M31, M36); expected values from IEC 61672-1 and the
/// ResearchKit rule in `../shared/spec/researchkit-formats.md`, computed from the signal's construction.
@Suite(.tags(.mutant)) struct SoundLevelDefinitionTests {
    /// M30. LA10 is the level exceeded 10 % of the time, LA90 the one exceeded 90 % (IEC 61672 / ISO 1996).
    /// 10 s at 48 kHz of a 1 kHz tone (A-weighting 0 dB there): 8 s at amplitude 0.05, then 2 s at 0.5. The
    /// statistics start once the F weighting has settled (10 time constants, 1.25 s), so the F-weighted level sits
    /// at 20·lg(0.05/√2) = −29.03 dBFS for 6.75 s and at 20·lg(0.5/√2) = −9.03 dBFS for 2 s (23 % of the time):
    /// LA10 ≈ −9.03, LA50 and LA90 ≈ −29.03 (the rise takes well under 0.1 s).
    @Test func exceedanceLevelsOfAQuietThenLoudTone() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("quiet-then-loud.wav")
        let fs = 48_000
        let loud = TestSignal.sine(frequency: 1000, amplitude: 0.5).samples(count: 2 * fs, sampleRate: Double(fs))
        let quiet = TestSignal.sine(frequency: 1000, amplitude: 0.05).samples(count: 8 * fs, sampleRate: Double(fs))
        // The phase continues: the loud part starts where the quiet one ends (8 s = 8000 whole cycles).
        try AudioFileWriter.write([quiet + loud], sampleRate: fs, to: path, format: .wavFloat)
        let r = try SoundLevelAnalyzer.analyze(path: path, options: SoundLevelAnalysisOptions())
        let channel = try #require(r.channels.first)
        let high = 20 * log10(0.5 / 2.0.squareRoot())
        let low = 20 * log10(0.05 / 2.0.squareRoot())
        #expect(abs(try #require(channel.LA10) - high) < 0.1, "\(String(describing: channel.LA10))")
        #expect(abs(try #require(channel.LA90) - low) < 0.1, "\(String(describing: channel.LA90))")
        #expect(abs(try #require(channel.LA50) - low) < 0.1)
    }

    /// M31. LCpeak is the peak C-weighted *amplitude* in decibels, 20·lg(peak) (IEC 61672-1 §3.10). C-weighting is
    /// 0 dB at 1 kHz (normalised there), so a 1 kHz sine of amplitude 0.5 peaks at 20·lg 0.5 = −6.02 dBFS; the
    /// filter's ripple of the sampled peak at 48 kHz stays below 0.05 dB.
    @Test func peakLevelOfASine() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("sine.wav")
        let fs = 48_000
        let tone = TestSignal.sine(frequency: 1000, amplitude: 0.5).samples(count: 3 * fs, sampleRate: Double(fs))
        try AudioFileWriter.write([tone], sampleRate: fs, to: path, format: .wavFloat)
        let r = try SoundLevelAnalyzer.analyze(path: path, options: SoundLevelAnalysisOptions())
        let peak = try #require(r.channels.first?.LCpeak)
        #expect(abs(peak - 20 * log10(0.5)) < 0.05, "\(peak)")
    }

    /// M36. ResearchKit's SPL-meter rule counts a sample towards the run only when it is *below* the threshold
    /// (`SPL < thresholdValue`): five samples exactly at the threshold never pass.
    @Test func aSampleAtTheThresholdIsNotBelowIt() {
        let rule = SPLThresholdRule(threshold: 35, requiredContiguousSamples: 5)
        #expect(rule.longestRunBelow([35, 35, 35, 35, 35]) == 0)
        #expect(rule.passes([35, 35, 35, 35, 35]) == false)
        #expect(rule.longestRunBelow([34.9, 34.9, 35, 34.9, 34.9, 34.9, 34.9, 34.9]) == 5)
        #expect(rule.passes([34.9, 34.9, 35, 34.9, 34.9, 34.9, 34.9, 34.9]) == true)
    }
}
