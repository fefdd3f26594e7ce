internal import ComplexModule

/// Computes windowed one-sided spectra of fixed-length frames, reusing one FFT and its buffers.
///
/// Each frame goes through `detrend → × periodic window → zero-pad to fftLength → real FFT`. Power
/// (``powerSpectrum(_:scaling:into:)``), magnitude (``magnitudeSpectrum(_:into:)``) and the dominant peak
/// (``dominantPeak(_:in:)``) follow the formulas of ``SpectralScaling``, ``Spectrum/magnitude(of:sampleRate:window:fftLength:detrend:)``
/// and ``SpectralPeak``; a power spectrum equals
/// `scipy.signal.periodogram(frame, fs, window, nfft=fftLength, detrend=…, scaling=…)`.
///
/// Allocation: the initialiser allocates the window, the frequency axis and scratch space (the FFT plan is
/// cached process-wide); the `into:` methods and ``dominantPeak(_:in:)`` allocate nothing once the output
/// array has the right size. Not `Sendable`: like ``RealFFT``, an analyzer belongs to one task at a time.
public final class SpectrumAnalyzer<Scalar: FFTScalar> {
    /// The frame length N in samples.
    public let frameLength: Int
    /// The FFT length (≥ N; frames are zero-padded to it).
    public let fftLength: Int
    /// The sample rate fs in Hz.
    public let sampleRate: Double
    /// The periodic taper applied to every frame.
    public let window: Window
    /// The trend removal applied to every frame before windowing.
    public let detrend: Detrend
    /// Σw and Σw² of the frame window.
    public let windowGains: WindowGains
    /// The `fftLength/2 + 1` bin frequencies in Hz (`numpy.fft.rfftfreq(fftLength, 1/fs)`).
    public let frequencies: [Double]
    /// The bin spacing Δf = fs/fftLength in Hz.
    public let binWidth: Double

    private let fft: RealFFT<Scalar>
    private let windowValues: [Scalar]
    private var scratchPower: [Double]

    /// Prepares an analyzer for frames of `frameLength` samples.
    /// - Parameters:
    ///   - frameLength: N ≥ 1 samples per frame.
    ///   - sampleRate: fs in Hz (> 0).
    ///   - window: the periodic taper; Hann by default.
    ///   - fftLength: the FFT length ≥ N (zero-padding interpolates the spectrum); nil means N.
    ///   - detrend: trend removal before windowing; none by default.
    ///   - cache: a per-task transform cache to take the FFT from; nil creates one.
    /// - Throws: ``SpectralError/invalidParameter(_:)`` for N < 1, `fftLength < N` or a bad sample rate;
    ///   ``SpectralError/fft(_:)`` if the transform cannot be planned.
    public init(
        frameLength: Int, sampleRate: Double, window: Window = .hann, fftLength: Int? = nil,
        detrend: Detrend = .none, cache: FFTCache<Scalar>? = nil
    ) throws(SpectralError) {
        guard frameLength >= 1 else { throw .invalidParameter("frame length \(frameLength) must be ≥ 1") }
        try validateSampleRate(sampleRate)
        let nfft = fftLength ?? frameLength
        guard nfft >= frameLength else {
            throw .invalidParameter("fftLength \(nfft) must be ≥ frame length \(frameLength)")
        }
        self.frameLength = frameLength
        self.fftLength = nfft
        self.sampleRate = sampleRate
        self.window = window
        self.detrend = detrend
        let taper = window.coefficients(count: frameLength, symmetry: .periodic, as: Scalar.self)
        windowGains = WindowGains(taper.span)
        windowValues = taper
        frequencies = oneSidedFrequencies(fftLength: nfft, sampleRate: sampleRate)
        binWidth = 1.0 / (Double(nfft) * (1.0 / sampleRate))
        scratchPower = [Double](repeating: 0, count: nfft / 2 + 1)
        fft = try makeTransform(count: nfft, cache: cache)
    }

    /// The number of bins, `fftLength/2 + 1`.
    public var binCount: Int { fftLength / 2 + 1 }

    /// Detrends, windows, zero-pads and transforms `frame` into the FFT's spectrum buffer.
    private func transform(_ frame: Span<Scalar>) {
        precondition(
            frame.count == frameLength,
            "SpectrumAnalyzer: frame has \(frame.count) samples, analyzer expects \(frameLength)")
        let n = frameLength
        frame.withUnsafeBufferPointer { source in
            windowValues.withUnsafeBufferPointer { w in
                fft.withBuffers { real, _ in
                    let segment = UnsafeMutableBufferPointer(rebasing: real[0..<n])
                    _ = segment.update(fromContentsOf: source)
                    detrend.apply(to: segment)
                    for i in 0..<n { segment[i] *= w[i] }
                    for i in n..<real.count { real[i] = 0 }
                }
            }
        }
        fft.executeForward()
    }

    /// Whether bin k stands for both +f and −f (doubled in a one-sided spectrum).
    @inline(__always)
    private func isPaired(_ k: Int) -> Bool { k > 0 && !(fftLength % 2 == 0 && k == fftLength / 2) }

    /// The one-sided power spectrum of `frame` into `power` (resized to `fftLength/2 + 1`).
    ///
    /// `P[k] = c[k]·|X[k]|²/S₁²` units² (`.spectrum`) or `c[k]·|X[k]|²/(fs·S₂)` units²/Hz (`.density`),
    /// see ``SpectralScaling``. Allocation-free when `power` already has `fftLength/2 + 1` elements.
    /// - Parameters:
    ///   - frame: exactly ``frameLength`` samples (precondition).
    ///   - scaling: `.spectrum` (units²) by default, or `.density` (units²/Hz).
    ///   - power: the output.
    @specialized(where Scalar == Double)
    @specialized(where Scalar == Float)
    public func powerSpectrum(_ frame: Span<Scalar>, scaling: SpectralScaling = .spectrum, into power: inout [Scalar]) {
        transform(frame)
        let bins = binCount
        if power.count != bins { power = [Scalar](repeating: 0, count: bins) }
        let base =
            scaling == .spectrum
            ? 1 / (windowGains.sum * windowGains.sum) : 1 / (sampleRate * windowGains.sumOfSquares)
        power.withUnsafeMutableBufferPointer { p in
            fft.withBuffers { _, spectrum in
                for k in 0..<bins {
                    let re = Double(spectrum[k].real)
                    let im = Double(spectrum[k].imaginary)
                    p[k] = Scalar((re * re + im * im) * base * (isPaired(k) ? 2 : 1))
                }
            }
        }
    }

    /// The one-sided power spectrum of `frame` with its frequency axis (allocates the result).
    ///
    /// See ``powerSpectrum(_:scaling:into:)``.
    /// - Parameters:
    ///   - frame: exactly ``frameLength`` samples (precondition).
    ///   - scaling: `.spectrum` (units²) by default, or `.density` (units²/Hz).
    /// - Returns: `fftLength/2 + 1` bins from 0 to fs/2 Hz.
    public func powerSpectrum(_ frame: [Scalar], scaling: SpectralScaling = .spectrum) -> Spectrum<Scalar> {
        var values: [Scalar] = []
        powerSpectrum(frame.span, scaling: scaling, into: &values)
        return Spectrum(frequencies: frequencies, values: values, binWidth: binWidth)
    }

    /// The one-sided amplitude spectrum of `frame` into `magnitude`, in signal units.
    ///
    /// `M[k] = c'[k]·|X[k]|/S₁` with `c' = 2` for paired bins, else 1: a sine of amplitude A on a bin centre
    /// reads A. Allocation-free when `magnitude` already has `fftLength/2 + 1` elements.
    /// - Parameters:
    ///   - frame: exactly ``frameLength`` samples (precondition).
    ///   - magnitude: the output.
    @specialized(where Scalar == Double)
    @specialized(where Scalar == Float)
    public func magnitudeSpectrum(_ frame: Span<Scalar>, into magnitude: inout [Scalar]) {
        transform(frame)
        let bins = binCount
        if magnitude.count != bins { magnitude = [Scalar](repeating: 0, count: bins) }
        let base = 1 / windowGains.sum
        magnitude.withUnsafeMutableBufferPointer { m in
            fft.withBuffers { _, spectrum in
                for k in 0..<bins {
                    let re = Double(spectrum[k].real)
                    let im = Double(spectrum[k].imaginary)
                    m[k] = Scalar((re * re + im * im).squareRoot() * base * (isPaired(k) ? 2 : 1))
                }
            }
        }
    }

    /// The one-sided amplitude spectrum of `frame` with its frequency axis (allocates the result).
    ///
    /// See ``magnitudeSpectrum(_:into:)``.
    /// - Parameter frame: exactly ``frameLength`` samples (precondition).
    /// - Returns: `fftLength/2 + 1` bins in signal units, from 0 to fs/2 Hz.
    public func magnitudeSpectrum(_ frame: [Scalar]) -> Spectrum<Scalar> {
        var values: [Scalar] = []
        magnitudeSpectrum(frame.span, into: &values)
        return Spectrum(frequencies: frequencies, values: values, binWidth: binWidth)
    }

    /// The largest peak of the frame's power spectrum above DC, interpolated between bins.
    ///
    /// Quadratic interpolation of log-power (see ``SpectralPeak``); ``SpectralPeak/value`` is the interpolated
    /// power in units² (`.spectrum` scaling), so a sine of amplitude A reads ≈ A²/2. Allocation-free.
    /// - Parameters:
    ///   - frame: exactly ``frameLength`` samples (precondition).
    ///   - band: the range in Hz the peak bin must lie in; nil searches all bins above DC.
    /// - Returns: the peak, or nil when the spectrum is zero in range.
    @specialized(where Scalar == Double)
    @specialized(where Scalar == Float)
    public func dominantPeak(_ frame: Span<Scalar>, in band: ClosedRange<Double>? = nil) -> SpectralPeak? {
        transform(frame)
        let bins = binCount
        let base = 1 / (windowGains.sum * windowGains.sum)
        scratchPower.withUnsafeMutableBufferPointer { p in
            fft.withBuffers { _, spectrum in
                for k in 0..<bins {
                    let re = Double(spectrum[k].real)
                    let im = Double(spectrum[k].imaginary)
                    p[k] = (re * re + im * im) * base * (isPaired(k) ? 2 : 1)
                }
            }
        }
        return scratchPower.withUnsafeBufferPointer { p in
            SpectralPeak.locate(
                count: bins, binWidth: binWidth, band: band, frequency: { frequencies[$0] }, value: { p[$0] })
        }
    }
}
