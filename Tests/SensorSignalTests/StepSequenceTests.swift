import Foundation
import SensorSignal
import TestSupport
import Testing

/// The step-sequence pass of ``StepDetector`` (issue 17): short bouts outside the rhythm pass's runs, confirmed by
/// sustained walking in the same recording; bouts never outside the recording; per-bout features.
@Suite struct StepSequenceTests {
    let detector = StepDetector()

    /// A sustained 30 s walk at 1.8 Hz, then three bursts of irregular steps separated by 6 s of stillness: each
    /// burst is 8 steps whose intervals vary at random by up to ±20 % around 0.65 s (a shuffling, cane-assisted
    /// gait), each step a 0.3 g raised-cosine impact of 0.3 s. Returns the signal and the burst step times.
    static func walkThenIrregularBursts(sustained: Bool, seed: UInt64 = 7) -> (
        times: [Double], values: [Double], bursts: [[Double]]
    ) {
        var random = SplitMix64(seed: seed)
        let walk = Gait.magnitude(stepFrequency: 1.8, duration: 30, rate: 100, seed: seed)
        var times = sustained ? walk.times : []
        var values = sustained ? walk.values : []
        var bursts: [[Double]] = []
        var t = 30.0
        for _ in 0..<3 {
            t += 6
            var steps: [Double] = []
            for _ in 0..<8 {
                steps.append(t)
                t += 0.65 * (1 + 0.4 * (random.nextUnit() - 0.5))
            }
            bursts.append(steps)
        }
        let end = t + 6
        var i = 0
        while 30 + Double(i) / 100 < end {
            let time = 30 + Double(i) / 100
            var value = 1 + 0.005 * random.nextNormal()
            for step in bursts.joined() where abs(time - step) < 0.15 {
                value += 0.3 * 0.5 * (1 + cos(Double.pi * (time - step) / 0.15))
            }
            times.append(time)
            values.append(value)
            i += 1
        }
        return (times, values, bursts)
    }

    @Test func irregularBurstsAfterASustainedWalkAreCounted() throws {
        let signal = Self.walkThenIrregularBursts(sustained: true)
        let detection = detector.detect(timestamps: signal.times, magnitude: signal.values)
        print("walk + bursts: \(detection.bouts.map { ($0.start, $0.stepCount, $0.detection) })")
        let walk = detection.bouts.filter { $0.end <= 30.5 }
        // The sustained walk: 30 s at 1.8 Hz = 54 steps, found by the rhythm pass.
        #expect(abs(walk.reduce(0) { $0 + $1.stepCount } - 54) <= 2, "\(walk)")
        #expect(walk.allSatisfy { $0.detection == .rhythm })
        // Each burst: its 8 steps, each within 50 ms of the true impact.
        for (k, burst) in signal.bursts.enumerated() {
            let found = detection.stepTimes.filter { $0 > burst[0] - 0.5 && $0 < burst[7] + 0.5 }
            #expect(found.count == 8, "burst \(k): \(found.count) steps for 8")
            for step in burst { #expect(found.contains { abs($0 - step) < 0.05 }, "burst \(k): step at \(step)") }
        }
        #expect(detection.bouts.contains { $0.detection == .stepSequence }, "\(detection.bouts)")
    }

    /// The same bursts with no sustained walk: a few consistent intervals are not enough evidence of walking (random
    /// motion makes them too), so nothing is counted and the warning says why.
    @Test func burstsWithoutASustainedWalkAreNotCounted() {
        let signal = Self.walkThenIrregularBursts(sustained: false)
        let detection = detector.detect(timestamps: signal.times, magnitude: signal.values)
        #expect(detection.stepCount == 0, "\(detection.bouts)")
        #expect(detection.warnings.contains { $0.contains("step sequences were not counted") }, "\(detection.warnings)")
    }

    /// Switched off, the pass adds nothing: the walk is counted as before, every bout is a rhythm bout.
    @Test func thePassCanBeSwitchedOff() {
        let signal = Self.walkThenIrregularBursts(sustained: true)
        let detector = StepDetector(configuration: .init(detectsStepSequences: false))
        let detection = detector.detect(timestamps: signal.times, magnitude: signal.values)
        #expect(detection.bouts.allSatisfy { $0.detection == .rhythm })
        #expect(abs(detection.bouts.filter { $0.end <= 30.5 }.reduce(0) { $0 + $1.stepCount } - 54) <= 2)
    }

    /// A walk from the first sample to the last: no bout starts before the recording or ends after it (half a step
    /// period before the first step would be 0.28 s before the first sample).
    @Test func boutsStayInsideTheRecording() throws {
        // Steps at 1000 + k/1.8 s; the recording starts 0.45 s in and ends 0.1 s after a step, so the first and last
        // steps are 0.11 and 0.1 s from its ends, less than half a step period (0.28 s).
        let full = Gait.magnitude(stepFrequency: 1.8, duration: 20, rate: 100, start: 1000, seed: 12)
        let keep = full.times.indices.filter { full.times[$0] >= 1000.45 && full.times[$0] <= 1000 + 35 / 1.8 + 0.1 }
        let signal = (times: keep.map { full.times[$0] }, values: keep.map { full.values[$0] })
        let detection = detector.detect(timestamps: signal.times, magnitude: signal.values)
        try #require(!detection.bouts.isEmpty)
        let first = try #require(signal.times.first)
        let last = try #require(signal.times.last)
        for bout in detection.bouts {
            #expect(bout.start >= first && bout.end <= last, "\(bout) outside \(first)…\(last)")
        }
    }

    /// Per-bout features of a steady synthetic walk at 1.8 Hz: cadence 108 steps/min, stride time 1.111 s, stride
    /// regularity near 1 (each stride repeats the previous one).
    @Test func boutFeaturesOfASteadyWalk() throws {
        let signal = Gait.magnitude(stepFrequency: 1.8, duration: 40, rate: 100, seed: 13)
        let detection = detector.detect(timestamps: signal.times, magnitude: signal.values)
        let bout = try #require(detection.bouts.first)
        #expect(detection.bouts.count == 1)
        #expect(abs(bout.cadence - 108) < 0.5, "\(bout.cadence)")
        #expect(abs(bout.strideTime - 1 / 0.9) < 0.005, "\(bout.strideTime)")
        #expect(try #require(bout.strideRegularity) > 0.9)
        #expect(bout.detection == .rhythm)
    }
}

/// Slow, impaired walking (issue 17: cadences down to about 40 steps/min). Each step is a sharp impact, a 0.35 g
/// Gaussian of 0.08 s, followed by a 0.15 g dip 0.25 s later (the body settling), on 0.03 g noise, at 100 Hz for
/// 60 s: the shape whose second harmonic outweighs its fundamental, which made the windows take half a step for a
/// step (0 steps at 54 steps/min and 16 of 48 at 48 before the peaks confirmed the period).
@Suite struct SlowGaitTests {
    static func impacts(stepFrequency f: Double, seed: UInt64 = 1) -> (times: [Double], values: [Double], steps: Int) {
        var random = SplitMix64(seed: seed)
        let steps = Array(stride(from: 0.3, to: 60, by: 1 / f))
        var times: [Double] = []
        var values: [Double] = []
        for i in 0..<6000 {
            let t = Double(i) / 100
            var v = 1 + 0.03 * random.nextNormal()
            for s in steps where abs(t - s) < 1 {
                v += 0.35 * exp(-((t - s) / 0.08) * ((t - s) / 0.08))
                v -= 0.15 * exp(-((t - s - 0.25) / 0.12) * ((t - s - 0.25) / 0.12))
            }
            times.append(t)
            values.append(v)
        }
        return (times, values, steps.count)
    }

    /// Measured 2026-11-25: 47 for 45 at 45 steps/min, 51 for 48 at 48, 55 for 54 at 54, 60 for 60 at 60 (before
    /// issue 17: 0 at 45 and 54 steps/min). Within 7 % of the truth, pinned at the measured count.
    @Test(arguments: [(0.75, 47), (0.8, 51), (0.9, 55), (1.0, 60)])
    func slowWalksAreCounted(frequency: Double, measured: Int) throws {
        let walk = Self.impacts(stepFrequency: frequency)
        let detection = StepDetector().detect(timestamps: walk.times, magnitude: walk.values)
        print("slow walk at \(60 * frequency) steps/min: \(detection.stepCount) for \(walk.steps)")
        #expect(abs(detection.stepCount - measured) <= 1, "\(detection.stepCount) steps; measured \(measured)")
        #expect(
            Double(abs(detection.stepCount - walk.steps)) <= 0.07 * Double(walk.steps),
            "\(detection.stepCount) steps for \(walk.steps)")
        let cadence = try #require(detection.cadence)
        #expect(abs(cadence - 60 * frequency) < 4, "cadence \(cadence)")
    }

    /// Below 45 steps/min the count is wrong (measured 2026-11-25: 48 for 42 at 42 steps/min — the dip's rebound,
    /// half a step after each impact, taken for a step — and 31 for 39 at 39). A known limit, pinned so it does not
    /// get worse.
    @Test(arguments: [(0.65, 31), (0.7, 48)])
    func theSlowestWalksAreMiscounted(frequency: Double, measured: Int) {
        let walk = Self.impacts(stepFrequency: frequency)
        let detection = StepDetector().detect(timestamps: walk.times, magnitude: walk.values)
        print("slow walk at \(60 * frequency) steps/min: \(detection.stepCount) for \(walk.steps)")
        #expect(abs(detection.stepCount - walk.steps) <= abs(measured - walk.steps) + 1)
        withKnownIssue("issue 17: walks under 45 steps/min are miscounted") {
            #expect(abs(detection.stepCount - walk.steps) <= 1, "\(detection.stepCount) steps for \(walk.steps)")
        }
    }
}

/// Random motion over many seeds (the suite's `randomMotionIsNotWalking` has three): 60 recordings of 120 s, white
/// noise of 0.05–0.5 g per axis at 100 Hz. Measured 2026-11-25: 4 recordings give false steps, 88 in all (19, 51, 8 and 10),
/// 49 of them in step sequences (the rest from the rhythm pass: a 6 s window of noise can reach a stride
/// regularity of 0.6, and a rhythm chain whose strides happen to repeat then confirms sequences). The rhythm pass
/// alone gave the same kind of false bouts before issue 17 (10 of 60 numpy-noise recordings, 4–12 steps each).
/// Pinned at the measured values as a known issue.
@Suite struct RandomMotionSurveyTests {
    @Test func randomMotionFalseStepsAcrossSeeds() {
        var recordings = 0
        var withSteps = 0
        var falseSteps = 0
        var sequenceSteps = 0
        for level in [0.05, 0.1, 0.2, 0.3, 0.5] {
            for seed in UInt64(100)..<112 {
                let signal = Gait.magnitude(
                    stepFrequency: 1.8, duration: 120, rate: 100, noise: level, amplitude: 0, seed: seed)
                let detection = StepDetector().detect(timestamps: signal.times, magnitude: signal.values)
                recordings += 1
                if detection.stepCount > 0 { withSteps += 1 }
                falseSteps += detection.stepCount
                sequenceSteps += detection.bouts.filter { $0.detection == .stepSequence }.reduce(0) { $0 + $1.stepCount }
                if detection.stepCount > 0 { print("random motion \(level) g seed \(seed): \(detection.stepCount) steps") }
            }
        }
        print("random motion: \(withSteps) of \(recordings) recordings, \(falseSteps) false steps, \(sequenceSteps) in sequences")
        #expect(withSteps <= 4, "\(withSteps) of \(recordings)")
        #expect(falseSteps <= 88 + 4 && sequenceSteps <= 49 + 4)
        withKnownIssue("issue 17: random motion passes the rhythm pass in some recordings") { #expect(withSteps == 0) }
    }
}
