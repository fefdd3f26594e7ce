internal import ComplexModule

/// The autocorrelation of a signal for lags `0 … maxLag`, computed with one FFT pair.
///
/// With `y = x − x̄` (or `y = x` when ``removesMean`` is false) of length N, the raw lag sums are
///
/// ```
/// s[k] = Σ_{n=0}^{N−1−k} y[n]·y[n+k],   k = 0 … maxLag
/// ```
///
/// — the right half (from the centre) of `numpy.correlate(y, y, 'full')` — and the result is
/// `s[k]` (``Normalization/none``), `s[k]/N` (``Normalization/biased``), `s[k]/(N − k)`
/// (``Normalization/unbiased``) or `s[k]/s[0]` (``Normalization/coefficient``, so lag 0 is 1).
/// Values are in units² (or dimensionless for `.coefficient`); lags are in samples (`k/fs` seconds).
///
/// Computed as `s = IFFT(|FFT(y, L)|²)` with the zero-padded length `L = nextFastFFTLength(2N − 1)`, which
/// avoids circular wrap-around, so the result equals the O(N²) definition to rounding: O(L log L) time.
/// The absolute error is about `ε·log₂(L)·s[0]` (ε = 2.2·10⁻¹⁶ for `Double`, 1.2·10⁻⁷ for `Float`, which is
/// transformed with the `Float` FFT): relative errors grow for lags where `s[k] ≪ s[0]`, and for
/// `.unbiased` at lags near N.
public struct Autocorrelation: Sendable, Hashable {
    /// How the raw lag sums `s[k]` are scaled.
    public enum Normalization: String, Sendable, Hashable, CaseIterable {
        /// The raw sums `s[k]` in units² (`numpy.correlate(y, y, 'full')[N−1+k]`).
        case none
        /// `s[k]/N` in units²: the biased estimator, a positive semi-definite sequence (statsmodels `acovf`).
        case biased
        /// `s[k]/(N − k)` in units²: unbiased for each lag, but noisy near lag N (`acovf(adjusted=True)`).
        case unbiased
        /// `s[k]/s[0]`, dimensionless in [−1, 1] (statsmodels `acf`); all zeros when `s[0] = 0`.
        case coefficient
    }

    /// The scaling of the lag sums; `.biased` by default.
    public var normalization: Normalization
    /// Whether the mean is subtracted first (an autocovariance); true by default.
    public var removesMean: Bool
    /// The largest lag in samples; nil or a value ≥ N − 1 means N − 1.
    public var maxLag: Int?

    /// Creates an autocorrelation configuration.
    /// - Parameters:
    ///   - normalization: the lag scaling; `.biased` by default.
    ///   - removesMean: subtract the mean first; true by default.
    ///   - maxLag: the largest lag (≥ 0) in samples; nil for N − 1.
    public init(normalization: Normalization = .biased, removesMean: Bool = true, maxLag: Int? = nil) {
        self.normalization = normalization
        self.removesMean = removesMean
        self.maxLag = maxLag
    }

    /// The autocorrelation of `signal` at lags `0 … min(maxLag, N − 1)`.
    ///
    /// See ``Autocorrelation`` for the formula. Allocation: the result array, and a transform of length
    /// `nextFastFFTLength(2N − 1)` unless `cache` has one (the FFT runs in place in the transform's buffers).
    /// - Parameters:
    ///   - signal: N samples; an empty signal gives an empty result.
    ///   - cache: a per-task transform cache, or nil.
    /// - Returns: `min(maxLag, N − 1) + 1` values, lag 0 first.
    /// - Throws: ``SpectralError/invalidParameter(_:)`` for a negative `maxLag`, ``SpectralError/fft(_:)``.
    @specialized(where Scalar == Double)
    @specialized(where Scalar == Float)
    public func compute<Scalar: FFTScalar>(
        _ signal: Span<Scalar>, cache: FFTCache<Scalar>? = nil
    ) throws(SpectralError) -> [Scalar] {
        if let maxLag, maxLag < 0 { throw .invalidParameter("maxLag \(maxLag) must be ≥ 0") }
        let n = signal.count
        if n == 0 { return [] }
        let lags = min(maxLag ?? (n - 1), n - 1) + 1
        let length = nextFastFFTLength(2 * n - 1)
        let fft = try makeTransform(count: length, cache: cache)

        var mean = 0.0
        if removesMean {
            for i in signal.indices { mean += Double(signal[i]) }
            mean /= Double(n)
        }
        signal.withUnsafeBufferPointer { x in
            fft.withBuffers { real, spectrum in
                for i in 0..<n { real[i] = Scalar(Double(x[i]) - mean) }
                for i in n..<length { real[i] = 0 }
                fft.executeForward()
                for k in spectrum.indices {
                    let c = spectrum[k]
                    spectrum[k] = Complex(c.real * c.real + c.imaginary * c.imaginary, 0)
                }
                fft.executeInverse()  // unnormalised: real[k] = L·s[k]
            }
        }
        let normalization = normalization
        return fft.withBuffers { real, _ in
            [Scalar](unsafeUninitializedCapacity: lags) { out, initialized in
                let scale = 1 / Double(length)
                let zeroLag = Double(real[0]) * scale
                for k in 0..<lags {
                    let s = Double(real[k]) * scale
                    let value: Double =
                        switch normalization {
                        case .none: s
                        case .biased: s / Double(n)
                        case .unbiased: s / Double(n - k)
                        case .coefficient: zeroLag != 0 ? s / zeroLag : 0
                        }
                    out[k] = Scalar(value)
                }
                initialized = lags
            }
        }
    }

    /// The autocorrelation of `signal` at lags `0 … min(maxLag, N − 1)` (array convenience).
    ///
    /// See the `Span` overload of `compute(_:cache:)`.
    /// - Parameters:
    ///   - signal: N samples.
    ///   - cache: a per-task transform cache, or nil.
    /// - Returns: `min(maxLag, N − 1) + 1` values, lag 0 first.
    /// - Throws: ``SpectralError`` for a negative `maxLag` or an FFT failure.
    public func compute<Scalar: FFTScalar>(
        _ signal: [Scalar], cache: FFTCache<Scalar>? = nil
    ) throws(SpectralError) -> [Scalar] {
        try compute(signal.span, cache: cache)
    }
}
