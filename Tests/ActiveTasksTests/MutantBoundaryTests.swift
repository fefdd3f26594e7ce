import Foundation
import SensorSignal
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyBatch
@testable import StudyInputs
@testable import StudyOutputs

/// Tests written for mutations of `make mutants` that no other test caught: each names the mutation it kills and
/// takes its expected values from the definition it cites, not from the code under test.
@Suite struct MutantBoundaryTests {
    /// M07. WHO 2021 (World Report on Hearing, Table 1.3 note): unilateral hearing loss is a better ear below
    /// 20 dB HL and a worse ear of 35 dB HL *or more*; both limits exactly.
    @Test func unilateralLossAtExactlyThirtyFiveDecibels() {
        func ear(_ t: Double) -> EarSummary { EarSummary(thresholds: [500: t, 1000: t, 2000: t, 4000: t], oneKilohertz: []) }
        #expect(BilateralSummary(right: ear(19), left: ear(35), asymmetry: []).unilateral == true)
        #expect(BilateralSummary(right: ear(19), left: ear(34), asymmetry: []).unilateral == false)
        #expect(BilateralSummary(right: ear(20), left: ear(35), asymmetry: []).unilateral == false)
    }

    /// M20. ResearchKit's `ORKTappingButtonIdentifier` (ORKTypes.h): None = 0, Left = 1, Right = 2; the integer
    /// form is what `ORKESerialization` writes for older results.
    @Test func researchKitButtonIdentifiersAreNoneLeftRight() {
        #expect(TapSpellings.button(JSONValue.number(0)) == TapButton.none)
        #expect(TapSpellings.button(JSONValue.number(1)) == .left)
        #expect(TapSpellings.button(JSONValue.number(2)) == .right)
        #expect(TapSpellings.button(JSONValue.number(3)) == nil)
    }

    /// M23 and M24. The walking result's step-time summary (README "walking" keys): step times are relative to the
    /// recording's time origin, `stepTimeMean` is the mean interval, `stepTimeSD` the sample SD (n − 1) and
    /// `stepTimeCV` = 100 · SD / mean, in percent. Intervals 0.5, 0.6, 0.4 s: mean 0.5 s, SD 0.1 s, CV 20 %.
    @Test func stepTimesAreRelativeAndTheCoefficientOfVariationIsInPercent() throws {
        let detection = StepDetection(
            stepTimes: [100.5, 101.0, 101.6, 102.0], stepIntervals: [0.5, 0.6, 0.4], samplingRate: 100)
        let quality = WalkingQuality(
            hygiene: nil, resampling: nil, accelerationUnit: "g", windowCount: 0, walkingWindowCount: 0,
            analysedDuration: 2, interpolatedSteps: 0, interpolatedStepTimes: [], warnings: [])
        let result = WalkingResult(
            stepIdentifier: "walking.outbound", source: nil, signal: "acceleration magnitude", timeOrigin: 100,
            detection: detection, quality: quality)
        let times = result.stepTimes
        let expected = [0.5, 1.0, 1.6, 2.0]
        try #require(times.count == expected.count)
        for (t, e) in zip(times, expected) { #expect(abs(t - e) < 1e-12) }
        let mean = try #require(result.stepTimeMean)
        let sd = try #require(result.stepTimeSD)
        let cv = try #require(result.stepTimeCV)
        #expect(abs(mean - 0.5) < 1e-12)
        #expect(abs(sd - 0.1) < 1e-12)
        #expect(abs(cv - 20) < 1e-9)
    }
}

/// Sound-level definitions that no other test pinned (M30, M31, M36); expected values from IEC 61672-1 and the
/// ResearchKit rule in `../shared/spec/researchkit-formats.md`, computed from the signal's construction.
@Suite struct SoundLevelDefinitionTests {
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

/// M39. RFC 8259 §7: the four hex digits of a `\u` escape may be upper or lower case.
@Suite struct JSONEscapeTests {
    @Test func upperAndLowerCaseHexEscapesAreTheSameCharacter() throws {
        let upper = try JSONParser.parse(Data(#"["\u00C9\u00E9\u20AC"]"#.utf8), file: "upper.json")
        let lower = try JSONParser.parse(Data(#"["\u00c9\u00e9\u20ac"]"#.utf8), file: "lower.json")
        #expect(upper.arrayValue?.first?.stringValue == "Éé€")
        #expect(lower.arrayValue?.first?.stringValue == "Éé€")
        // A surrogate pair with upper-case digits: U+1F600.
        let pair = try JSONParser.parse(Data(#"["\uD83D\uDE00"]"#.utf8), file: "pair.json")
        #expect(pair.arrayValue?.first?.stringValue == "\u{1F600}")
    }
}

/// Hostile values never trap an exporter (issue 16: `Int(hz)` of a 1e20 Hz frequency did); the measures are read
/// from the typed result.
@Suite struct ExportHostileValueTests {
    @Test func aHugeOrFractionalFrequencyIsSkippedNotConverted() throws {
        let folder = TemporaryDirectory()
        let file = folder.path("dbhl.json")
        try AudiometryExportTests.result.write(toFile: file, atomically: true, encoding: .utf8)
        guard case .dBHL(var test) = try #require(AudiometryProcessor.analyze(try AnalysisRegistry.load(path: file)).first)
        else {
            Issue.record("the fixture is a dB HL result")
            return
        }
        try #require(test.ears.count == 1 && test.ears[0].frequencies.count == 3)
        test.ears[0].frequencies[0].frequency = 1e20
        test.ears[0].frequencies[1].frequency = -1e300
        test.ears[0].frequencies[2].frequency = 1000.5
        var skipped: [String] = []
        #expect(AudiometryAnalysis.exportMeasures(of: .dBHL(test), skipped: &skipped).isEmpty)
        #expect(skipped.count == 3, "\(skipped)")
        // The same three values through the whole FHIR export: no Observation, three notes, no trap.
        let output = FHIRExport.bundle(try ExportRecord.records(of: AudiometryResult.dBHL(test)), context: ExportContext())
        #expect(output.bundle.objectValue?["entry"] == nil)
        #expect(output.skipped.filter { $0.contains("no LOINC hearing-threshold code") }.count == 3)
    }

    @Test func theLargestChannelIndexDoesNotOverflowTheOccurrence() throws {
        let folder = TemporaryDirectory()
        let file = folder.path("tone.wav")
        let samples = (0..<48_000).map { 0.5 * sin(2 * Double.pi * 1000 * Double($0) / 48_000) }
        try AudioFileWriter.write([samples], sampleRate: 48_000, to: file, format: .wav16)
        var options = AudioAnalysisOptions()
        options.soundLevel.calibration = SoundCalibration(sensitivityOffset: -23.3, source: "value")
        var summary = try AudioFileAnalyzer.summarize(path: file, options: options)
        let level = try #require(summary.soundLevel)
        summary.soundLevel?.channels = level.channels.map {
            var c = $0
            c.channel = Int.max
            return c
        }
        var skipped: [String] = []
        let measures = AudioRecordingAnalysis.exportMeasures(of: summary, skipped: &skipped)
        #expect(measures.contains { $0.code == "LAeq" })
        #expect(measures.allSatisfy { $0.occurrence == 1 })
    }
}
