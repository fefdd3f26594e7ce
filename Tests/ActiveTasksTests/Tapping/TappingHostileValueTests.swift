import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs

/// Issue 16 in the tapping processor: NaN, ±∞ and ±1e308 are counted, excluded and named, never a failed record,
/// and the result still encodes as JSON.
@Suite(.tags(.hostileInput)) struct TappingHostileValueTests {
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
}
