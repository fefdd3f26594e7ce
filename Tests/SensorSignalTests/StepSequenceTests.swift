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
