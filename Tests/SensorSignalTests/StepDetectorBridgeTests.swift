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

/// Bouts never overlap, and walking time counts each second once.
@Suite struct StepDetectorBoutOverlapTests {
    /// 6.5 s at 1.7 steps/s, 0.1 s without data, then 30 s at 2.0 steps/s: two bouts (the periods differ beyond the
    /// bridging tolerance) whose half-period paddings reached into each other (0.30–8.89 s and 8.85–36.34 s before
    /// the boundary rule).
    @Test(arguments: [UInt64(1), 2, 3]) func adjoiningBoutsMeetWithoutOverlapping(seed: UInt64) throws {
        let first = Gait.magnitude(stepFrequency: 1.7, duration: 6.5, rate: 100, seed: seed)
        let second = Gait.magnitude(stepFrequency: 2.0, duration: 30, rate: 100, start: 6.6, seed: seed + 10)
        let detection = StepDetector().detect(
            timestamps: first.times + second.times, magnitude: first.values + second.values)
        try #require(detection.bouts.count == 2, "\(detection.bouts)")
        let (a, b) = (detection.bouts[0], detection.bouts[1])
        #expect(a.end <= b.start, "\(detection.bouts)")
        // Each keeps its steps: the boundary lies between the last step of one and the first of the other.
        #expect(detection.stepTimes[a.steps.upperBound - 1] <= a.end)
        #expect(b.start <= detection.stepTimes[b.steps.lowerBound])
        #expect(detection.walkingDuration <= b.end - a.start + 1e-9)
    }
}
