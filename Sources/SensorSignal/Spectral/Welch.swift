internal import ComplexModule

/// Welch's averaged-periodogram estimate of a power spectral density, with `scipy.signal.welch` semantics.
///
/// The signal is cut into segments of `nperseg` samples that start every `nperseg − noverlap` samples
/// (`K = ⌊(len − noverlap)/(nperseg − noverlap)⌋` segments; trailing samples that do not fill a segment are
/// ignored, as in scipy). Each segment is detrended, multiplied by the window `w` and zero-padded to `nfft`;
/// its one-sided periodogram is
///
/// ```
/// Pᵢ[k] = c[k]·|Σₙ w[n]·dᵢ[n]·e^(−2πi·k·n/nfft)|² / (fs·Σw²)    density,  units²/Hz
/// Pᵢ[k] = c[k]·|…|² / (Σw)²                                     spectrum, units²
/// ```
///
/// with `c[k] = 2` except at DC and (even `nfft`) Nyquist, and `Pxx[k] = mean(Pᵢ[k])`, or
/// `median(Pᵢ[k]) / b(K)` with scipy's median bias `b(K) = 1 + Σ_{j=1}^{⌊(K−1)/2⌋} (1/(2j+1) − 1/(2j))`.
/// Frequencies are `k·fs/nfft` Hz, `k = 0 … nfft/2` (`return_onesided=True`).
///
/// Defaults match `scipy.signal.welch(x, fs)`: periodic Hann window, `nperseg = 256`, `noverlap = nperseg/2`,
/// `nfft = nperseg`, `detrend='constant'`, `scaling='density'`, `average='mean'`.
/// Where scipy *warns* and clips `nperseg` to the signal length, this type does the same silently; check
/// ``Parameters/isSegmentLengthClipped`` from ``parameters(signalLength:)`` to report it. A negative overlap,
/// which scipy accepts, is rejected. NaN or infinite samples propagate into the estimate, as in scipy.
///
/// ```swift
/// let psd = try Welch(segmentLength: 512).psd(samples, sampleRate: 100)  // units²/Hz at psd.frequencies
/// ```
public struct Welch: Sendable, Hashable {
    /// The taper applied to each segment: a named window (periodic, as `get_window(name, nperseg)`)
    /// or explicit coefficients (scipy's array `window=`, whose length sets `nperseg`).
    public enum SegmentWindow: Sendable, Hashable {
        /// A standard window of length `nperseg`, periodic.
        case standard(Window)
        /// Explicit dimensionless coefficients; `nperseg` defaults to (and must equal) their count.
        case custom([Double])

        /// Periodic Hann, scipy's default.
        public static var hann: SegmentWindow { .standard(.hann) }
        /// Periodic Hamming.
        public static var hamming: SegmentWindow { .standard(.hamming) }
        /// Periodic Blackman.
        public static var blackman: SegmentWindow { .standard(.blackman) }
        /// Rectangular (boxcar): the plain averaged periodogram (Bartlett's method when `noverlap = 0`).
        public static var rectangular: SegmentWindow { .standard(.rectangular) }
    }

    /// How the segment periodograms are combined (scipy `average=`).
    public enum Averaging: String, Sendable, Hashable, CaseIterable {
        /// Arithmetic mean (scipy `'mean'`, the default).
        case mean
        /// Median divided by scipy's bias factor `b(K)` (scipy `'median'`): robust to transient bursts.
        case median
    }

    /// The segmentation resolved for one signal length (scipy's `nperseg`, `noverlap`, `nfft`).
    public struct Parameters: Sendable, Hashable {
        /// `nperseg`: samples per segment.
        public var segmentLength: Int
        /// `noverlap`: samples shared by consecutive segments.
        public var overlap: Int
        /// `nfft`: the zero-padded FFT length (≥ `segmentLength`).
        public var fftLength: Int
        /// The number of segments averaged, `⌊(len − noverlap)/(nperseg − noverlap)⌋` (≥ 1).
        public var segmentCount: Int
        /// True when `nperseg` was reduced to the signal length (scipy warns in this case).
        public var isSegmentLengthClipped: Bool
        /// The hop between segment starts, `nperseg − noverlap` samples.
        public var step: Int { segmentLength - overlap }
    }

    /// The segment taper; periodic Hann by default.
    public var window: SegmentWindow
    /// The segment length `nperseg` in samples.
    ///
    /// nil means 256 for a named window (clipped to the signal length) or the custom window's count.
    public var segmentLength: Int?
    /// The overlap `noverlap` in samples, `0 ≤ noverlap < nperseg`.
    ///
    /// nil means `nperseg/2` (integer division).
    public var overlap: Int?
    /// The FFT length `nfft ≥ nperseg`.
    ///
    /// nil means `nperseg`. Larger values zero-pad each segment (a finer frequency grid).
    public var fftLength: Int?
    /// Trend removal per segment, before windowing; `.constant` by default.
    public var detrend: Detrend
    /// `.density` (units²/Hz, default) or `.spectrum` (units²).
    public var scaling: SpectralScaling
    /// Mean (default) or bias-corrected median of the segment periodograms.
    public var averaging: Averaging

    /// Creates a Welch configuration; every argument defaults to `scipy.signal.welch`'s default.
    /// - Parameters:
    ///   - window: the segment taper (`window=`), periodic Hann by default.
    ///   - segmentLength: `nperseg`; nil for scipy's default.
    ///   - overlap: `noverlap`; nil for `nperseg/2`.
    ///   - fftLength: `nfft`; nil for `nperseg`.
    ///   - detrend: `detrend=`, `.constant` by default.
    ///   - scaling: `scaling=`, `.density` by default.
    ///   - averaging: `average=`, `.mean` by default.
    public init(
        window: SegmentWindow = .hann, segmentLength: Int? = nil, overlap: Int? = nil, fftLength: Int? = nil,
        detrend: Detrend = .constant, scaling: SpectralScaling = .density, averaging: Averaging = .mean
    ) {
        self.window = window
        self.segmentLength = segmentLength
        self.overlap = overlap
        self.fftLength = fftLength
        self.detrend = detrend
        self.scaling = scaling
        self.averaging = averaging
    }

    /// Resolves `nperseg`, `noverlap`, `nfft` and the segment count for a signal of `signalLength` samples.
    ///
    /// Follows `scipy.signal.csd`'s argument handling: a named window's `nperseg` (default 256) is clipped to
    /// the signal length; a custom window sets `nperseg` and must fit in the signal.
    /// - Parameter signalLength: the number of samples, ≥ 1.
    /// - Returns: the resolved parameters. Allocation-free.
    /// - Throws: ``SpectralError/invalidParameter(_:)`` for `nperseg < 1`, a custom window whose count differs
    ///   from `nperseg` or is empty, `nfft < nperseg`, or `noverlap` outside `0..<nperseg`;
    ///   ``SpectralError/signalTooShort(length:required:)`` for an empty signal or one shorter than a custom window.
    public func parameters(signalLength: Int) throws(SpectralError) -> Parameters {
        guard signalLength >= 1 else { throw .signalTooShort(length: signalLength, required: 1) }
        var nperseg: Int
        var clipped = false
        switch window {
        case .standard:
            nperseg = segmentLength ?? 256
            guard nperseg >= 1 else { throw .invalidParameter("nperseg \(nperseg) must be ≥ 1") }
            if signalLength < nperseg {
                nperseg = signalLength
                clipped = true
            }
        case .custom(let coefficients):
            guard !coefficients.isEmpty else { throw .invalidParameter("custom window is empty") }
            nperseg = segmentLength ?? coefficients.count
            guard nperseg == coefficients.count else {
                throw .invalidParameter(
                    "nperseg \(nperseg) differs from the custom window length \(coefficients.count)")
            }
            guard signalLength >= nperseg else { throw .signalTooShort(length: signalLength, required: nperseg) }
        }
        let nfft = fftLength ?? nperseg
        guard nfft >= nperseg else { throw .invalidParameter("nfft \(nfft) must be ≥ nperseg \(nperseg)") }
        let noverlap = overlap ?? nperseg / 2
        guard noverlap >= 0, noverlap < nperseg else {
            throw .invalidParameter("noverlap \(noverlap) must be in 0..<nperseg (\(nperseg))")
        }
        let count = (signalLength - noverlap) / (nperseg - noverlap)
        return Parameters(
            segmentLength: nperseg, overlap: noverlap, fftLength: nfft, segmentCount: count,
            isSegmentLengthClipped: clipped)
    }

    /// The Welch power spectral density (or power spectrum) of `signal`, one-sided.
    ///
    /// See ``Welch`` for the formula. `Float` input is windowed and transformed in single precision with the
    /// `Float` FFT (as scipy keeps `float32` input in `float32`); periodograms are accumulated, averaged and
    /// scaled in `Double` for both types, then rounded to `Scalar`.
    ///
    /// Allocation: once per call — the window, one `nfft/2 + 1` accumulator (plus `K·(nfft/2 + 1)` for the
    /// median), the frequency axis and the result; one ``RealFFT`` (from `cache` when given) serves every
    /// segment, and nothing is allocated per segment.
    /// - Parameters:
    ///   - signal: the samples, in any unit ("units").
    ///   - sampleRate: fs in Hz.
    ///   - cache: a per-task transform cache; nil creates the transform (its plan is cached process-wide).
    /// - Returns: `nfft/2 + 1` values in units²/Hz (`.density`) or units² (`.spectrum`) at `k·fs/nfft` Hz;
    ///   an empty spectrum for an empty signal (as scipy returns empty arrays).
    /// - Throws: ``SpectralError`` for invalid parameters (see ``parameters(signalLength:)``) or sample rate.
    @specialized(where Scalar == Double)
    @specialized(where Scalar == Float)
    public func psd<Scalar: FFTScalar>(
        _ signal: Span<Scalar>, sampleRate: Double, cache: FFTCache<Scalar>? = nil
    ) throws(SpectralError) -> Spectrum<Scalar> {
        try validateSampleRate(sampleRate)
        if signal.isEmpty { return Spectrum(frequencies: [], values: [], binWidth: 0) }
        let p = try parameters(signalLength: signal.count)
        let fft = try makeTransform(count: p.fftLength, cache: cache)
        let taper: [Scalar] =
            switch window {
            case .standard(let kind): kind.coefficients(count: p.segmentLength, symmetry: .periodic, as: Scalar.self)
            case .custom(let coefficients): coefficients.map { Scalar($0) }
            }
        let gains = WindowGains(taper.span)
        let bins = p.fftLength / 2 + 1
        let segments = p.segmentCount
        let useMedian = averaging == .median && segments > 1
        var accumulator = [Double](repeating: 0, count: useMedian ? bins * segments : bins)

        let nperseg = p.segmentLength
        let step = p.step
        let detrend = detrend
        signal.withUnsafeBufferPointer { x in
            taper.withUnsafeBufferPointer { w in
                accumulator.withUnsafeMutableBufferPointer { acc in
                    fft.withBuffers { real, spectrum in
                        for i in nperseg..<real.count { real[i] = 0 }
                        let segment = UnsafeMutableBufferPointer(rebasing: real[0..<nperseg])
                        for s in 0..<segments {
                            let start = s * step
                            let source = UnsafeBufferPointer(rebasing: x[start..<(start + nperseg)])
                            _ = segment.update(fromContentsOf: source)
                            detrend.apply(to: segment)
                            for i in 0..<nperseg { segment[i] *= w[i] }
                            fft.executeForward()
                            if useMedian {
                                // Bin-major layout, so each bin's K values are contiguous for the selection.
                                for k in 0..<bins {
                                    let re = Double(spectrum[k].real)
                                    let im = Double(spectrum[k].imaginary)
                                    acc[k * segments + s] = re * re + im * im
                                }
                            } else {
                                for k in 0..<bins {
                                    let re = Double(spectrum[k].real)
                                    let im = Double(spectrum[k].imaginary)
                                    acc[k] += re * re + im * im
                                }
                            }
                        }
                    }
                }
            }
        }

        let base =
            scaling == .density ? 1 / (sampleRate * gains.sumOfSquares) : 1 / (gains.sum * gains.sum)
        let nfft = p.fftLength
        let values = [Scalar](unsafeUninitializedCapacity: bins) { out, initialized in
            accumulator.withUnsafeMutableBufferPointer { acc in
                let bias = useMedian ? Self.medianBias(segments) : 1
                for k in 0..<bins {
                    let paired = k > 0 && !(nfft % 2 == 0 && k == nfft / 2)
                    let combined: Double
                    if useMedian {
                        let slice = UnsafeMutableBufferPointer(rebasing: acc[(k * segments)..<((k + 1) * segments)])
                        combined = Self.median(slice) / bias
                    } else {
                        combined = acc[k] / Double(segments)
                    }
                    out[k] = Scalar(combined * base * (paired ? 2 : 1))
                }
            }
            initialized = bins
        }
        return Spectrum(
            frequencies: oneSidedFrequencies(fftLength: nfft, sampleRate: sampleRate), values: values,
            binWidth: 1.0 / (Double(nfft) * (1.0 / sampleRate)))
    }

    /// The Welch power spectral density of `signal` (array convenience).
    ///
    /// See the `Span` overload of `psd(_:sampleRate:cache:)`.
    /// - Parameters:
    ///   - signal: the samples.
    ///   - sampleRate: fs in Hz.
    ///   - cache: a per-task transform cache, or nil.
    /// - Returns: `nfft/2 + 1` values in units²/Hz (`.density`) or units² (`.spectrum`).
    /// - Throws: ``SpectralError`` for invalid parameters or sample rate.
    public func psd<Scalar: FFTScalar>(
        _ signal: [Scalar], sampleRate: Double, cache: FFTCache<Scalar>? = nil
    ) throws(SpectralError) -> Spectrum<Scalar> {
        try psd(signal.span, sampleRate: sampleRate, cache: cache)
    }

    /// scipy's `_median_bias(K)`: the ratio of the median to the mean of K χ²₂ periodograms,
    /// `1 + Σ_{j=1}^{⌊(K−1)/2⌋} (1/(2j+1) − 1/(2j))`.
    static func medianBias(_ count: Int) -> Double {
        var terms = 0.0
        let upper = (count - 1) / 2
        if upper >= 1 {
            for j in 1...upper {
                let even = 2 * Double(j)
                terms += 1 / (even + 1) - 1 / even
            }
        }
        return 1 + terms
    }

    /// The median of `values`, as `numpy.median`.
    ///
    /// The mean of the two middle values for an even count; NaN if any value is NaN. Reorders `values` in
    /// place (``Selection``: introselect); allocation-free, O(n) expected.
    static func median(_ values: UnsafeMutableBufferPointer<Double>) -> Double {
        let n = values.count
        if n == 0 { return .nan }
        for v in values where v.isNaN { return .nan }
        let upper = n / 2
        _ = Selection.select(values, rank: upper)
        if n % 2 == 1 { return values[upper] }
        var lower = values[0]
        for i in 1..<upper { lower = max(lower, values[i]) }
        return (lower + values[upper]) / 2
    }
}
