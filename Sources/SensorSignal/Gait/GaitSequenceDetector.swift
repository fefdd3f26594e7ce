import RealModule

/// Gait sequences (stretches of walking) in a recording from a sensor on the trunk.
///
/// The method is the gait-sequence detection of Paraschiv-Ionescu et al. (J NeuroEng Rehabil 2019, "Locomotion and
/// cadence detection using a single trunk-fixed accelerometer"), with the parameters of the Mobilise-D technical
/// validation ("GSD_B", Micó-Amigo et al., J NeuroEng Rehabil 2023; Kirk et al., Sci Rep 2024), and one check of
/// taskproc's own after it (step 6).
///
/// The method works on the norm of the acceleration, so the sensor may be mounted in any orientation:
///
/// 1. The norm (m/s², gravity included) is band-limited: a zero-phase high-pass at 0.16 Hz (the published drift
///    filter's pole, 0.9748 at 40 Hz) and a zero-phase low-pass at 3.2 Hz (the published FIR gait filter's cut-off;
///    here Butterworth), then put on a 40 Hz grid, the rate every later stage is defined at.
/// 2. Peak enhancement: a 3-sample moving mean (the published Savitzky–Golay filter of length 3, order 1), the
///    continuous wavelet transform with the Mexican hat (`gaus2`, unit energy) at scale 10 (0.25 s, centre frequency
///    1.2 Hz; coefficients `1/√s · Σ x·ψ(j/s)` as MATLAB's and PyWavelets' `cwt`), and the moving mean again.
/// 3. Step candidates: the local maxima above ``Configuration/peakThreshold`` (0.1 g) and, separately, the local
///    minima below its negative.
/// 4. Pulse trains, in each of the two candidate lists: a train starts where two candidates are closer than
///    ``Configuration/stepMargin`` (1.5 s) and goes on while the next interval is at most the train's mean interval
///    plus that margin.
/// 5. Gait sequences: the intersections of the maxima's and the minima's trains, each padded on both sides by
///    ``Configuration/padding`` (0.75) mean step times (the mean interval of its maxima), kept when they hold at least
///    ``Configuration/minimumSteps`` (5) maxima, and joined where the gap between two is under
///    ``Configuration/maximumGap`` (3.5 s); never outside the recording.
/// 6. Gait band (not in the published method): a sequence is kept when at least
///    ``Configuration/minimumGaitBandFraction`` (30 %) of the energy of its centred norm lies in the 0.5–3 Hz band of
///    the step detector (``StepDetector/Configuration/lowCutoff``…``StepDetector/Configuration/highCutoff``, zero-phase
///    Butterworth of order 2, over the whole recording). The published method's 3.2 Hz low-pass lets broadband motion
///    through: white noise of 0.1–0.5 g per axis at 100 Hz gives sequences of up to 140 "steps" in 120 s. White noise
///    has 2.5 Hz / (rate / 2) of its energy in that band (5 % at 100 Hz, 20 % at 25 Hz); the gait sequences of the
///    development trials (100 Hz) have 39–71 %. Below about 25 Hz the check cannot tell noise from gait.
///
/// The steps themselves are for an initial-contact detector to find inside each sequence (``LowerBackGait``). A
/// still sensor, tremor (above 3.2 Hz), random motion and a trunk moving without a gait rhythm give no sequence. Data gaps are
/// bridged by linear interpolation. Stateless apart from its configuration; safe to share between tasks.
public struct GaitSequenceDetector: Sendable {
    /// The method's parameters; the defaults are the published ones.
    public struct Configuration: Sendable, Hashable {
        /// High-pass cut-off of the drift filter, Hz (the published first-order filter's pole, 0.9748 at 40 Hz).
        public var highPass: Double = 0.16
        /// Low-pass cut-off of the gait filter, Hz (3.2 Hz).
        public var lowPass: Double = 3.2
        /// Scale of the Mexican-hat wavelet, s (scale 10 at 40 Hz).
        public var waveletScale: Double = 0.25
        /// Height a filtered peak must exceed to be a step candidate, m/s² (0.1 g).
        public var peakThreshold: Double = 0.1 * 9.80665
        /// Largest interval that starts a pulse train, and the margin over the train's mean interval that ends it, s.
        public var stepMargin: Double = 1.5
        /// Padding of each sequence on either side, in mean step times of the sequence.
        public var padding: Double = 0.75
        /// Fewest step candidates (maxima) in a sequence.
        public var minimumSteps: Int = 5
        /// Sequences closer than this are joined, s.
        public var maximumGap: Double = 3.5
        /// Smallest share of a sequence's centred norm energy in the gait band (0.5–3 Hz), 0…1.
        ///
        /// Step 6, taskproc's check, not the published method's; 0 turns it off. Half way between white noise at 25 Hz (0.2) and the
        /// smallest share of a development gait sequence (0.39, HA 001; leaving that participant out, MS 001's 0.51
        /// puts the midpoint at 0.36, which keeps it).
        public var minimumGaitBandFraction: Double = 0.3
        /// The gait band of step 6, Hz (the step detector's analysis band).
        public var gaitBand: ClosedRange<Double> = 0.5...3.0

        /// The published parameters.
        public init() {}
    }

    /// One gait sequence.
    public struct Sequence: Sendable, Hashable, Codable {
        /// Start, s, in the caller's time base.
        public var start: Double
        /// End, s.
        public var end: Double
        /// The step candidates (filtered maxima) in the sequence before padding.
        public var candidates: Int
    }

    /// The rate every stage after the band limiting is defined at, Hz.
    public static let methodRate = 40.0

    /// The parameters in use.
    public var configuration: Configuration

    /// A detector with the given parameters.
    ///
    /// - Parameter configuration: The parameters; the default is the published method.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The gait sequences of a recording, in time order, not overlapping.
    ///
    /// - Parameters:
    ///   - timestamps: Sample times, s, ascending (duplicates and backward steps removed).
    ///   - x: Acceleration along the sensor's x axis, m/s², gravity included.
    ///   - y: Acceleration along y, m/s².
    ///   - z: Acceleration along z, m/s².
    ///   - samplingRate: The recording's rate, Hz (its median interval's reciprocal), within
    ///     ``LowerBackGait/rateRange`` (10–1000 Hz).
    /// - Returns: The sequences; empty when there is none, the recording is shorter than 2 s, or the rate is outside
    ///   ``LowerBackGait/rateRange``.
    public func detect(
        timestamps: [Double], x: [Double], y: [Double], z: [Double], samplingRate: Double
    ) -> [Sequence] {
        guard let prepared = prepare(timestamps: timestamps, x: x, y: y, z: z, samplingRate: samplingRate) else {
            return []
        }
        let found = sequences(in: prepared.signal, origin: prepared.origin, end: prepared.end)
        let band = configuration.gaitBand
        // Step 6 is skipped (every sequence kept) where the band filter cannot be applied: a recording too short for
        // its padding or a rate too low for its upper edge.
        guard configuration.minimumGaitBandFraction > 0, !found.isEmpty, band.lowerBound > 0,
            band.upperBound < samplingRate / 2,
            let filter = try? Butterworth.design(
                order: 2, band: .bandpass(low: band.lowerBound, high: band.upperBound), sampleRate: samplingRate),
            prepared.norm.count > filter.zeroPhasePadLength,
            let banded = try? filter.filterZeroPhase(prepared.norm)
        else { return found }
        return found.filter {
            Self.gaitBandFraction(
                norm: prepared.norm, banded: banded, rate: samplingRate, origin: prepared.origin, sequence: $0)
                >= configuration.minimumGaitBandFraction
        }
    }

    /// The share of a sequence's centred norm energy in the gait band (step 6), 0…1.
    ///
    /// - Parameters:
    ///   - norm: The acceleration norm on the uniform grid at `rate`, m/s².
    ///   - banded: `norm` band-passed to ``Configuration/gaitBand``, m/s².
    ///   - rate: The grid's rate, Hz.
    ///   - origin: The grid's first time, s.
    ///   - sequence: The sequence.
    public static func gaitBandFraction(
        norm: [Double], banded: [Double], rate: Double, origin: Double, sequence: Sequence
    ) -> Double {
        let last = min(norm.count, banded.count) - 1
        guard last >= 0 else { return 0 }
        let lo = Int.clamped(((sequence.start - origin) * rate).rounded(.up), to: 0...last)
        let hi = Int.clamped(((sequence.end - origin) * rate).rounded(.down), to: lo...last)
        return GaitBandShare.of(norm, banded: banded, range: lo...hi)
    }

    /// The enhanced signal of step 2 on its 40 Hz grid, whose extremes are the step candidates.
    ///
    /// - Parameters: as ``detect(timestamps:x:y:z:samplingRate:)``.
    /// - Returns: The signal (m/s²: the wavelet's coefficients of the band-limited norm), the grid's first time and
    ///   the recording's last, s; nil when the recording cannot be analysed (see
    ///   ``detect(timestamps:x:y:z:samplingRate:)``).
    public func enhancedSignal(
        timestamps: [Double], x: [Double], y: [Double], z: [Double], samplingRate: Double
    ) -> (signal: [Double], origin: Double, end: Double)? {
        prepare(timestamps: timestamps, x: x, y: y, z: z, samplingRate: samplingRate).map {
            ($0.signal, $0.origin, $0.end)
        }
    }

    /// Steps 1–2: the norm on the recording's uniform grid (m/s²) and the enhanced signal on the 40 Hz grid.
    private func prepare(
        timestamps: [Double], x: [Double], y: [Double], z: [Double], samplingRate: Double
    ) -> (norm: [Double], signal: [Double], origin: Double, end: Double)? {
        let c = configuration
        let n = min(timestamps.count, x.count, y.count, z.count)
        guard samplingRate.isFinite, LowerBackGait.rateRange.contains(samplingRate), n >= 2 else { return nil }
        let from = timestamps[0]
        let to = timestamps[n - 1]
        guard from.isFinite, to.isFinite, to - from >= 2 else { return nil }
        // The norm on a uniform grid at the recording's rate; bounded by the data (a grid point per sample, give or
        // take the rate's spread), so a stated rate cannot make it unbounded.
        let span = (to - from) * samplingRate
        guard span.isFinite, span < Double(4 * n + 64) else { return nil }
        let count = Int.clamped(span, to: 0...(4 * n + 64)) + 1
        let dt = 1 / samplingRate
        var norm = [Double](repeating: 0, count: count)
        LowerBackGait.forEachGridSample(
            timestamps: timestamps, x: x, y: y, z: z, count: n, from: from, interval: dt, gridCount: count,
            startIndex: 0
        ) { i, ax, ay, az in
            norm[i] = (ax * ax + ay * ay + az * az).squareRoot()
        }
        guard norm.allSatisfy(\.isFinite), c.lowPass > c.highPass, c.highPass > 0, c.lowPass < samplingRate / 2,
            let highPass = try? Butterworth.design(
                order: 1, band: .highpass(cutoff: c.highPass), sampleRate: samplingRate),
            let lowPass = try? Butterworth.design(
                order: 4, band: .lowpass(cutoff: c.lowPass), sampleRate: samplingRate),
            count > max(highPass.zeroPhasePadLength, lowPass.zeroPhasePadLength),
            let banded = try? lowPass.filterZeroPhase(highPass.filterZeroPhase(norm))
        else { return nil }
        // The 40 Hz grid, linearly interpolated from the band-limited signal (nothing above 3.2 Hz is left to alias).
        let rate = Self.methodRate
        let gridCount = Int.clamped(((to - from) * rate).rounded(.down), to: 0...(4 * count + 64)) + 1
        var grid = [Double](repeating: 0, count: gridCount)
        for i in 0..<gridCount {
            let position = Double(i) / rate * samplingRate
            let lo = Int.clamped(position.rounded(.down), to: 0...(count - 1))
            let hi = min(lo + 1, count - 1)
            let w = position - Double(lo)
            grid[i] = banded[lo] + min(max(w, 0), 1) * (banded[hi] - banded[lo])
        }
        let scale = c.waveletScale * rate
        guard scale >= 1, gridCount > 4 else { return nil }
        let smoothed = movingMean3(grid)
        // Unit-energy Mexican hat ψ(t) = (2 − 4t²)·e^(−t²) / √(3·√(π/2)); `gaussianDerivative` convolves with
        // (4t² − 2)·e^(−t²), so its output is −√(3·√(π/2)) · Σ x·ψ: the sign does not matter (both signs are used).
        let norming = -1 / ((3 * (Double.pi / 2).squareRoot()).squareRoot() * scale.squareRoot())
        var wavelet = LowerBackGait().gaussianDerivative(smoothed, width: scale, order: 2)
        for i in wavelet.indices { wavelet[i] *= norming }
        return (norm, movingMean3(wavelet), from, to)
    }

    /// The sequences of steps 3–5 in `signal`, a 40 Hz grid starting at `origin`, s; `end` is the recording's end.
    func sequences(in signal: [Double], origin: Double, end: Double) -> [Sequence] {
        let c = configuration
        let rate = Self.methodRate
        var maxima: [Double] = []
        var minima: [Double] = []
        if signal.count >= 3 {
            for i in 1..<(signal.count - 1) {
                let v = signal[i]
                if v > c.peakThreshold, v > signal[i - 1], v >= signal[i + 1] { maxima.append(Double(i) / rate) }
                if -v > c.peakThreshold, v < signal[i - 1], v <= signal[i + 1] { minima.append(Double(i) / rate) }
            }
        }
        let fromMaxima = Self.pulseTrains(maxima, margin: c.stepMargin)
        let fromMinima = Self.pulseTrains(minima, margin: c.stepMargin)
        // Intersections of the two sets of trains (each sorted and disjoint: one sweep), merged where they touch.
        var both: [(Double, Double)] = []
        var ia = 0
        var ib = 0
        while ia < fromMaxima.count && ib < fromMinima.count {
            let a = fromMaxima[ia]
            let b = fromMinima[ib]
            let lo = max(a.0, b.0)
            let hi = min(a.1, b.1)
            if lo <= hi { both.append((lo, hi)) }
            if a.1 < b.1 { ia += 1 } else { ib += 1 }
        }
        var merged: [(Double, Double)] = []
        for interval in both {
            if let last = merged.last, interval.0 <= last.1 {
                merged[merged.count - 1].1 = max(last.1, interval.1)
            } else {
                merged.append(interval)
            }
        }
        // Pad by the mean step time of the maxima inside, keep those with enough steps.
        var kept: [Sequence] = []
        let duration = end - origin
        var next = 0
        for (lo, hi) in merged {
            // The maxima in [lo, hi]: the intervals ascend, so one pass over the maxima serves them all.
            while next < maxima.count && maxima[next] < lo { next += 1 }
            var after = next
            while after < maxima.count && maxima[after] <= hi { after += 1 }
            let insideCount = after - next
            guard insideCount >= max(c.minimumSteps, 2) else { continue }
            let first = maxima[next]
            let last = maxima[after - 1]
            let meanStep = (last - first) / Double(insideCount - 1)
            let start = max(lo - c.padding * meanStep, 0)
            let stop = min(hi + c.padding * meanStep, duration)
            if let previous = kept.last, start - previous.end < c.maximumGap {
                kept[kept.count - 1].end = max(previous.end, stop)
                kept[kept.count - 1].candidates += insideCount
            } else {
                kept.append(Sequence(start: start, end: stop, candidates: insideCount))
            }
        }
        return kept.map { Sequence(start: origin + $0.start, end: origin + $0.end, candidates: $0.candidates) }
    }

    /// Pulse trains in ascending candidate times `times`, s: a train starts at two candidates closer than `margin` and
    /// goes on while the next interval is at most the train's mean interval plus `margin`; each as (first, last).
    static func pulseTrains(_ times: [Double], margin: Double) -> [(Double, Double)] {
        var trains: [(Double, Double)] = []
        var i = 0
        while i + 1 < times.count {
            guard times[i + 1] - times[i] < margin else {
                i += 1
                continue
            }
            var last = i + 1
            while last + 1 < times.count {
                let mean = (times[last] - times[i]) / Double(last - i)
                if times[last + 1] - times[last] > mean + margin { break }
                last += 1
            }
            trains.append((times[i], times[last]))
            i = last + 1
        }
        return trains
    }

    /// The centred 3-sample moving mean (the Savitzky–Golay filter of length 3 and order 1); the end samples keep
    /// their value.
    private func movingMean3(_ signal: [Double]) -> [Double] {
        guard signal.count >= 3 else { return signal }
        var out = signal
        for i in 1..<(signal.count - 1) { out[i] = (signal[i - 1] + signal[i] + signal[i + 1]) / 3 }
        return out
    }
}
