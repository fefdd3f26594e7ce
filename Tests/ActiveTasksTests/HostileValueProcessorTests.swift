import Foundation
import SensorSignal
import Testing

@testable import ActiveTasks
@testable import StudyBatch
@testable import StudyInputs
@testable import StudyOutputs

/// Issue 16 in the processors: NaN, ±∞ and ±1e308 are counted, excluded and named, never a failed record, and
/// every result still encodes as JSON.
@Suite struct HostileValueProcessorTests {
    /// Values near ±1.8e308 made the histogram's range overflow to ∞ and `Int(NaN)` trapped.
    @Test func theReportHistogramTakesTheWholeDoubleRange() {
        let bins = SVGChart.histogram([1e308, -1e308, 0, 1.7e308, -1.7e308])
        #expect(bins.count == 5)
        #expect(bins.map(\.y).reduce(0, +) == 5)
        // Five equal bins of width 6.8e307 from −1.7e308: one value in each.
        #expect(bins.map(\.y) == [1, 1, 1, 1, 1])
        #expect(bins.allSatisfy { $0.x0.isFinite && $0.x1.isFinite })
    }

    /// Only a program can make such a date; it is written with four digits, never a trap or a 7-digit year.
    @Test func datesOutsideFourDigitYearsAreWrittenAtTheEndOfTheRange() {
        #expect(
            ResultDate(date: Date(timeIntervalSince1970: 1e300), utcOffset: 0).description.hasPrefix(
                "9999-12-31T23:59:59"))
        #expect(
            ResultDate(date: Date(timeIntervalSince1970: -1e300), utcOffset: 0).description.hasPrefix(
                "0000-01-01T00:00:00"))
    }

    @Test func tapsAtAbsurdTimesAreExcludedAndCounted() throws {
        var samples: [TapSample] = []
        for i in 0..<20 {
            let left = i % 2 == 0
            let x: Double = left ? 100 : 270
            samples.append(
                TapSample(
                    timestamp: Double(i) * 0.2, duration: nil, button: left ? .left : .right,
                    location: ViewPoint(x: x, y: 400)))
        }
        samples[3].timestamp = 1e308
        samples[5].timestamp = -1e308
        samples[7].location.x = Double.nan
        let result = TappingProcessor.analyze(TappingRecording(samples: samples))
        #expect(
            result.warnings == [
                "3 tap(s) excluded: a time, location or duration that is not finite or beyond ±1e+15 (InputLimits.maximumMagnitude)"
            ])
        #expect(result.extras.tapCount == 17)
        #expect(result.extras.tapSpan == Double(19) * 0.2)  // the last kept tap's time; the first is at 0
        _ = try ResultEncoding.json(result)
    }

    @Test func splSamplesOutsideTheLevelRangeAreLeftOutOfTheAverages() throws {
        let header = ResearchKit.ResultHeader(className: "ORKEnvironmentSPLMeterResult", identifier: "splMeter")
        let result = ResearchKit.EnvironmentSPLMeterResult(
            header: header, sensitivityOffset: -23.3, recordedSPLMeterSamples: [50, 1e308, 50, -1e308, 301])
        let analysed = SPLMeterProcessor.analyze(result, stepIdentifier: "splMeter", file: "spl.json")
        #expect(analysed.energyAverage == 50)
        #expect(analysed.maximum == 50)
        #expect(analysed.warnings.contains { $0.hasPrefix("3 sample(s) not finite or outside -200…300 dB") })
        _ = try ResultEncoding.json(analysed)
    }

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

    /// The last line of defence: a NaN that reaches the encoder names the field.
    @Test func aNaNThatReachesTheEncoderNamesTheField() {
        struct Bad: Encodable { var channels = [["rms": Double.nan]] }
        #expect {
            _ = try ResultEncoding.json(Bad())
        } throws: { error in
            (error as? ExportError)?.description == "field channels[0].rms: nan is not a finite number"
        }
    }
}
