import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs

/// Issue 16 in the audiometry processor: NaN, ±∞ and ±1e308 are counted, excluded and named, never a failed record,
/// and the result still encodes as JSON.
@Suite(.tags(.hostileInput)) struct AudiometryHostileValueTests {
    @Test func aThresholdOf1e300IsNoThresholdWithTheReason() throws {
        let header = ResearchKit.ResultHeader(
            className: "ORKdBHLToneAudiometryResult", identifier: "dBHL1.tone.audiometry")
        var p = DBHLStaircaseParameters()
        p.frequencies = [1000, 2000]
        var samples = DBHLStaircase.run(parameters: p) { $0.level >= 20 }
        samples[0].calculatedThreshold = 1e300
        let result = ResearchKit.DBHLToneAudiometryResult(
            header: header, outputVolume: 1, tonePlaybackDuration: 1, postStimulusDelay: 1, headphoneType: "AIRPODSV1",
            samples: samples)
        let ear = AudiometryProcessor.ear(result)
        #expect(ear.frequencies[0].calculatedThreshold == nil)
        #expect(ear.frequencies[1].calculatedThreshold == 20)
        #expect(
            ear.issues.contains { $0.hasPrefix("1000 Hz: calculatedThreshold 1e+300 dB HL is outside -200…300 dB") })
        _ = try ResultEncoding.json(ear)
    }

    /// A subnormal threshold (5e-324) is 0 dB HL to `Decimal`, whose exponent cannot hold it: it used to become
    /// NaN dB SPL and fail the record when encoded.
    @Test func aSubnormalThresholdIsZeroDBHLNotNaN() throws {
        let cal = try HeadphoneCalibration(headphoneType: "AIRPODSPROV2")
        for tiny in [
            Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude, Double.leastNormalMagnitude / 1024,
            Double.leastNormalMagnitude,
        ] {
            #expect(try cal.spl(frequency: 1000, level: tiny) == cal.retspl(frequency: 1000))
        }
        #expect(throws: AudiometryCalibrationError.self) { try cal.spl(frequency: 1000, level: 1e7) }
        let header = ResearchKit.ResultHeader(
            className: "ORKdBHLToneAudiometryResult", identifier: "dBHL1.tone.audiometry")
        var p = DBHLStaircaseParameters()
        p.frequencies = [1000]
        var samples = DBHLStaircase.run(parameters: p) { $0.level >= 20 }
        samples[0].calculatedThreshold = Double.leastNonzeroMagnitude  // 5e-324
        let result = ResearchKit.DBHLToneAudiometryResult(
            header: header, outputVolume: 1, tonePlaybackDuration: 1, postStimulusDelay: 1, headphoneType: "AIRPODSV1",
            samples: samples)
        let ear = AudiometryProcessor.ear(result)
        let spl = try #require(ear.frequencies[0].thresholdSPL)
        #expect(spl.isFinite)
        _ = try ResultEncoding.json(ear)
    }
}
