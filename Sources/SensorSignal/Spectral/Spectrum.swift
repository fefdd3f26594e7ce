/// A one-sided spectrum: values at the frequencies `0, Δf, 2Δf, …` Hz up to fs/2.
///
/// Produced by ``SpectrumAnalyzer``, ``Welch`` and the ``power(of:sampleRate:window:scaling:fftLength:detrend:)``
/// / ``magnitude(of:sampleRate:window:fftLength:detrend:)`` conveniences. For an FFT of length N at sample
/// rate fs there are N/2 + 1 bins at `f[k] = k·fs/N` Hz (`numpy.fft.rfftfreq(N, 1/fs)`), so `Δf = fs/N`.
/// The units of ``values`` depend on the producer: units (magnitude), units² (power, `scaling=.spectrum`)
/// or units²/Hz (`scaling=.density`).
public struct Spectrum<Scalar: FFTScalar>: Sendable, Equatable {
    /// The bin frequencies in Hz, ascending from 0.
    public var frequencies: [Double]
    /// The spectrum value of each bin, in the producer's units.
    public var values: [Scalar]
    /// The spacing Δf of ``frequencies`` in Hz (fs/N).
    public var binWidth: Double

    /// Creates a spectrum from matching frequency and value arrays.
    /// - Parameters:
    ///   - frequencies: bin frequencies in Hz.
    ///   - values: one value per frequency.
    ///   - binWidth: the bin spacing Δf in Hz.
    public init(frequencies: [Double], values: [Scalar], binWidth: Double) {
        precondition(
            frequencies.count == values.count,
            "Spectrum: \(frequencies.count) frequencies but \(values.count) values")
        self.frequencies = frequencies
        self.values = values
        self.binWidth = binWidth
    }

    /// The number of bins.
    public var count: Int { values.count }

    /// The largest peak above DC, interpolated between bins (see ``SpectralPeak`` for the formula).
    ///
    /// - Parameter band: the frequency range in Hz a peak bin must lie in, e.g. `0.5...4` for walking
    ///   cadence; nil searches every bin but DC.
    /// - Returns: the peak, with ``SpectralPeak/value`` in this spectrum's units, or nil when no bin in range
    ///   is positive. Allocation-free; O(N).
    public func dominantPeak(in band: ClosedRange<Double>? = nil) -> SpectralPeak? {
        SpectralPeak.locate(
            count: count, binWidth: binWidth, band: band,
            frequency: { frequencies[$0] }, value: { Double(values[$0]) })
    }

    /// The rectangle-rule integral `Σ P[k]·Δf` over the bins whose frequency lies in `band`.
    ///
    /// For a power spectral density (units²/Hz) this is the signal power in the band in units²; over the whole
    /// axis it approximates the variance of a detrended signal (Parseval). Allocation-free; O(N).
    /// - Parameter band: the frequency range in Hz; nil integrates every bin.
    /// - Returns: `Σ values[k]·binWidth` in units² for a density.
    public func integral(over band: ClosedRange<Double>? = nil) -> Double {
        var total = 0.0
        for k in 0..<count {
            if let band, !band.contains(frequencies[k]) { continue }
            total += Double(values[k])
        }
        return total * binWidth
    }
}

extension Spectrum {
    /// The one-sided power spectrum of one frame (a single-segment ``Welch`` periodogram).
    ///
    /// `P[k] = c[k]·|DFT(w·d(x))[k]|² / S₁²` units² for `.spectrum`, or `/ (fs·S₂)` units²/Hz for `.density`
    /// (see ``SpectralScaling``), where `d` is `detrend` and `w` the periodic window. Equals
    /// `scipy.signal.periodogram(x, fs, window=window.scipyName, nfft=fftLength, detrend=…, scaling=…)` —
    /// except that scipy's default window is `boxcar` and its default detrend `'constant'`.
    /// - Parameters:
    ///   - frame: N ≥ 1 samples.
    ///   - sampleRate: fs in Hz.
    ///   - window: the taper; Hann by default.
    ///   - scaling: `.spectrum` (units²) by default, or `.density` (units²/Hz).
    ///   - fftLength: the zero-padded FFT length ≥ N; nil means N.
    ///   - detrend: trend removal before windowing; none by default.
    /// - Returns: `fftLength/2 + 1` bins. Allocates a transform (plans are cached) and the result arrays.
    /// - Throws: ``SpectralError`` for an empty frame, `fftLength < N`, or a bad sample rate.
    public static func power(
        of frame: [Scalar], sampleRate: Double, window: Window = .hann, scaling: SpectralScaling = .spectrum,
        fftLength: Int? = nil, detrend: Detrend = .none
    ) throws(SpectralError) -> Spectrum {
        let analyzer = try SpectrumAnalyzer<Scalar>(
            frameLength: frame.count, sampleRate: sampleRate, window: window, fftLength: fftLength, detrend: detrend)
        return analyzer.powerSpectrum(frame, scaling: scaling)
    }

    /// The one-sided amplitude spectrum of one frame, in the signal's units.
    ///
    /// `M[k] = c'[k]·|DFT(w·d(x))[k]| / S₁` with `c' = 2` for the bins that stand for ±f (all but DC and an
    /// even-length Nyquist bin), else 1: a sine `A·sin(2πft)` with f on a bin centre gives `M = A`, and a
    /// constant offset gives its value at DC. (`M[k]² = 2·P[k]` of `.spectrum` scaling off DC/Nyquist.)
    /// - Parameters:
    ///   - frame: N ≥ 1 samples.
    ///   - sampleRate: fs in Hz.
    ///   - window: the taper; Hann by default.
    ///   - fftLength: the zero-padded FFT length ≥ N; nil means N.
    ///   - detrend: trend removal before windowing; none by default.
    /// - Returns: `fftLength/2 + 1` bins in signal units. Allocates a transform and the result arrays.
    /// - Throws: ``SpectralError`` for an empty frame, `fftLength < N`, or a bad sample rate.
    public static func magnitude(
        of frame: [Scalar], sampleRate: Double, window: Window = .hann, fftLength: Int? = nil,
        detrend: Detrend = .none
    ) throws(SpectralError) -> Spectrum {
        let analyzer = try SpectrumAnalyzer<Scalar>(
            frameLength: frame.count, sampleRate: sampleRate, window: window, fftLength: fftLength, detrend: detrend)
        return analyzer.magnitudeSpectrum(frame)
    }
}

/// The bin frequencies of a one-sided spectrum, `f[k] = k·fs/N` Hz for `k = 0 … N/2`.
///
/// Bit-for-bit `numpy.fft.rfftfreq(N, 1/fs)` (computed as `k · (1/(N·(1/fs)))`), which is the frequency
/// axis `scipy.signal.welch` returns.
/// - Parameters:
///   - fftLength: the FFT length N ≥ 1.
///   - sampleRate: fs in Hz.
/// - Returns: N/2 + 1 frequencies in Hz. Allocates once: the result.
public func oneSidedFrequencies(fftLength: Int, sampleRate: Double) -> [Double] {
    precondition(fftLength >= 1, "oneSidedFrequencies: fftLength \(fftLength) must be ≥ 1")
    let bins = fftLength / 2 + 1
    let spacing = 1.0 / (Double(fftLength) * (1.0 / sampleRate))
    return [Double](unsafeUninitializedCapacity: bins) { buffer, initialized in
        for k in 0..<bins { buffer[k] = Double(k) * spacing }
        initialized = bins
    }
}

/// The frequency in Hz of the largest spectral peak of `signal` above DC, interpolated between bins.
///
/// Removes the mean, applies the periodic `window`, takes the FFT of length N and refines the largest bin
/// (DC excluded) by quadratic interpolation of log-power (see ``SpectralPeak``): with the default Hann window
/// a pure tone anywhere between bins is found within 0.02 bin (`0.02·fs/N` Hz). Used for the dominant
/// frequency of an audio recording and for walking cadence (restrict `band` to e.g. `0.5...4` Hz).
/// - Parameters:
///   - signal: N ≥ 1 samples.
///   - sampleRate: fs in Hz.
///   - window: the taper; Hann by default (a rectangular window can bias the estimate by 0.2 bin).
///   - band: the range in Hz the peak bin must lie in; nil searches all bins above DC.
/// - Returns: the frequency in Hz, or nil when the spectrum is zero in range (silence, N = 1).
///   Allocates a transform and its scratch buffers once.
/// - Throws: ``SpectralError`` for an empty signal or a bad sample rate.
@specialized(where Scalar == Double)
@specialized(where Scalar == Float)
public func dominantFrequency<Scalar: FFTScalar>(
    of signal: Span<Scalar>, sampleRate: Double, window: Window = .hann, in band: ClosedRange<Double>? = nil
) throws(SpectralError) -> Double? {
    let analyzer = try SpectrumAnalyzer<Scalar>(
        frameLength: signal.count, sampleRate: sampleRate, window: window, detrend: .constant)
    return analyzer.dominantPeak(signal, in: band)?.frequency
}

/// The frequency in Hz of the largest spectral peak of `signal` above DC (array convenience).
///
/// See the `Span` overload of `dominantFrequency(of:sampleRate:window:in:)`.
/// - Parameters:
///   - signal: N ≥ 1 samples.
///   - sampleRate: fs in Hz.
///   - window: the taper; Hann by default.
///   - band: the range in Hz the peak bin must lie in; nil searches all bins above DC.
/// - Returns: the frequency in Hz, or nil for a spectrum that is zero in range.
/// - Throws: ``SpectralError`` for an empty signal or a bad sample rate.
public func dominantFrequency<Scalar: FFTScalar>(
    of signal: [Scalar], sampleRate: Double, window: Window = .hann, in band: ClosedRange<Double>? = nil
) throws(SpectralError) -> Double? {
    try dominantFrequency(of: signal.span, sampleRate: sampleRate, window: window, in: band)
}
