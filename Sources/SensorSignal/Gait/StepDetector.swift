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
///    samples by a parabola. When the peaks' median spacing is at least 1.6 T and still an accepted step period, the
///    windows took the second harmonic for the step (sharp impacts of a slow walk), T becomes that spacing, and the
///    peaks are searched again at the new T (dropping the lesser peaks between steps that the first search kept).
/// 5. **Chains.** Steps further apart than ``Configuration/maximumStepGap`` · T start a new chain. A chain's first
///    and last peaks with less than ``Configuration/edgeStepProminenceFraction`` (a quarter) of its median
///    prominence are the sway of starting or stopping and are dropped (never a peak within half the slowest step period of the segment's edge, whose prominence cannot be
///    measured); chains with fewer than ``Configuration/minimumStepsPerBout`` steps are dropped. These are the
///    *rhythm* chains (``WalkingBout/Detection/rhythm``).
/// 6. **Step sequences** (``Configuration/detectsStepSequences``; daily life: short bouts, turns, starts and stops,
///    irregular gait). Outside the rhythm chains (each widened by half its period + 0.2 s), the peaks of the
///    band-passed segment at least 0.75 / ``Configuration/maximumStepFrequency`` apart, with a prominence (measured
///    within ±1 / ``Configuration/minimumStepFrequency``) of at least max(``Configuration/minimumProminence``,
///    ``Configuration/relativeProminence`` × the RMS over ±``Configuration/localAmplitudeHalfWindow``), and not within
///    half the slowest step period of the segment's edges, are linked greedily: from each unused peak, the next step
///    is the peak 1 / ``Configuration/maximumStepFrequency`` … 1 / ``Configuration/minimumStepFrequency`` later, and
///    within ``Configuration/stepIntervalTolerance`` of the median interval so far, with the highest prominence
///    divided by `1 + 4·|Δt − T|/T`. A sequence is then extended backwards at its median interval, and kept when it
///    has at least ``Configuration/minimumStepsPerBout`` steps and a step regularity (autocorrelation over it at one
///    median interval) of at least ``Configuration/minimumSequenceStepRegularity``. Step sequences are counted only
///    when the recording has a rhythm chain whose strides repeat (its stride regularity at least
///    ``Configuration/minimumStrideRegularity``): random motion also makes short consistent sequences, and the
///    wearer's sustained walking is the evidence that they walk; otherwise they are set aside with a warning.
///    A chain of either pass with less than ``Configuration/minimumChainBandFraction`` of its centred magnitude's
///    energy in the analysis band is broadband motion (white noise puts (band width) / (rate / 2) of its energy there)
///    and is set aside with a warning before any chain confirms step sequences; so is a rhythm chain whose strides
///    do not repeat over it (stride regularity under ``Configuration/minimumStrideRegularity``) with less than
///    ``Configuration/minimumIrregularChainNoiseRatio`` times the share white noise puts in the band at the
///    recording's rate (below about 50 Hz white noise holds more than the fixed bound).
///
///    6b. **Short recordings** (``Configuration/countsShortRecordings``). A recording whose every segment is shorter
///    than ``Configuration/shortRecordingDuration`` (3 s) holds too little for a walking run, and no rhythm chain can confirm its step
///    sequences; it is read instead as one short walk (a 2 s ResearchKit walking step, the start of a timed walk).
///    Its band-passed peaks at least 0.75 / ``Configuration/maximumStepFrequency`` apart with a prominence of at
///    least max(``Configuration/minimumProminence``, ``Configuration/relativeProminence`` × RMS) are its steps when
///    there are at least ``Configuration/minimumShortRecordingSteps``, their median interval is an accepted step
///    period, every interval is within ``Configuration/stepIntervalTolerance`` of it, the step regularity at it
///    (leaving out 0.25 s at either end, where the filter's edge transients are) is at least ``Configuration/minimumShortRecordingStepRegularity`` and at least
///    ``Configuration/minimumShortRecordingBandFraction`` of the centred magnitude's energy lies in the analysis band
///    (``WalkingBout/Detection/shortRecording``). Either way a warning says what was concluded and why.
/// 7. **Arm swing** (``detect(timestamps:magnitude:axes:samplingRate:)`` with the three axes,
///    ``Configuration/detectsArmSwing``). A window whose axes swing once per period of |a| (a wrist, or a hand
///    swinging at the side, where the arm's own acceleration can cancel the step rhythm in |a|) has its period read
///    as a stride. A run of mostly such windows lasting at least ``Configuration/minimumArmSwingDuration`` is an arm
///    swing: its |a| peaks are searched at the stride period and a step is counted at each and half way to the next
///    (and half a swing before the first and after the last, inside the run; ``WalkingBout/Detection/armSwing``); step 4's period correction is not applied where the axes swing once per
///    peak. Shorter runs are analysed from |a| alone, exactly as without the axes.
/// 8. **Bouts.** The chains in time order. Two chains on either side of a data gap with
///    step periods within ``Configuration/bridgePeriodTolerance`` whose facing steps are at most
///    ``Configuration/maximumBridgedGap`` + 2 step periods apart are one bout walked through the gap: the missing
///    steps are interpolated evenly and listed in ``StepDetection/interpolatedStepIndices``. A bout starts half a
///    step period before its first step and ends half after its last, clipped to the recording; it carries its
///    cadence, stride time, stride regularity and how it was found (``WalkingBout``).
///
/// Output features: see ``StepDetection``. No walking gives 0 steps; too little data gives 0 steps and a
/// warning, never a crash.
///
/// Complexity: O(n) in the samples for time-ordered input (``UniformResampling``'s rate estimate radix-sorts
/// the intervals); O(n log n) when the timestamps go backwards. Allocates per call: the cleaned input when samples are dropped, the interval
/// scratch, the resampled and filtered segments, the decimated signal, the per-window records and the outputs;
/// nothing per sample, and the window analysis reuses one scratch buffer.
public struct StepDetector: Sendable, Hashable {
    /// Highest sampling rate of a motion log analysed, Hz: 10 000 (phones record at 10–200 Hz).
    ///
    /// A faster log (a median interval under 0.1 ms) gives a warning and no steps; the bound keeps every window and
    /// lag length a small integer.
    public static let maximumSamplingRate = 10_000.0

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
        detect(timestamps: timestamps, magnitude: magnitude, axes: nil, samplingRate: samplingRate)
    }

    /// Detects steps and walking bouts in a magnitude signal, with the three axes it was computed from.
    ///
    /// The axes let the detector recognise a device that swings once per stride (a wrist, or a hand swinging at
    /// the side; ``Configuration/detectsArmSwing``), where |a| alone can repeat once per stride and would give half
    /// the steps. Everything else is as in ``detect(timestamps:magnitude:samplingRate:)``.
    ///
    /// - Parameters:
    ///   - timestamps: Sample times, s, any origin and order.
    ///   - magnitude: Acceleration magnitude, g, one value per timestamp.
    ///   - axes: The acceleration's x, y and z components in g (gravity included, any device orientation), one value
    ///     per timestamp each; nil analyses |a| alone.
    ///   - samplingRate: The nominal rate in Hz when already measured; nil measures it.
    /// - Returns: Steps, bouts and features, in the timestamps' time base.
    /// - Precondition: every series has `timestamps.count` values.
    public func detect(
        timestamps: [Double], magnitude: [Double], axes: (x: [Double], y: [Double], z: [Double])?,
        samplingRate: Double? = nil
    ) -> StepDetection {
        precondition(
            timestamps.count == magnitude.count,
            "StepDetector: \(timestamps.count) timestamps but \(magnitude.count) values")
        if let axes {
            precondition(
                axes.x.count == timestamps.count && axes.y.count == timestamps.count
                    && axes.z.count == timestamps.count,
                "StepDetector: \(timestamps.count) timestamps but axes of \(axes.x.count), \(axes.y.count), "
                    + "\(axes.z.count) values")
        }
        var warnings: [String] = []

        // Finite samples only (x + y + z is finite exactly when all three are, short of overflow to ±∞).
        var values = magnitude
        var axisValues = axes.map { [$0.x, $0.y, $0.z] } ?? []
        func isFinite(_ i: Int) -> Bool {
            timestamps[i].isFinite && magnitude[i].isFinite
                && (axisValues.isEmpty || (axisValues[0][i] + axisValues[1][i] + axisValues[2][i]).isFinite)
        }
        var times = timestamps
        var dropped = 0
        for i in 0..<timestamps.count where !isFinite(i) { dropped += 1 }
        if dropped > 0 {
            let kept = (0..<timestamps.count).filter(isFinite)
            times = kept.map { timestamps[$0] }
            values = kept.map { magnitude[$0] }
            axisValues = axisValues.map { channel in kept.map { channel[$0] } }
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
        guard rate <= Self.maximumSamplingRate else {
            warnings.append(
                "samplingRate: \(Self.format(rate)) Hz out of range (max \(Self.format(Self.maximumSamplingRate)) Hz): "
                    + "nothing analysed")
            return StepDetection(warnings: warnings)
        }
        if rate < 15 {
            warnings.append(
                "sampling rate \(Self.format(rate)) Hz is below the 15 Hz the detector is validated for")
        }

        let gapLimit = max(configuration.maximumInterpolatedInterval, 2.5 * nominal)
        let resampling: UniformResampling
        let resamplingOptions = ResamplingOptions(gapFactor: nil, maximumInterval: gapLimit)
        do {
            resampling = try UniformResampling(
                timestamps: times, channels: [values], rate: rate, options: resamplingOptions)
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
        if configuration.detectsArmSwing, axisValues.count == 3 {
            // Resampled only if a window's period could be a stride (same timestamps and options: same segments).
            pass.axesInput = StepDetectionPass.AxesInput(
                timestamps: times, axes: axisValues, rate: rate, options: resamplingOptions)
        }
        pass.isShortRecording = resampling.segments.allSatisfy {
            Double($0.count) / rate < configuration.shortRecordingDuration
        }
        for (index, segment) in resampling.segments.enumerated() {
            pass.process(segment, index: index)
        }
        var detection = pass.finish()
        detection.samplingRate = rate
        detection.resampling = resampling.report
        detection.warnings = warnings + detection.warnings
        return detection
    }

    /// `value` with up to 3 significant decimals, for messages.
    static func format(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int(rounded)) : String(rounded)
    }
}
