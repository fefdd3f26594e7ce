import ComplexModule
import RealModule

/// Gait events and spatial-temporal parameters of one walking bout from a sensor on the lower back (L4–S2), with
/// the Mobilise-D recommended algorithms' published methods and parameters.
///
/// - **Initial contacts** (heel strikes), Mobilise-D "ICDA" (McCamley et al., Gait Posture 2012, improved by
///   Paraschiv-Ionescu et al., EMBC 2020; recommended by Micó-Amigo et al., J NeuroEng Rehabil 2023): the vertical
///   acceleration, mean removed, is low-passed at 3.2 Hz, integrated and differentiated with a Gaussian continuous
///   wavelet (`gaus2`) at scale 9 of its 40 Hz grid (0.225 s). That is the derivative of the Gaussian-smoothed
///   acceleration (the jerk), here computed as one convolution with the Gaussian's derivative; each positive lobe
///   between two zero crossings holds one initial contact, at its maximum (the steepest rise of the upward
///   acceleration when the foot lands).
/// - **Final contacts** (toe off of the other foot, McCamley 2012): the signal differentiated once more (two
///   `gaus1` wavelets, here the second derivative of the acceleration smoothed at √2 × the scale); each final contact
///   is its minimum in the first half of the step after an initial contact (where the upward acceleration of the
///   double support peaks; double support is shorter than half a step).
/// - **Step length**, inverted pendulum (Zijlstra & Hof, Gait Posture 2003) as Mobilise-D's "SLA/SLB" chain
///   (Soltani et al., IEEE TNSRE 2021): the vertical acceleration is high-passed (Butterworth order 4, 0.1 Hz,
///   causal), integrated to a vertical speed, high-passed again (order 4, 1 Hz, causal) and integrated to a
///   vertical displacement; `h` is its range between consecutive initial contacts and the step length is
///   `2·K·√(2·l·h − h²)` with `l` the sensor's height above the ground and `K` = 4.739 / 4 (the correction
///   Mobilise-D trained on healthy adults and people with multiple sclerosis, "MS-ALL"; its stride factor 4.739 is
///   two steps of `2K`).
///
/// The vertical axis is the direction of the mean acceleration over the analysed stretch (gravity), so the sensor
/// may be mounted in any orientation as long as it stays on the trunk. Every time is in the caller's time base.
/// Stateless apart from its configuration; safe to share between tasks.
public struct LowerBackGait: Sendable {
    /// The method's parameters; the defaults are the published ones.
    public struct Configuration: Sendable, Hashable {
        /// Low-pass cutoff before contact detection, Hz (ICDA: 3.2 Hz).
        public var contactLowPass: Double = 3.2
        /// Scale of the Gaussian wavelet, s (ICDA: scale 9 at 40 Hz = 0.225 s).
        public var waveletScale: Double = 0.225
        /// Rate the contacts are detected at, Hz: the signal is decimated (after the low-pass) to the lowest rate at or
        /// above this that is an integer fraction of the input's (ICDA works at 40 Hz).
        public var contactRate: Double = 40
        /// High-pass cutoff applied to the vertical acceleration before the first integration, Hz (0.1 Hz).
        public var accelerationHighPass: Double = 0.1
        /// High-pass cutoff applied to the vertical speed before the second integration, Hz (1 Hz).
        public var speedHighPass: Double = 1.0
        /// Correction factor `K` of the inverted-pendulum step length (Mobilise-D MS-ALL: 4.739 / 4).
        public var stepLengthFactor: Double = 4.739 / 4
        /// Data analysed on either side of a bout, s, so that filters and wavelets have settled at its edges.
        public var padding: Double = 1.5
        /// Step times accepted, s: the step periods the step detector accepts (0.65–2.5 steps/s).
        public var stepTimeRange: ClosedRange<Double> = 0.4...(1 / 0.65)

        /// The published parameters.
        public init() {}
    }

    /// One stride: from an initial contact to the same foot's next, with the events between.
    public struct Stride: Sendable, Hashable, Codable {
        /// Its first initial contact, s.
        public var start: Double
        /// Stride time, s: the next-but-one initial contact minus the first.
        public var duration: Double
        /// Stance time of the foot that lands at ``start``, s: the final contact after the next initial contact
        /// minus ``start``.
        public var stance: Double
        /// Swing time, s: ``duration`` − ``stance``.
        public var swing: Double
        /// Double support, s: the two periods within the stride when both feet are on the ground (each initial
        /// contact to the following final contact).
        public var doubleSupport: Double
        /// Stride length, m: the sum of its two step lengths; nil without a sensor height.
        public var length: Double?
        /// Walking speed over the stride, m/s: ``length`` / ``duration``; nil without a sensor height.
        public var speed: Double?
    }

    /// The events and strides of one bout.
    public struct BoutGait: Sendable, Hashable, Codable {
        /// Initial contacts found in the bout, s, ascending.
        public var initialContacts: [Double]
        /// The final contact after each initial contact but the last, s (nil where none was found).
        public var finalContacts: [Double?]
        /// The length of each step (initial contact k to k + 1), m; nil where its time is outside
        /// ``Configuration/stepTimeRange`` or no sensor height was given.
        public var stepLengths: [Double?]
        /// Every stride whose two steps have accepted times and whose final contacts were found.
        public var strides: [Stride]
    }

    /// Sampling rates analysed, Hz.
    ///
    /// From where the 3.2 Hz gait band is well below the Nyquist frequency (a nominal 15 Hz stream measures
    /// 14.9–15.1 Hz) to 1 kHz. The development trials resampled to 15–200 Hz give the same
    /// counts (`GaitSequenceRealDataTests`).
    public static let rateRange: ClosedRange<Double> = 10...1000

    /// The parameters in use.
    public var configuration: Configuration

    /// Linear interpolation of three axes onto the uniform grid `from + i·interval`, `i < gridCount`: calls `body`
    /// with each grid index and the interpolated x, y and z (held at the end sample beyond the data).
    ///
    /// - Parameters:
    ///   - timestamps: Sample times, s, ascending; `count` of them (and of each axis) are read.
    ///   - startIndex: The last sample at or before `from` (0 for the start of the data).
    @inline(__always)
    static func forEachGridSample(
        timestamps: [Double], x: [Double], y: [Double], z: [Double], count n: Int, from: Double, interval: Double,
        gridCount: Int, startIndex: Int, _ body: (Int, Double, Double, Double) -> Void
    ) {
        var j = startIndex
        for i in 0..<gridCount {
            let t = from + Double(i) * interval
            while j + 1 < n && timestamps[j + 1] <= t { j += 1 }
            let k = min(j + 1, n - 1)
            let t0 = timestamps[j]
            let t1 = timestamps[k]
            let w = t1 > t0 ? min(max((t - t0) / (t1 - t0), 0), 1) : 0
            body(i, x[j] + w * (x[k] - x[j]), y[j] + w * (y[k] - y[j]), z[j] + w * (z[k] - z[j]))
        }
    }

    /// A gait analyser with the given parameters.
    ///
    /// - Parameter configuration: The parameters; the default is the published method.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Initial and final contacts, step lengths and strides of the bout `[start, end]`.
    ///
    /// - Parameters:
    ///   - timestamps: Sample times, s, ascending (duplicates and backward steps removed).
    ///   - x: Acceleration along the sensor's x axis, m/s², gravity included.
    ///   - y: Acceleration along y, m/s².
    ///   - z: Acceleration along z, m/s².
    ///   - start: The bout's start, s.
    ///   - end: The bout's end, s.
    ///   - samplingRate: The recording's rate, Hz (its median interval's reciprocal), within ``rateRange``.
    ///   - sensorHeight: The sensor's height above the ground while standing, m (0.3–1.5); nil gives no lengths.
    /// - Returns: The bout's gait, or nil when the stretch is too short (under 1 s of data), the rate is outside
    ///   outside ``rateRange``, or the data cannot be put on a uniform grid.
    public func analyze(
        timestamps: [Double], x: [Double], y: [Double], z: [Double], start: Double, end: Double,
        samplingRate: Double, sensorHeight: Double?
    ) -> BoutGait? {
        let c = configuration
        guard samplingRate.isFinite, Self.rateRange.contains(samplingRate), start.isFinite, end.isFinite, end > start
        else { return nil }
        let n = min(timestamps.count, x.count, y.count, z.count)
        guard n >= 2 else { return nil }
        let from = max(start - c.padding, timestamps[0])
        let to = min(end + c.padding, timestamps[n - 1])
        guard to - from >= 1 else { return nil }
        // Uniform grid at the recording's rate over [from, to]; bounded by the data (a grid point per sample, give or
        // take the rate's spread), so a stated rate cannot make it unbounded.
        let span = (to - from) * samplingRate
        let first = min(IntervalEstimate.partitioningIndex(timestamps) { $0 >= from }, n - 1)
        let last = min(IntervalEstimate.partitioningIndex(timestamps) { $0 >= to }, n - 1)
        let available = last - first + 1
        guard span.isFinite, span < Double(4 * available + 64) else { return nil }
        let count = Int.clamped(span, to: 0...(4 * available + 64)) + 1
        let dt = 1 / samplingRate
        var ax = [Double](repeating: 0, count: count)
        var ay = ax
        var az = ax
        Self.forEachGridSample(
            timestamps: timestamps, x: x, y: y, z: z, count: n, from: from, interval: dt, gridCount: count,
            startIndex: first
        ) { i, vx, vy, vz in
            ax[i] = vx
            ay[i] = vy
            az[i] = vz
        }
        // Vertical: the unit vector of the mean acceleration (gravity); the mean is removed.
        let mx = ax.reduce(0, +) / Double(count)
        let my = ay.reduce(0, +) / Double(count)
        let mz = az.reduce(0, +) / Double(count)
        let norm = (mx * mx + my * my + mz * mz).squareRoot()
        guard norm > 0, norm.isFinite else { return nil }
        var vertical = [Double](repeating: 0, count: count)
        for i in 0..<count { vertical[i] = (ax[i] * mx + ay[i] * my + az[i] * mz) / norm - norm }

        guard let contacts = contactSignals(vertical, rate: samplingRate) else { return nil }
        let time: (Double) -> Double = { from + $0 * contacts.step }
        var initial: [Double] = []
        var finals: [Double?] = []
        let jerk = contacts.jerk
        var lobeStart: Int? = nil
        for i in 0..<jerk.count {
            if jerk[i] > 0 {
                if lobeStart == nil { lobeStart = i }
            } else if let s = lobeStart {
                // A complete positive lobe (both zero crossings inside the data): its maximum.
                if s > 0 { initial.append(time(refinedPeak(jerk, in: s..<i, sign: 1))) }
                lobeStart = nil
            }
        }
        initial = initial.filter { $0 >= start && $0 <= end }
        let curvature = contacts.curvature
        for k in 0..<max(initial.count - 1, 0) {
            let a = (initial[k] - from) / contacts.step
            let b = (initial[k] - from + 0.5 * (initial[k + 1] - initial[k])) / contacts.step
            let lo = Int.clamped(a.rounded(.up), to: 0...curvature.count)
            let hi = Int.clamped(b.rounded(.down), to: 0...(curvature.count - 1))
            if lo < hi {
                finals.append(time(refinedPeak(curvature, in: lo..<(hi + 1), sign: -1)))
            } else {
                finals.append(nil)
            }
        }

        // Step lengths (Zijlstra & Hof) from the full-rate vertical displacement.
        var lengths = [Double?](repeating: nil, count: max(initial.count - 1, 0))
        if let l = sensorHeight, l.isFinite, (0.3...1.5).contains(l),
            let displacement = displacement(vertical, rate: samplingRate)
        {
            for k in lengths.indices {
                let stepTime = initial[k + 1] - initial[k]
                guard c.stepTimeRange.contains(stepTime) else { continue }
                let lo = Int.clamped(((initial[k] - from) * samplingRate).rounded(), to: 0...(count - 1))
                let hi = Int.clamped(((initial[k + 1] - from) * samplingRate).rounded(), to: 0...(count - 1))
                guard lo < hi else { continue }
                var low = Double.infinity
                var high = -Double.infinity
                for i in lo...hi {
                    low = min(low, displacement[i])
                    high = max(high, displacement[i])
                }
                let h = high - low
                guard h.isFinite, h < l else { continue }
                lengths[k] = 2 * c.stepLengthFactor * max(2 * l * h - h * h, 0).squareRoot()
            }
        }
        var strides: [Stride] = []
        for k in 0..<max(initial.count - 2, 0) {
            let step1 = initial[k + 1] - initial[k]
            let step2 = initial[k + 2] - initial[k + 1]
            guard c.stepTimeRange.contains(step1), c.stepTimeRange.contains(step2),
                let f0 = finals[k], let f1 = finals[k + 1]
            else { continue }
            let duration = step1 + step2
            let stance = f1 - initial[k]
            let doubleSupport = (f0 - initial[k]) + (f1 - initial[k + 1])
            var length: Double? = nil
            if let a = lengths[k], let b = lengths[k + 1] { length = a + b }
            strides.append(
                Stride(
                    start: initial[k], duration: duration, stance: stance, swing: duration - stance,
                    doubleSupport: doubleSupport, length: length, speed: length.map { $0 / duration }))
        }
        return BoutGait(initialContacts: initial, finalContacts: finals, stepLengths: lengths, strides: strides)
    }

    /// The contact signals on the decimated grid: the smoothed jerk (initial contacts) and the smoothed second
    /// derivative of the acceleration (final contacts), with the grid's spacing in s.
    private func contactSignals(_ vertical: [Double], rate: Double) -> (
        jerk: [Double], curvature: [Double], step: Double
    )? {
        let c = configuration
        guard c.contactLowPass > 0, c.contactLowPass < rate / 2,
            let lowPass = try? Butterworth.design(order: 4, band: .lowpass(cutoff: c.contactLowPass), sampleRate: rate),
            vertical.count > lowPass.zeroPhasePadLength,
            let smooth = try? lowPass.filterZeroPhase(vertical)
        else { return nil }
        let factor = max(1, Int.clamped(rate / c.contactRate, to: 1...1000))
        var decimated: [Double] = []
        decimated.reserveCapacity(smooth.count / factor + 1)
        var i = 0
        while i < smooth.count {
            decimated.append(smooth[i])
            i += factor
        }
        let step = Double(factor) / rate
        let scale = c.waveletScale / step
        guard scale >= 1, decimated.count > 4 else { return nil }
        return (
            gaussianDerivative(decimated, width: scale, order: 1),
            gaussianDerivative(decimated, width: scale * 2.0.squareRoot(), order: 2), step
        )
    }

    /// The vertical displacement of the Zijlstra chain: high-pass 0.1 Hz, integrate, high-pass 1 Hz, integrate
    /// (causal Butterworth filters of order 4 and running sums, as Mobilise-D's chain), m.
    private func displacement(_ vertical: [Double], rate: Double) -> [Double]? {
        let c = configuration
        guard c.accelerationHighPass < rate / 2, c.speedHighPass < rate / 2,
            let first = try? Butterworth.design(
                order: 4, band: .highpass(cutoff: c.accelerationHighPass), sampleRate: rate),
            let second = try? Butterworth.design(order: 4, band: .highpass(cutoff: c.speedHighPass), sampleRate: rate)
        else { return nil }
        var signal = first.filter(vertical)
        var sum = 0.0
        for i in signal.indices {
            sum += signal[i] / rate
            signal[i] = sum
        }
        signal = second.filter(signal)
        sum = 0
        for i in signal.indices {
            sum += signal[i] / rate
            signal[i] = sum
        }
        return signal
    }

    /// `signal` convolved with the `order`-th derivative (1 or 2) of the Gaussian `exp(−(t/width)²)`.
    ///
    /// `width` is in samples, the kernel truncated at ±5 widths: the `order`-th derivative of the Gaussian-smoothed
    /// signal (up to a positive factor). Outside the data the signal is taken as 0 (the caller analyses padding beyond what it reads).
    func gaussianDerivative(_ signal: [Double], width: Double, order: Int) -> [Double] {
        let half = Int.clamped((5 * width).rounded(.up), to: 1...100_000)
        var kernel = [Double](repeating: 0, count: 2 * half + 1)
        for m in -half...half {
            let t = Double(m) / width
            let g = Double.exp(-t * t)
            kernel[m + half] = order == 1 ? -2 * t * g : (4 * t * t - 2) * g
        }
        let n = signal.count
        // Long signals by FFT: the same sums (to rounding, ~1e-15 of the signal's scale) at O(n log n).
        if n * kernel.count >= Self.fftConvolutionWork, let fast = Self.fftConvolution(signal, kernel: kernel) {
            return fast
        }
        var out = [Double](repeating: 0, count: n)
        // out[i] = Σ_m signal[i − m]·kernel(m): a true convolution, so the sign is the derivative's.
        for i in 0..<n {
            let lo = max(-half, i - (n - 1))
            let hi = min(half, i)
            var acc = 0.0
            if lo <= hi {
                for m in lo...hi { acc += signal[i - m] * kernel[m + half] }
            }
            out[i] = acc
        }
        return out
    }

    /// Signal length × kernel taps from which ``gaussianDerivative(_:width:order:)`` convolves by FFT (about 2.8 s
    /// of signal at 50 Hz with its 115-tap kernel, 142 samples; shorter ones are summed term by term).
    static let fftConvolutionWork = 1 << 14

    /// `out[i] = Σ_m signal[i − m]·kernel[m + half]` (half = kernel.count / 2, the signal zero outside), by one real
    /// FFT of the zero-padded signal and kernel; nil when no transform can be made.
    static func fftConvolution(_ signal: [Double], kernel: [Double]) -> [Double]? {
        let n = signal.count
        let taps = kernel.count
        let half = taps / 2
        guard n > 0, taps > 0, n <= Int.max / 4 else { return nil }
        // A power of two: few distinct lengths, so the cached FFTW plans serve every bout (planning a new length
        // costs more than the transform).
        var length = 1
        while length < n + taps - 1 { length <<= 1 }
        guard let fft = try? RealFFT<Double>(count: length) else { return nil }
        var padded = [Double](repeating: 0, count: length)
        for i in 0..<n { padded[i] = signal[i] }
        var spectrum = fft.forward(padded)
        for i in padded.indices { padded[i] = 0 }
        for i in 0..<taps { padded[i] = kernel[i] }
        let response = fft.forward(padded)
        for k in spectrum.indices { spectrum[k] = spectrum[k] * response[k] }
        let full = fft.inverse(spectrum)
        // full[j] = Σ_p signal[p]·kernel[j − p]; out[i] is full[i + half].
        return Array(full[half..<(half + n)])
    }

    /// The position of the extreme (`sign` 1: maximum, −1: minimum) of `signal` in `range`, refined by a parabola
    /// through it and its neighbours, in samples.
    private func refinedPeak(_ signal: [Double], in range: Range<Int>, sign: Double) -> Double {
        var best = range.lowerBound
        for i in range where sign * signal[i] > sign * signal[best] { best = i }
        guard best > 0, best + 1 < signal.count else { return Double(best) }
        return Double(best)
            + StepDetectionPass.vertexOffset(sign * signal[best - 1], sign * signal[best], sign * signal[best + 1])
    }
}
