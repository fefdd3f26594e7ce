/// Errors raised by the spectral estimators (``Welch``, ``SpectrumAnalyzer``, ``Autocorrelation``).
public enum SpectralError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A parameter is out of range, e.g. `noverlap ≥ nperseg`, `nfft < nperseg`, a non-positive sample
    /// rate, or a window whose length differs from the requested segment length. The message names it.
    case invalidParameter(String)
    /// The signal has fewer samples than the analysis needs (e.g. shorter than an explicit window).
    case signalTooShort(length: Int, required: Int)
    /// The Fourier transform could not be prepared.
    case fft(FFTError)

    /// A one-line human-readable description.
    public var description: String {
        switch self {
        case .invalidParameter(let message): "invalid spectral parameter: \(message)"
        case .signalTooShort(let length, let required):
            "signal too short: \(length) samples, at least \(required) needed"
        case .fft(let error): error.description
        }
    }
}

/// Creates the transform of length `count`, from `cache` if given, mapping ``FFTError`` to ``SpectralError``.
func makeTransform<Scalar: FFTScalar>(
    count: Int, cache: FFTCache<Scalar>?
) throws(SpectralError) -> RealFFT<Scalar> {
    do {
        if let cache { return try cache.transform(count: count) }
        return try RealFFT<Scalar>(count: count)
    } catch {
        throw .fft(error)
    }
}

/// Checks that `sampleRate` is a positive finite frequency in Hz.
func validateSampleRate(_ sampleRate: Double) throws(SpectralError) {
    guard sampleRate.isFinite, sampleRate > 0 else {
        throw .invalidParameter("sample rate \(sampleRate) Hz must be positive and finite")
    }
}
