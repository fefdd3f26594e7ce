/// Orientation-free step detection for a body-worn or hand-held phone, from the magnitude of acceleration.
///
/// Input: timestamps (s, any origin and order) and the magnitude of acceleration in g, such as |a| of an
/// accelerometer with gravity included (see ``magnitude(x:y:z:scale:)``) or |userAcceleration + gravity| of a
/// device-motion log. The magnitude does not depend on how the phone is held, so the same rules serve a hand,
/// a pocket, a bag, an armband or a neck pouch. The pipeline:
///
/// 1. **Uniform grid.** Samples with a non-finite time or value are dropped; the rest are sorted, de-duplicated
///    and linearly interpolated onto a grid at the measured rate (median positive interval) with
///    ``UniformResampling``. Intervals longer than ``Configuration/maximumInterpolatedInterval`` (and, at rates
///    below 10 Hz, 2.5 × the nominal interval) are gaps: the recording is split there and nothing is
///    interpolated across them. Segments shorter than ``Configuration/minimumSegmentDuration`` are skipped.
/// 2. **Band-pass.** Each segment minus its mean goes through a zero-phase Butterworth band-pass
///    (``Configuration/lowCutoff``–``Configuration/highCutoff``, `filterZeroPhase`, scipy `sosfiltfilt`),
///    keeping step and stride rhythms and removing gravity, posture changes and impact harmonics.
/// 3. **Walking windows.** The band-passed segment is decimated by `⌊fs / analysisRate⌋` and cut into windows of
///    ``Configuration/windowDuration`` every ``Configuration/windowHop``. Each window gets a step period and
///    step/stride regularity from its normalised autocorrelation (see `GaitWindowAnalyzer`). A window is
///    *walking* when its RMS is at least ``Configuration/minimumAmplitude`` (a still phone fails here), its step
///    frequency lies in ``Configuration/minimumStepFrequency``…``Configuration/maximumStepFrequency`` and its
///    stride regularity is at least ``Configuration/minimumStrideRegularity`` (random motion fails here).
///    Each grid sample takes the label of the window whose centre is nearest; runs of walking shorter than
///    ``Configuration/minimumRunDuration`` are dropped and runs closer than ``Configuration/runMergeGap`` merged.
/// 4. **Steps.** In each run, widened by ``Configuration/runExtension`` on both sides (a window is labelled at its
///    centre, so the walk can reach half a window beyond the run), the step period T is the median period of the
///    run's walking windows, and steps are the peaks of the band-passed magnitude (`findPeaks`) at least
///    ``Configuration/peakDistanceFraction`` · T apart with a prominence of at least
///    max(``Configuration/minimumProminence``, ``Configuration/relativeProminence`` × RMS), refined between
///    samples by a parabola.
/// 5. **Bouts.** Steps further apart than ``Configuration/maximumStepGap`` · T start a new chain; chains with fewer
///    than ``Configuration/minimumStepsPerBout`` steps are dropped. Two chains on either side of a data gap with
///    step periods within ``Configuration/bridgePeriodTolerance`` whose facing steps are at most
///    ``Configuration/maximumBridgedGap`` + 2 step periods apart are one bout walked through the gap: the missing
///    steps are interpolated evenly and listed in ``StepDetection/interpolatedStepIndices``.
///
/// Output features: see ``StepDetection``. No walking gives 0 steps; too little data gives 0 steps and a
/// warning, never a crash.
///
/// Complexity: O(n) in the samples for time-ordered input (``UniformResampling``'s rate estimate radix-sorts
/// the intervals); O(n log n) when the timestamps go backwards. Allocates per call: the cleaned input when samples are dropped, the interval
/// scratch, the resampled and filtered segments, the decimated signal, the per-window records and the outputs;
/// nothing per sample, and the window analysis reuses one scratch buffer.
public struct StepDetector: Sendable, Hashable {
    /// The parameters used.
    public var configuration: Configuration

    /// Creates a detector.
    ///
    /// - Parameter configuration: The parameters (out-of-range values are a programmer error).
    public init(configuration: Configuration = Configuration()) {
        configuration.check()
        self.configuration = configuration
    }

    /// The magnitude `scale · √(x² + y² + z²)` of three-axis samples, one value per sample.
    ///
    /// - Parameters:
    ///   - x: x components, any unit.
    ///   - y: y components, same count.
    ///   - z: z components, same count.
    ///   - scale: Factor converting the unit to g (1 for g, 1/9.80665 for m/s²).
    /// - Returns: The magnitudes in g. Allocates the result only.
    public static func magnitude(x: [Double], y: [Double], z: [Double], scale: Double = 1) -> [Double] {
        precondition(
            x.count == y.count && y.count == z.count, "magnitude: axes of \(x.count), \(y.count), \(z.count) samples")
        return [Double](unsafeUninitializedCapacity: x.count) { out, initialized in
            for i in 0..<x.count {
                out[i] = scale * (x[i] * x[i] + y[i] * y[i] + z[i] * z[i]).squareRoot()
            }
            initialized = x.count
        }
    }

    /// The magnitude of the sum of two three-axis series, `|u + v|`, such as CoreMotion's user acceleration plus
    /// gravity (together the raw acceleration, g).
    ///
    /// - Parameters:
    ///   - x: First series, x components.
    ///   - y: First series, y components.
    ///   - z: First series, z components.
    ///   - plusX: Second series, x components.
    ///   - plusY: Second series, y components.
    ///   - plusZ: Second series, z components.
    /// - Returns: One magnitude per sample, in the series' unit. Allocates the result only.
    public static func magnitude(
        x: [Double], y: [Double], z: [Double], plusX: [Double], plusY: [Double], plusZ: [Double]
    ) -> [Double] {
        let n = x.count
        precondition(
            y.count == n && z.count == n && plusX.count == n && plusY.count == n && plusZ.count == n,
            "magnitude: series of unequal length")
        return [Double](unsafeUninitializedCapacity: n) { out, initialized in
            for i in 0..<n {
                let a = x[i] + plusX[i]
                let b = y[i] + plusY[i]
                let c = z[i] + plusZ[i]
                out[i] = (a * a + b * b + c * c).squareRoot()
            }
            initialized = n
        }
    }

    /// The highest sampling rate analysed, Hz: far above any motion sensor (phones record at most a few hundred
    /// hertz); a higher rate means the timestamps are wrong.
    public static let maximumSamplingRate = 100_000

    /// Detects steps and walking bouts in a magnitude signal.
    ///
    /// - Parameters:
    ///   - timestamps: Sample times, s, any origin and order.
    ///   - magnitude: Acceleration magnitude, g, one value per timestamp.
    ///   - samplingRate: The nominal rate in Hz when already measured (e.g. from a hygiene report); nil measures
    ///     it as the reciprocal of the median positive interval.
    /// - Returns: Steps, bouts and features, in the timestamps' time base.
    /// - Precondition: `timestamps.count == magnitude.count`.
    public func detect(timestamps: [Double], magnitude: [Double], samplingRate: Double? = nil) -> StepDetection {
        precondition(
            timestamps.count == magnitude.count,
            "StepDetector: \(timestamps.count) timestamps but \(magnitude.count) values")
        var warnings: [String] = []

        // Finite samples only.
        var times = timestamps
        var values = magnitude
        var dropped = 0
        for i in 0..<timestamps.count where !(timestamps[i].isFinite && magnitude[i].isFinite) { dropped += 1 }
        if dropped > 0 {
            times = []
            values = []
            times.reserveCapacity(timestamps.count - dropped)
            values.reserveCapacity(timestamps.count - dropped)
            for i in 0..<timestamps.count where timestamps[i].isFinite && magnitude[i].isFinite {
                times.append(timestamps[i])
                values.append(magnitude[i])
            }
            warnings.append("\(dropped) samples with a non-finite time or value were ignored")
        }

        let nominal: Double
        if let samplingRate, samplingRate.isFinite, samplingRate > 0 {
            nominal = 1 / samplingRate
        } else if let measured = SamplingInterval.medianPositiveInterval(times) {
            nominal = measured
        } else {
            warnings.append("fewer than 2 distinct timestamps: nothing to analyse")
            return StepDetection(warnings: warnings)
        }
        let rate = 1 / nominal
        // Samples 1e-300 s apart claim 1e300 Hz, which trapped sizing the analysis windows (fuzz finding).
        guard rate <= Double(Self.maximumSamplingRate) else {
            warnings.append(
                "sampling rate \(Self.format(rate)) Hz: value out of range (max \(Self.maximumSamplingRate) Hz): "
                    + "nothing analysed")
            return StepDetection(samplingRate: rate, warnings: warnings)
        }
        if rate < 15 {
            warnings.append(
                "sampling rate \(Self.format(rate)) Hz is below the 15 Hz the detector is validated for")
        }

        let gapLimit = max(configuration.maximumInterpolatedInterval, 2.5 * nominal)
        let resampling: UniformResampling
        do {
            resampling = try UniformResampling(
                timestamps: times, channels: [values], rate: rate,
                options: ResamplingOptions(gapFactor: nil, maximumInterval: gapLimit))
        } catch {
            warnings.append("cannot resample: \(error)")
            return StepDetection(samplingRate: rate, warnings: warnings)
        }
        if !resampling.report.gaps.isEmpty {
            let total = resampling.report.totalGapDuration
            warnings.append(
                "\(resampling.report.gaps.count) gaps longer than \(Self.format(gapLimit)) s "
                    + "(\(Self.format(total)) s in all) split the recording; no signal was interpolated across them")
        }

        let high = min(configuration.highCutoff, 0.45 * rate)
        guard high > configuration.lowCutoff,
            let sections = try? Butterworth.design(
                order: configuration.filterOrder,
                band: .bandpass(low: configuration.lowCutoff, high: high), sampleRate: rate)
        else {
            warnings.append("sampling rate \(Self.format(rate)) Hz is too low for the analysis band")
            return StepDetection(samplingRate: rate, resampling: resampling.report, warnings: warnings)
        }

        var pass = StepDetectionPass(configuration: configuration, rate: rate, sections: sections)
        for (index, segment) in resampling.segments.enumerated() {
            pass.process(segment, index: index)
        }
        var detection = pass.finish()
        detection.samplingRate = rate
        detection.resampling = resampling.report
        detection.warnings = warnings + detection.warnings
        return detection
    }

    /// `value` with up to 3 decimals, for messages; any number (fuzz finding: 2.5e17 trapped in `Int`).
    static func format(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int64(rounded)) : String(rounded)
    }
}
