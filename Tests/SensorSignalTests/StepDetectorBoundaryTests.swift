import Foundation
import TestSupport
import Testing

@testable import SensorSignal

/// Synthetic gait signals whose step count the peak distance and prominence floors decide.
///
/// The minimum peak distance is ``StepDetector/Configuration/peakDistanceFraction`` (default 0.6 step periods).
/// The expected counts and times are those the signals are built with, never the detector's output.
@Suite struct StepDetectorBoundaryTests {
    /// A double-hump gait signal.
    ///
    /// |a| in g at `rate` Hz for `duration` s: 1 g plus `amplitude` × (cos θ + `secondary` × cos 2θ) with
    /// θ = 2π f (t − 0.5/f), i.e. heel strikes (maxima of height 1 + `secondary`) at t = 0.5/f, 1.5/f, … and,
    /// for `secondary` > 0.25, a smaller second maximum (height −1 + `secondary`) exactly half a step later, like
    /// the second hump of a real vertical-acceleration step. The dip between them lies at cos θ = −1/(4 secondary).
    static func doubleHump(
        stepFrequency f: Double, secondary: Double, amplitude: Double, duration: Double, rate: Double
    ) -> (times: [Double], values: [Double]) {
        let n = Int((duration * rate).rounded())
        var times: [Double] = []
        var values: [Double] = []
        for i in 0..<n {
            let t = Double(i) / rate
            let theta = 2 * Double.pi * f * (t - 0.5 / f)
            times.append(t)
            values.append(1 + amplitude * (cos(theta) + secondary * cos(2 * theta)))
        }
        return (times, values)
    }

    /// |a| in g: 1 g plus a Gaussian pulse of `amplitude` g and standard deviation `width` s at each of `steps`.
    static func pulses(_ steps: [Double], width: Double, amplitude: Double, duration: Double, rate: Double) -> (
        times: [Double], values: [Double]
    ) {
        let n = Int((duration * rate).rounded())
        var times: [Double] = []
        var values: [Double] = []
        for i in 0..<n {
            let t = Double(i) / rate
            var y = 1.0
            for s in steps where abs(s - t) < 6 * width {
                y += amplitude * exp(-0.5 * (t - s) * (t - s) / (width * width))
            }
            times.append(t)
            values.append(y)
        }
        return (times, values)
    }

    /// The largest distance from a detected step to the constructed step it pairs with (same count, in order).
    static func largestMismatch(_ detected: [Double], _ constructed: [Double]) -> Double {
        guard detected.count == constructed.count, !detected.isEmpty else { return .infinity }
        return zip(detected, constructed).map { abs($0 - $1) }.max() ?? .infinity
    }

    /// Heel strikes with a second hump between them.
    ///
    /// 30 s at 1 step/s, 100 Hz: 30 heel strikes at 0.5, 1.5, …, 29.5 s, each followed half a step later by a second
    /// hump. With secondary 0.6 and amplitude 0.3 g the second hump's prominence before filtering is
    /// 0.3 × (2·0.6 − 1 + 1/(8·0.6)) = 0.12 g, above the 0.05 g floor and above 0.25 × the RMS
    /// (0.25 × 0.3 × √((1 + 0.36)/2) = 0.062 g), so only the peak distance can reject it: the humps are 0.5 step
    /// periods from the heel strikes, closer than 0.6 periods.
    static let humps = doubleHump(stepFrequency: 1, secondary: 0.6, amplitude: 0.3, duration: 30, rate: 100)
    static let heelStrikes = (0..<30).map { Double($0) + 0.5 }

    /// Fuzz finding (FuzzWalking): samples 10¹⁷ s apart made the message numbers (gap limit 2.5·10¹⁷ s) trap
    /// converting to Int; they are written as they are.
    @Test func absurdSpacingGivesWarningsNotATrap() {
        let detection = StepDetector().detect(timestamps: [0, 1e17, 2e17, 3e17], magnitude: [1, 1.2, 0.9, 1])
        #expect(detection.stepCount == 0)
        #expect(!detection.warnings.isEmpty)
        #expect(StepDetector.format(2.5e17) == "2.5e+17")
        #expect(StepDetector.format(-.infinity) == "-inf")
        #expect(StepDetector.format(1.23456) == "1.235")
        #expect(StepDetector.format(42) == "42")
    }

    /// Fuzz finding (FuzzWalking): samples 1e-300 s apart claim 1e300 Hz, which trapped sizing the analysis windows
    /// (`Int(rate / analysisRate)`); rates above the maximum are a warning.
    @Test func absurdRatesGiveAWarningNotATrap() {
        let times = (0..<64).map { Double($0) * 1e-300 }
        let detection = StepDetector().detect(timestamps: times, magnitude: times.map { 1 + sin($0 * 1e300) })
        #expect(detection.stepCount == 0)
        #expect(detection.warnings.contains { $0.contains("out of range") })
        let given = StepDetector().detect(
            timestamps: (0..<64).map { Double($0) }, magnitude: [Double](repeating: 1, count: 64), samplingRate: 1e300)
        #expect(given.warnings.contains { $0.contains("out of range") })
    }

    /// Hostile axes beside a finite magnitude (the API allows any): a sample whose x, y or z is NaN, ±∞ or a huge
    /// value that overflows their sum is dropped with the magnitude's own warning, the rest is analysed exactly as
    /// the same samples without the bad ones. A wrist walk (``WristModel``) read as an arm swing keeps its count.
    @Test func hostileAxesAreDroppedNotTrapped() {
        let walk = WristModel.walk(stepFrequency: 2.0, swing: 0.35, vertical: 0.01)
        var axes = walk.axes
        let bad = [10, 500, 1500, 2999]
        axes.x[bad[0]] = .nan
        axes.y[bad[1]] = .infinity
        axes.z[bad[2]] = -.infinity
        (axes.x[bad[3]], axes.y[bad[3]]) = (1e308, 1e308)
        let detection = StepDetector().detect(timestamps: walk.times, magnitude: walk.values, axes: axes)
        #expect(detection.warnings.contains { $0.hasPrefix("4 samples with a non-finite time or value") }, "\(detection.warnings)")
        let kept = walk.times.indices.filter { !bad.contains($0) }
        let clean = StepDetector().detect(
            timestamps: kept.map { walk.times[$0] }, magnitude: kept.map { walk.values[$0] },
            axes: (kept.map { walk.axes.x[$0] }, kept.map { walk.axes.y[$0] }, kept.map { walk.axes.z[$0] }))
        #expect(detection.stepTimes == clean.stepTimes)
        #expect(abs(detection.stepCount - 120) <= 1, "\(detection.stepCount)")
        #expect(detection.bouts.map(\.detection) == [.armSwing])
    }

    @Test func secondHumpHalfAStepLaterIsNotAStep() {
        let d = StepDetector().detect(timestamps: Self.humps.times, magnitude: Self.humps.values)
        #expect(d.stepCount == 30)
        // Each detected step is a constructed heel strike (the zero-phase filter does not move a symmetric peak;
        // 20 ms allows for the edges of the recording).
        #expect(Self.largestMismatch(d.stepTimes, Self.heelStrikes) < 0.02)
    }

    @Test func theSecondHumpsAreRealPeaksThatOnlyThePeakDistanceRemoves() {
        // Sensitivity check of the fixture: with a minimum distance below half a step (0.35, or 0.45) every hump
        // between two heel strikes becomes a step: 30 heel strikes + 29 humps at 1, 2, …, 29 s.
        let all = (Self.heelStrikes + (1...29).map(Double.init)).sorted()
        for fraction in [0.35, 0.45] {
            let detector = StepDetector(configuration: .init(peakDistanceFraction: fraction))
            let d = detector.detect(timestamps: Self.humps.times, magnitude: Self.humps.values)
            #expect(d.stepCount == 59, "fraction \(fraction)")
            #expect(Self.largestMismatch(d.stepTimes, all) < 0.02, "fraction \(fraction)")
        }
    }

    /// A detector whose peak distance lets the second humps through.
    ///
    /// The prominence floors, with the peak distance lowered to 0.35 periods so that only prominence decides whether
    /// the second humps count. Hump prominences after the detector's band-pass (2nd-order Butterworth 0.5–3 Hz run
    /// forward and backward) are from scipy 1.17.1, independent of taskproc: `butter(2, [0.5, 3], 'bandpass',
    /// fs=100, output='sos')`, `sosfiltfilt` of the mean-removed signal, `find_peaks(prominence=0, wlen=401)`
    /// (4 step periods, as the detector) on the middle 20 s; RMS over the whole filtered signal.
    ///
    /// | amplitude g | secondary | RMS g  | hump prominence g | prominence / RMS |
    /// |-------------|-----------|--------|-------------------|------------------|
    /// | 0.5         | 0.47      | 0.3854 | 0.0839            | 0.218            |
    /// | 0.5         | 0.53      | 0.3941 | 0.1246            | 0.316            |
    /// | 0.1         | 0.6       | 0.0811 | 0.0352            | 0.434            |
    /// | 0.2         | 0.6       | 0.1621 | 0.0704            | 0.434            |
    static let shortDistance = StepDetector(configuration: .init(peakDistanceFraction: 0.35))

    @Test func humpsBelowAQuarterOfTheRMSAreNotSteps() {
        // Relative floor 0.25 × RMS (the 0.05 g floor is lower here): 0.218 → rejected, 0.316 → a step.
        let weak = Self.doubleHump(stepFrequency: 1, secondary: 0.47, amplitude: 0.5, duration: 30, rate: 100)
        let strong = Self.doubleHump(stepFrequency: 1, secondary: 0.53, amplitude: 0.5, duration: 30, rate: 100)
        #expect(Self.shortDistance.detect(timestamps: weak.times, magnitude: weak.values).stepCount == 30)
        #expect(Self.shortDistance.detect(timestamps: strong.times, magnitude: strong.values).stepCount == 59)
    }

    @Test func humpsBelowTheAbsoluteProminenceFloorAreNotSteps() {
        // Absolute floor 0.05 g (0.25 × RMS is 0.020 and 0.041 g here, lower): 0.035 g → rejected, 0.070 g → a step.
        let weak = Self.doubleHump(stepFrequency: 1, secondary: 0.6, amplitude: 0.1, duration: 30, rate: 100)
        let strong = Self.doubleHump(stepFrequency: 1, secondary: 0.6, amplitude: 0.2, duration: 30, rate: 100)
        #expect(Self.shortDistance.detect(timestamps: weak.times, magnitude: weak.values).stepCount == 30)
        #expect(Self.shortDistance.detect(timestamps: strong.times, magnitude: strong.values).stepCount == 59)
    }

    /// A limp: steps alternately 0.8 s and 1.2 s apart (mean step period 1 s), 30 steps from 0.5 s, as Gaussian
    /// heel-strike pulses (0.5 g, σ = 0.1 s) at 100 Hz.
    static let limpSteps: [Double] = {
        var steps: [Double] = []
        var t = 0.5
        for k in 0..<30 {
            steps.append(t)
            t += k % 2 == 0 ? 0.8 : 1.2
        }
        return steps
    }()

    @Test func shortStepsOfALimpAreKept() {
        // The short step (0.8 s) is 0.8 mean periods: above the 0.6-period minimum distance, so every step counts.
        let signal = Self.pulses(Self.limpSteps, width: 0.1, amplitude: 0.5, duration: 30.5, rate: 100)
        let d = StepDetector().detect(timestamps: signal.times, magnitude: signal.values)
        #expect(d.stepCount == 30)
        #expect(Self.largestMismatch(d.stepTimes, Self.limpSteps) < 0.02)
        // Sensitivity check: a minimum distance of 0.85 periods removes every other step.
        let strict = StepDetector(configuration: .init(peakDistanceFraction: 0.85))
        #expect(strict.detect(timestamps: signal.times, magnitude: signal.values).stepCount < 30)
    }
}
