import Foundation
import SensorSignal
import TestSupport
import Testing

@testable import ActiveTasks

/// The walking result's step-time summary, written for mutations of `make mutants` that no other test caught (M23,
/// M24); the expected values come from the definition it cites, not from the code under test.
@Suite(.tags(.mutant)) struct WalkingStepTimeTests {
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
