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

    /// Measured 2026-11-26: exact at 42, 45, 48, 54 and 60 steps/min (42, 45, 48, 54, 60). Before the peaks were
    /// searched again at the confirmed period: 48 for 42, 47 for 45, 51 for 48, 55 for 54 (the rebound after each
    /// impact, kept by the first search spaced for the harmonic, counted as steps); before issue 17: 0 at 45 and
    /// 54 steps/min.
    @Test(arguments: [(0.7, 42), (0.75, 45), (0.8, 48), (0.9, 54), (1.0, 60)])
    func slowWalksAreCounted(frequency: Double, measured: Int) throws {
        let walk = Self.impacts(stepFrequency: frequency)
        let detection = StepDetector().detect(timestamps: walk.times, magnitude: walk.values)
        print("slow walk at \(60 * frequency) steps/min: \(detection.stepCount) for \(walk.steps)")
        #expect(walk.steps == measured, "the walk has \(walk.steps) impacts")
        #expect(abs(detection.stepCount - walk.steps) <= 1, "\(detection.stepCount) steps for \(walk.steps)")
        // No lesser peak between two steps: every interval is one step period.
        for (a, b) in zip(detection.stepTimes, detection.stepTimes.dropFirst()) {
            #expect(abs((b - a) * frequency - 1) < 0.05, "steps at \(a) and \(b) s")
        }
        let cadence = try #require(detection.cadence)
        #expect(abs(cadence - 60 * frequency) < 1, "cadence \(cadence)")
    }

    /// At the slowest accepted step frequency, 39 steps/min (0.65 Hz), the count is wrong (measured 2026-11-26:
    /// 31 for 39): the windows take the second harmonic or the filter's ringing after each impact for the step, and
    /// the run's peaks, spaced for that, do not show the true period. Counting only the strongest peaks found it
    /// (39 for 39) but halved limping walks at 84 and 108 steps/min (``AsymmetricGaitTests``), so it was not kept.
    /// A known limit, pinned so it does not get worse.
    @Test func theSlowestWalksAreMiscounted() {
        let walk = Self.impacts(stepFrequency: 0.65)
        let detection = StepDetector().detect(timestamps: walk.times, magnitude: walk.values)
        print("slow walk at 39 steps/min: \(detection.stepCount) for \(walk.steps)")
        #expect(abs(detection.stepCount - walk.steps) <= abs(31 - walk.steps) + 1)
        withKnownIssue("issue 17: walks under 42 steps/min are miscounted") {
            #expect(abs(detection.stepCount - walk.steps) <= 1, "\(detection.stepCount) steps for \(walk.steps)")
        }
    }
}

/// Limping: every other step a weaker impact (20–45 % of the other's amplitude, the settling dip scaled alike),
/// placed mid-stride or at 40 % of it (a short step), at 48–108 steps/min; impacts as in ``SlowGaitTests``.
/// Measured 2026-12-05: within one step of the truth in 29 of 30 walks; the symmetric-timing walk with a weak step
/// of 30 % at 48 steps/min loses 4 steps (44 for 48): in some windows the weak step's correlation with the strong one
/// stays under the floor either way the period is read. History: 30 with 1.5 s walking runs, 7 with 3 s runs, 33 once
/// a window whose spectrum reads its period as a stride is read as steps when only that reading repeats, 44 with runs
/// of 1.5 s again. The same walk at 60 steps/min: 60 (57, then 59). Pinned at the measured counts.
@Suite struct AsymmetricGaitTests {
    static func limp(stepFrequency f: Double, weak: Double, timing: Double) -> (times: [Double], values: [Double], steps: Int) {
        var random = SplitMix64(seed: 3)
        var steps: [Double] = []
        var next = 0.3
        while next < 60 {
            steps.append(next)
            next += (steps.count % 2 == 1 ? 2 * timing : 2 * (1 - timing)) / f
        }
        var times: [Double] = []
        var values: [Double] = []
        for i in 0..<6000 {
            let t = Double(i) / 100
            var v = 1 + 0.03 * random.nextNormal()
            for (j, s) in steps.enumerated() where abs(t - s) < 1 {
                let scale = j % 2 == 0 ? 1 : weak
                v += 0.35 * scale * exp(-((t - s) / 0.08) * ((t - s) / 0.08))
                v -= 0.15 * scale * exp(-((t - s - 0.25) / 0.12) * ((t - s - 0.25) / 0.12))
            }
            times.append(t)
            values.append(v)
        }
        return (times, values, steps.count)
    }

    /// (step frequency Hz, weak step amplitude, timing) → measured count.
    static let measured: [Double: [Double: [Double: Int]]] = [
        0.8: [0.2: [0.4: 48, 0.5: 48], 0.3: [0.4: 48, 0.5: 44], 0.45: [0.4: 48, 0.5: 48]],
        1.0: [0.2: [0.4: 60, 0.5: 60], 0.3: [0.4: 60, 0.5: 60], 0.45: [0.4: 60, 0.5: 60]],
        1.2: [0.2: [0.4: 72, 0.5: 71], 0.3: [0.4: 73, 0.5: 71], 0.45: [0.4: 72, 0.5: 72]],
        1.4: [0.2: [0.4: 83, 0.5: 83], 0.3: [0.4: 84, 0.5: 84], 0.45: [0.4: 84, 0.5: 84]],
        1.8: [0.2: [0.4: 107, 0.5: 108], 0.3: [0.4: 108, 0.5: 108], 0.45: [0.4: 108, 0.5: 108]],
    ]

    @Test(arguments: [0.8, 1.0, 1.2, 1.4, 1.8])
    func limpingWalks(frequency: Double) throws {
        for weak in [0.2, 0.3, 0.45] {
            for timing in [0.4, 0.5] {
                let walk = Self.limp(stepFrequency: frequency, weak: weak, timing: timing)
                let count = StepDetector().detect(timestamps: walk.times, magnitude: walk.values).stepCount
                let measured = try #require(Self.measured[frequency]?[weak]?[timing])
                print("limp at \(60 * frequency) steps/min, weak \(weak), timing \(timing): \(count) for \(walk.steps)")
                #expect(walk.steps == Int((60 * frequency).rounded()), "\(walk.steps) impacts")
                #expect(abs(count - measured) <= 1, "\(count) steps; measured \(measured) for \(walk.steps)")
                // Never more steps than impacts, and never half of them (a weak step merged into the stride).
                #expect(count <= walk.steps + 1, "\(count) for \(walk.steps)")
                if abs(measured - walk.steps) > 1 {
                    withKnownIssue("issue 17: limping at 48 steps/min with a weak step of 30 % loses steps") {
                        #expect(abs(count - walk.steps) <= 1, "\(count) for \(walk.steps)")
                    }
                } else {
                    #expect(2 * count > walk.steps + 2, "\(count) for \(walk.steps)")
                }
            }
        }
    }
}

/// Random motion over many seeds: 300 recordings of 120 s, white noise of 0.05–0.5 g per axis, at 100 and 25 Hz.
///
/// The suite's `randomMotionIsNotWalking` has three. Measured 2026-12-05 with the shipped runs of 1.5 s: none gives a
/// step at either rate. Without the gait-band checks a 6 s window of noise can reach a stride regularity of
/// 0.6, and a cluster of such windows makes a rhythm chain: at 100 Hz the counted ones held 3.1–5.3 % of their energy in
/// the band (white noise there: 4.2 %, `minimumChainBandFraction` 10 % sets them aside); at 25 Hz white noise holds
/// 16.7 %, more than that bound, and runs of 1.5 s gave 29 recordings with 256 false steps (runs of 3 s: 4 with 34)
/// until irregular rhythm chains needed 1.5 times the white-noise share (`minimumIrregularChainNoiseRatio`): the
/// counted chance chains held 0.65–1.39 times it, with stride regularities under 0.6.
@Suite struct RandomMotionSurveyTests {
    struct Survey {
        var recordings = 0
        var withSteps = 0
        var falseSteps = 0
    }

    static func survey(rate: Double) -> Survey {
        var result = Survey()
        for level in [0.05, 0.1, 0.2, 0.3, 0.5] {
            for seed in UInt64(100)..<160 {
                let signal = Gait.magnitude(
                    stepFrequency: 1.8, duration: 120, rate: rate, noise: level, amplitude: 0, seed: seed)
                let detection = StepDetector().detect(timestamps: signal.times, magnitude: signal.values)
                result.recordings += 1
                if detection.stepCount > 0 { result.withSteps += 1 }
                result.falseSteps += detection.stepCount
            }
        }
        print("random motion at \(rate) Hz: \(result.withSteps) of \(result.recordings) recordings, \(result.falseSteps) false steps")
        return result
    }

    @Test func randomMotionFalseStepsAcrossSeeds() {
        let result = Self.survey(rate: 100)
        #expect(result.withSteps == 0 && result.falseSteps == 0, "\(result.withSteps) of \(result.recordings)")
    }

    @Test func randomMotionAt25HzGivesNoStep() {
        let result = Self.survey(rate: 25)
        #expect(result.withSteps == 0 && result.falseSteps == 0, "\(result.withSteps) of \(result.recordings)")
    }

    /// The irregular-chain check is what keeps 25 Hz noise out: without it (ratio 0) chance rhythm chains count.
    @Test func withoutTheIrregularChainCheckNoiseAt25HzCounts() {
        var configuration = StepDetector.Configuration()
        configuration.minimumIrregularChainNoiseRatio = 0
        var withSteps = 0
        var explained = 0
        for seed in UInt64(100)..<160 {
            let signal = Gait.magnitude(stepFrequency: 1.8, duration: 120, rate: 25, noise: 0.1, amplitude: 0, seed: seed)
            let detection = StepDetector(configuration: configuration).detect(timestamps: signal.times, magnitude: signal.values)
            guard detection.stepCount > 0 else { continue }
            withSteps += 1
            // With the check, the same recording gives no step and a warning that says why (white noise at 25 Hz:
            // 16.7 % in the band, scipy; see GaitBandShareTests).
            let checked = StepDetector().detect(timestamps: signal.times, magnitude: signal.values)
            #expect(checked.stepCount == 0, "seed \(seed)")
            let says = checked.warnings.contains {
                $0.contains("irregular rhythmic stretches were not counted") && $0.contains("16.7 %")
            }
            if says { explained += 1 }
        }
        #expect(withSteps > 0, "the survey no longer exercises the check")
        #expect(explained == withSteps, "\(explained) of \(withSteps) recordings say why their steps were set aside")
    }
}

/// A wrist, modelled from physics (no wrist recording with ground truth is in the shared data): the arm a 0.6 m
/// pendulum swinging at the stride frequency (amplitude 0.2, 0.35 or 0.5 rad about 0.1 rad forward), the sensor
/// turning with it, the body rising and falling at the step frequency (1 or 2.5 cm) with a fore-aft surge of half
/// that, 0.02 g noise per axis, 50 Hz, 60 s, at 78–132 steps/min.
///
/// From |a| alone (measured 2026-11-26): 18 of 30 walks within one step. In the other 12 the arm's own acceleration
/// at twice its swing frequency — the step frequency — cancels most of the body's step rhythm in |a|, so |a| repeats
/// once per stride and one stride is counted as one step (47 for 96, 53 for 108, …). Nothing in |a| tells such a
/// walk from a slow walk at the stride frequency.
///
/// With the three axes (issue 17, `detectsArmSwing`): the axes repeat once per period of |a| and reverse half way —
/// the device swings once per stride — so each swing is two steps. Measured 2026-11-26: every walk at 96–132
/// steps/min within one step (the 9 cancelled ones read as arm swings: 95–133), the other 21 unchanged. At 78 steps/min
/// (a stride of 0.65 Hz, the free-swing frequency of a 0.6 m arm, √(g/L)/2π = 0.64 Hz) the swinging sensor is in
/// free fall along its arc and feels almost none of the swing, so the axes cannot show it: 3 of 6 walks stay wrong
/// (66, 36 and 4 for 78), a known issue with a physical cause.
@Suite struct WristModelTests {
    /// (step frequency Hz, swing rad, vertical m) → measured counts from |a| alone and with the axes.
    static let measured: [Double: [Double: [Double: (magnitude: Int, axes: Int)]]] = [
        1.3: [0.2: [0.01: (66, 66), 0.025: (78, 78)], 0.35: [0.01: (36, 36), 0.025: (78, 78)],
              0.5: [0.01: (77, 77), 0.025: (4, 4)]],
        1.6: [0.2: [0.01: (96, 96), 0.025: (96, 96)], 0.35: [0.01: (47, 95), 0.025: (96, 96)],
              0.5: [0.01: (95, 95), 0.025: (49, 97)]],
        1.8: [0.2: [0.01: (108, 108), 0.025: (108, 108)], 0.35: [0.01: (53, 107), 0.025: (108, 108)],
              0.5: [0.01: (107, 107), 0.025: (55, 109)]],
        2.0: [0.2: [0.01: (120, 120), 0.025: (120, 120)], 0.35: [0.01: (61, 121), 0.025: (120, 120)],
              0.5: [0.01: (119, 119), 0.025: (61, 121)]],
        2.2: [0.2: [0.01: (132, 132), 0.025: (132, 132)], 0.35: [0.01: (67, 133), 0.025: (132, 132)],
              0.5: [0.01: (65, 131), 0.025: (67, 133)]],
    ]

    @Test(arguments: [1.3, 1.6, 1.8, 2.0, 2.2])
    func wristWalks(frequency: Double) throws {
        let truth = Int((60 * frequency).rounded())
        for swing in [0.2, 0.35, 0.5] {
            for vertical in [0.01, 0.025] {
                let walk = WristModel.walk(stepFrequency: frequency, swing: swing, vertical: vertical)
                let alone = StepDetector().detect(timestamps: walk.times, magnitude: walk.values).stepCount
                let detection = StepDetector().detect(timestamps: walk.times, magnitude: walk.values, axes: walk.axes)
                let count = detection.stepCount
                let measured = try #require(Self.measured[frequency]?[swing]?[vertical])
                print("wrist at \(truth) steps/min, swing \(swing) rad, body \(vertical) m: \(count) for \(truth) (|a| alone \(alone))")
                #expect(abs(alone - measured.magnitude) <= 1, "|a| alone: \(alone); measured \(measured.magnitude)")
                #expect(abs(count - measured.axes) <= 1, "\(count) steps; measured \(measured.axes) for \(truth)")
                #expect(count <= truth + 1, "\(count) for \(truth)")
                // Read as an arm swing exactly where |a| alone halves the walk.
                let halved = 2 * measured.magnitude < truth + 10
                #expect(
                    detection.bouts.contains { $0.detection == .armSwing } == (halved && frequency > 1.5),
                    "\(detection.bouts.map(\.detection))")
                if frequency > 1.5 {
                    #expect(abs(count - truth) <= 1, "\(count) for \(truth)")
                } else if abs(measured.axes - truth) > 1 {
                    withKnownIssue("issue 17: at a stride near the arm's free-swing frequency the axes do not show the swing") {
                        #expect(abs(count - truth) <= 1, "\(count) for \(truth)")
                    }
                }
            }
        }
    }
}
