import Foundation
import TestSupport
import Testing

@testable import SensorSignal

/// Synthetic gait: body-frame acceleration (g) with a known step frequency, turned into |a| after a random
/// rotation, the way a phone in an unknown orientation sees it.
enum Gait {
    /// Step-rate vertical bounce with its harmonic, a stride-rate (left/right) component of relative size
    /// `asymmetry`, forward and lateral sway, and white noise of `noise` g per axis.
    static func magnitude(
        stepFrequency f: Double, duration: Double, rate: Double, asymmetry: Double = 0.15, noise: Double = 0.03,
        amplitude: Double = 1, start: Double = 0, seed: UInt64 = 1
    ) -> (times: [Double], values: [Double]) {
        var random = SplitMix64(seed: seed)
        let q = (0..<4).map { _ in random.nextUnit() - 0.5 }
        let norm = q.map { $0 * $0 }.reduce(0, +).squareRoot()
        let (w, x, y, z) = (q[0] / norm, q[1] / norm, q[2] / norm, q[3] / norm)
        let r = [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
        let n = Int(duration * rate)
        var times: [Double] = []
        var axes: [[Double]] = [[], [], []]
        for i in 0..<n {
            let t = Double(i) / rate
            let phase = 2 * Double.pi * f * t
            let vertical =
                amplitude * (0.25 * cos(phase) + 0.08 * cos(2 * phase + 0.5) + asymmetry * 0.25 * cos(phase / 2))
            let body = [
                amplitude * 0.05 * sin(phase / 2) + noise * random.nextNormal(),
                amplitude * (0.1 * sin(phase) + asymmetry * 0.1 * cos(phase / 2)) + noise * random.nextNormal(),
                1 + vertical + noise * random.nextNormal(),
            ]
            times.append(start + t)
            for row in 0..<3 { axes[row].append(r[row][0] * body[0] + r[row][1] * body[1] + r[row][2] * body[2]) }
        }
        return (times, StepDetector.magnitude(x: axes[0], y: axes[1], z: axes[2]))
    }
}

@Suite struct StepDetectorTests {
    let detector = StepDetector()

    // MARK: Known cadence

    @Test(arguments: [15.0, 25, 50, 100, 200], [0.9, 1.4, 1.8, 2.3])
    func knownCadenceAtAnyRate(rate: Double, frequency: Double) throws {
        let signal = Gait.magnitude(
            stepFrequency: frequency, duration: 60, rate: rate, seed: UInt64(rate * 10 + frequency * 100))
        let detection = detector.detect(timestamps: signal.times, magnitude: signal.values)
        let expected = frequency * 60
        #expect(abs(Double(detection.stepCount) - expected) <= 2, "\(detection.stepCount) steps for \(expected)")
        let cadence = try #require(detection.cadence)
        #expect(abs(cadence - expected) < 1, "cadence \(cadence) for \(expected)")
        let dominant = try #require(detection.dominantFrequency)
        #expect(abs(dominant - frequency) < 0.05)
        let samplingRate = try #require(detection.samplingRate)
        #expect(abs(samplingRate - rate) < 1e-6 * rate)
        #expect(detection.bouts.count == 1)
        #expect(detection.interpolatedStepIndices.isEmpty)
        // Step times are one period apart.
        let median = detection.stepIntervals.sorted()[detection.stepIntervals.count / 2]
        #expect(abs(median - 1 / frequency) < 0.01)
    }

    /// A phone in a trouser pocket: the two steps of a stride differ, so the autocorrelation peaks at the stride and
    /// the spectrum has stride harmonics (f/2, 3f/2).
    ///
    /// Steps, not strides, must be counted as long as the step rhythm is the stronger one in |a| (as in every recording
    /// of the reference set, where the stride line is at most a third of the step line). `asymmetry` 1 makes the stride
    /// line as large as the step line.
    @Test(arguments: [0.5, 0.8, 1.0])
    func asymmetricGaitCountsSteps(asymmetry: Double) throws {
        let signal = Gait.magnitude(stepFrequency: 1.7, duration: 60, rate: 100, asymmetry: asymmetry, seed: 4)
        let detection = detector.detect(timestamps: signal.times, magnitude: signal.values)
        #expect(abs(Double(detection.stepCount) - 102) <= 2, "\(detection.stepCount) steps for 102")
        let stride = try #require(detection.strideRegularity)
        let step = try #require(detection.stepRegularity)
        #expect(stride > step, "the stride repeats, the step does not")
        #expect(try #require(detection.symmetry) < 1)
    }

    @Test func symmetricGaitHasSymmetryNearOne() throws {
        let signal = Gait.magnitude(stepFrequency: 1.8, duration: 60, rate: 50, asymmetry: 0, seed: 8)
        let detection = detector.detect(timestamps: signal.times, magnitude: signal.values)
        let symmetry = try #require(detection.symmetry)
        #expect(symmetry > 0.9 && symmetry < 1.1)
        #expect(try #require(detection.stepRegularity) > 0.8)
    }

    // MARK: No walking

    @Test func stillPhoneHasNoSteps() {
        let signal = Gait.magnitude(stepFrequency: 1.8, duration: 60, rate: 100, noise: 0.005, amplitude: 0, seed: 2)
        let detection = detector.detect(timestamps: signal.times, magnitude: signal.values)
        #expect(detection.stepCount == 0)
        #expect(detection.bouts.isEmpty && detection.walkingDuration == 0 && detection.cadence == nil)
        #expect(detection.stepRegularity == nil && detection.dominantFrequency == nil)
        #expect(detection.walkingWindowCount == 0)
        #expect(detection.warnings.contains { $0.hasPrefix("no walking detected") })
        #expect(detection.stepVerdicts == detection.warnings.filter { $0.hasPrefix("no walking detected") })
    }

    @Test(arguments: [0.1, 0.3, 0.5], [21, 22, 23] as [UInt64])
    func randomMotionIsNotWalking(level: Double, seed: UInt64) {
        // White noise of `level` g on each axis: strong motion without a rhythm.
        let signal = Gait.magnitude(
            stepFrequency: 1.8, duration: 120, rate: 100, noise: level, amplitude: 0, seed: seed)
        let detection = detector.detect(timestamps: signal.times, magnitude: signal.values)
        #expect(detection.stepCount == 0, "\(detection.stepCount) false steps")
    }

    @Test func stationaryMPowerRecordingHasNoSteps() throws {
        let data = try Data(
            contentsOf: URL(fileURLWithPath: sharedDataPath("mpower-samples/pdkit_mpower_gait_stationary.json")))
        let items = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Double]])
        let times = items.compactMap { $0["timestamp"] }
        let magnitude = items.map {
            (($0["x"] ?? 0) * ($0["x"] ?? 0) + ($0["y"] ?? 0) * ($0["y"] ?? 0) + ($0["z"] ?? 0) * ($0["z"] ?? 0))
                .squareRoot()
        }
        #expect(times.count == 2023)
        let detection = detector.detect(timestamps: times, magnitude: magnitude)
        #expect(detection.stepCount == 0)
        #expect(detection.windowCount > 20)
    }

    @Test func walkThenStandEndsTheBout() throws {
        let walk = Gait.magnitude(stepFrequency: 1.8, duration: 30, rate: 50, seed: 5)
        let stand = Gait.magnitude(
            stepFrequency: 1.8, duration: 30, rate: 50, noise: 0.005, amplitude: 0, start: 30, seed: 6)
        let detection = detector.detect(timestamps: walk.times + stand.times, magnitude: walk.values + stand.values)
        #expect(abs(detection.stepCount - 54) <= 2, "\(detection.stepCount)")
        let bout = try #require(detection.bouts.first)
        #expect(detection.bouts.count == 1)
        #expect(bout.end > 29 && bout.end < 31, "bout ends at \(bout.end) s")
        #expect(abs(detection.walkingDuration - 30) < 1.5)
    }

    // MARK: Timestamp problems

    @Test func shuffledAndDuplicatedTimestampsGiveTheSameSteps() throws {
        let signal = Gait.magnitude(stepFrequency: 1.6, duration: 60, rate: 100, seed: 12)
        let clean = detector.detect(timestamps: signal.times, magnitude: signal.values)
        var random = SplitMix64(seed: 99)
        var order = Array(signal.times.indices)
        for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, Int(random.next() % UInt64(i + 1))) }
        var times = order.map { signal.times[$0] }
        var values = order.map { signal.values[$0] }
        for i in stride(from: 0, to: 6000, by: 20) {  // 300 exact duplicates
            times.append(signal.times[i])
            values.append(signal.values[i])
        }
        let messy = detector.detect(timestamps: times, magnitude: values)
        #expect(messy.stepTimes == clean.stepTimes)
        #expect(messy.resampling?.wasReordered == true)
        #expect(messy.resampling?.duplicatesDropped == 300)
    }

    @Test func nonFiniteSamplesAreIgnored() {
        var signal = Gait.magnitude(stepFrequency: 1.8, duration: 40, rate: 100, seed: 13)
        for i in stride(from: 100, to: 4000, by: 397) { signal.values[i] = .nan }
        signal.times[2000] = .infinity
        let detection = detector.detect(timestamps: signal.times, magnitude: signal.values)
        #expect(abs(detection.stepCount - 72) <= 2)
        #expect(detection.warnings.contains { $0.contains("non-finite") })
    }

    @Test func shortDropoutsAreInterpolatedNotSplit() {
        // Every 7th sample missing (intervals of 20 ms at 100 Hz) and single 0.2 s holes: no gaps.
        let signal = Gait.magnitude(stepFrequency: 1.8, duration: 60, rate: 100, seed: 14)
        let keep = signal.times.indices.filter { $0 % 7 != 3 && !($0 % 1000 < 20 && $0 > 500) }
        let detection = detector.detect(
            timestamps: keep.map { signal.times[$0] }, magnitude: keep.map { signal.values[$0] })
        #expect(detection.resampling?.gaps.isEmpty == true)
        #expect(abs(detection.stepCount - 108) <= 2)
    }

    @Test func shortGapIsWalkedThrough() throws {
        let signal = Gait.magnitude(stepFrequency: 1.8, duration: 60, rate: 100, seed: 15)
        let keep = signal.times.indices.filter { signal.times[$0] < 30 || signal.times[$0] >= 31.2 }
        let detection = detector.detect(
            timestamps: keep.map { signal.times[$0] }, magnitude: keep.map { signal.values[$0] })
        #expect(detection.resampling?.gaps.count == 1)
        #expect(detection.bouts.count == 1)
        #expect(abs(detection.stepCount - 108) <= 2, "\(detection.stepCount)")
        let interpolated = detection.interpolatedStepIndices.map { detection.stepTimes[$0] }
        #expect((1...4).contains(interpolated.count), "\(interpolated)")
        #expect(interpolated.allSatisfy { $0 > 29 && $0 < 32.2 })
        #expect(detection.bouts[0].interpolatedStepCount == interpolated.count)
        // No observed interval spans the gap.
        #expect(detection.stepIntervals.allSatisfy { $0 < 0.7 })
        #expect(detection.warnings.contains { $0.contains("interpolated") })
    }

    @Test func longGapSplitsTheWalk() {
        let signal = Gait.magnitude(stepFrequency: 1.8, duration: 60, rate: 100, seed: 16)
        let keep = signal.times.indices.filter { signal.times[$0] < 25 || signal.times[$0] >= 35 }
        let detection = detector.detect(
            timestamps: keep.map { signal.times[$0] }, magnitude: keep.map { signal.values[$0] })
        #expect(detection.bouts.count == 2)
        #expect(detection.interpolatedStepIndices.isEmpty)
        #expect(abs(detection.stepCount - 90) <= 3, "\(detection.stepCount)")
    }

    // MARK: Degenerate input

    @Test(arguments: [0, 1, 2, 100])
    func tinyInputGivesNoStepsAndAWarning(count: Int) {
        let times = (0..<count).map { Double($0) / 100 }
        let detection = detector.detect(timestamps: times, magnitude: [Double](repeating: 1, count: count))
        #expect(detection.stepCount == 0)
        #expect(!detection.warnings.isEmpty)
    }

    @Test func identicalTimestampsGiveNoStepsAndAWarning() {
        let detection = detector.detect(timestamps: [5, 5, 5], magnitude: [1, 1.2, 0.8])
        #expect(detection.stepCount == 0)
        #expect(detection.samplingRate == nil)
        #expect(detection.warnings.contains { $0.contains("distinct timestamps") })
    }

    @Test func lowRateIsAnalysedWithAWarning() {
        let signal = Gait.magnitude(stepFrequency: 1.5, duration: 60, rate: 12, seed: 17)
        let detection = detector.detect(timestamps: signal.times, magnitude: signal.values)
        #expect(detection.warnings.contains { $0.contains("below the 15 Hz") })
        #expect(abs(detection.stepCount - 90) <= 3)
    }

    // MARK: Building blocks

    @Test(arguments: [1, 2, 3, 10, 11, 1000, 1001])
    func medianIntervalMatchesSorting(count: Int) throws {
        var random = SplitMix64(seed: UInt64(count))
        var t = 0.0
        let times = (0...count).map { _ in
            t += 0.005 + 0.01 * random.nextUnit()
            return t
        }
        let intervals = zip(times, times.dropFirst()).map { $1 - $0 }.sorted()
        let expected =
            intervals.count % 2 == 1
            ? intervals[intervals.count / 2] : (intervals[intervals.count / 2 - 1] + intervals[intervals.count / 2]) / 2
        #expect(SamplingInterval.medianPositiveInterval(times) == expected)
        #expect(SamplingInterval.medianPositiveInterval(times.reversed()) == expected)
    }

    @Test func configurationRoundTripsThroughJSON() throws {
        var configuration = StepDetector.Configuration()
        configuration.minimumStrideRegularity = 0.55
        let data = try JSONEncoder().encode(configuration)
        #expect(try JSONDecoder().decode(StepDetector.Configuration.self, from: data) == configuration)
        #expect(StepDetector(configuration: configuration).configuration.minimumStrideRegularity == 0.55)
    }

    @Test func magnitudeHelpers() {
        #expect(StepDetector.magnitude(x: [3], y: [4], z: [12], scale: 0.5) == [6.5])
        #expect(StepDetector.magnitude(x: [1], y: [2], z: [2], plusX: [2], plusY: [2], plusZ: [10]) == [13])
    }
}
