public import ComplexModule
public import RealModule

extension SecondOrderSections {
    /// The complex frequency response at one frequency, scipy `freqz_sos(sos, worN=[f], fs=fs)`.
    ///
    /// `H(e^{jω}) = ∏ₛ (b0 + b1·e^{−jω} + b2·e^{−2jω}) / (a0 + a1·e^{−jω} + a2·e^{−2jω})` with
    /// `ω = 2π·f/fs` rad/sample.
    /// - Parameters:
    ///   - frequency: the frequency f in Hz (any real value; the response is periodic in fs).
    ///   - sampleRate: the sampling rate fs in Hz.
    /// - Returns: `H`; `|H|` is the gain and `arg H` the phase shift in radians. Does not allocate.
    /// - Precondition: `sampleRate` is finite and above 0.
    public func response(at frequency: Double, sampleRate: Double) -> Complex<Double> {
        precondition(
            sampleRate.isFinite && sampleRate > 0, "SecondOrderSections.response: sampleRate \(sampleRate) Hz")
        let omega = 2 * Double.pi * frequency / sampleRate
        let zInverse = Complex(Double.cos(omega), -Double.sin(omega))
        var h = Complex<Double>(1, 0)
        for s in sections {
            // Horner in z⁻¹, as NumPy's polyval.
            let numerator = (Complex(s.b2, 0) * zInverse + Complex(s.b1, 0)) * zInverse + Complex(s.b0, 0)
            let denominator = (Complex(s.a2, 0) * zInverse + Complex(s.a1, 0)) * zInverse + Complex(s.a0, 0)
            h = h * (numerator / denominator)
        }
        return h
    }

    /// The complex frequency response at each frequency (Hz), scipy `freqz_sos(sos, worN=f, fs=fs)[1]`.
    /// - Parameters:
    ///   - frequencies: frequencies in Hz.
    ///   - sampleRate: the sampling rate fs in Hz.
    /// - Returns: one complex gain per frequency (see `response(at:sampleRate:)` for one frequency). Allocates the
    ///   result.
    public func response(at frequencies: [Double], sampleRate: Double) -> [Complex<Double>] {
        frequencies.map { response(at: $0, sampleRate: sampleRate) }
    }

    /// The gain in decibels at one frequency: `20·log10|H(e^{j2πf/fs})|` (−∞ at an exact zero).
    /// - Parameters:
    ///   - frequency: the frequency f in Hz.
    ///   - sampleRate: the sampling rate fs in Hz.
    /// - Returns: the gain in dB (0 dB = unit gain; −3.0103 dB = half power). Does not allocate.
    public func magnitudeDecibels(at frequency: Double, sampleRate: Double) -> Double {
        let h = response(at: frequency, sampleRate: sampleRate)
        return 20 * Double.log10(Double.hypot(h.real, h.imaginary))
    }

    /// The gain in decibels at each frequency (Hz): `20·log10|H|`, as used to check a weighting curve.
    /// - Parameters:
    ///   - frequencies: frequencies in Hz.
    ///   - sampleRate: the sampling rate fs in Hz.
    /// - Returns: one gain in dB per frequency. Allocates the result.
    public func magnitudeDecibels(at frequencies: [Double], sampleRate: Double) -> [Double] {
        frequencies.map { magnitudeDecibels(at: $0, sampleRate: sampleRate) }
    }
}
