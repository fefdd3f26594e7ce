import Foundation
import SensorSignal
import Testing

/// The gap-bridging rule of the step detector (`StepDetector.Configuration.maximumBridgedGap`, 3 s): two chains
/// of steps either side of a data gap are one walk when the unobserved time *between their steps* — the span
/// from the last step before the gap to the first after it, less one step period on each side — is at most 3 s.
@Suite struct StepDetectorBridgeTests {
    let detector = StepDetector()

    /// A 1.8 Hz walk with samples removed so that exactly `periods` step periods separate the last step before
    /// the gap from the first after it (each kept edge holds 0.1 s of signal past its step).
    func walk(withGapOf periods: Int) throws -> StepDetection {
        let signal = Gait.magnitude(stepFrequency: 1.8, duration: 60, rate: 100, seed: 31)
        let clean = detector.detect(timestamps: signal.times, magnitude: signal.values)
        let k = try #require(clean.stepTimes.firstIndex { $0 > 28 })
        try #require(k + periods < clean.stepTimes.count)
        let before = clean.stepTimes[k] + 0.1
        let after = clean.stepTimes[k + periods] - 0.1
        let keep = signal.times.indices.filter { signal.times[$0] <= before || signal.times[$0] >= after }
        return detector.detect(timestamps: keep.map { signal.times[$0] }, magnitude: keep.map { signal.values[$0] })
    }

    /// 7 periods of 1/1.8 s = 3.89 s span; less one period each side = 2.78 s unobserved walking ≤ 3 s: bridged,
    /// with the 6 steps of the gap interpolated. (Taking off only one period, 3.33 s, would split the walk.)
    @Test func aSpanOfSevenPeriodsIsBridged() throws {
        let detection = try walk(withGapOf: 7)
        #expect(detection.bouts.count == 1, "\(detection.bouts)")
        #expect((5...7).contains(detection.interpolatedStepIndices.count), "\(detection.interpolatedStepIndices)")
    }

    /// 9 periods = 5.0 s span, 3.89 s unobserved > 3 s: two walks, nothing interpolated.
    @Test func aSpanOfNinePeriodsSplitsTheWalk() throws {
        let detection = try walk(withGapOf: 9)
        #expect(detection.bouts.count == 2, "\(detection.bouts)")
        #expect(detection.interpolatedStepIndices.isEmpty)
    }
}
