public import ComplexModule
public import RealModule

/// A transfer function as zeros, poles and a gain: `H(x) = k · ∏(x − zᵢ) / ∏(x − pⱼ)`, the scipy `zpk` form.
///
/// `x` is the Laplace variable `s` (rad/s) for an analog description or `z` for a digital one; the type
/// does not record which, the operations say what they expect. Complex zeros and poles must come in
/// conjugate pairs for a real filter. Convert a digital description to biquads with
/// ``SecondOrderSections/init(_:)``; turn an analog one (e.g. the A-weighting poles of IEC 61672) into a
/// digital one with ``bilinear(sampleRate:)``.
public struct ZeroPoleGain: Sendable, Equatable {
    /// Zeros of the transfer function (rad/s for analog, dimensionless z for digital).
    public var zeros: [Complex<Double>]
    /// Poles of the transfer function (rad/s for analog, dimensionless z for digital).
    public var poles: [Complex<Double>]
    /// System gain `k`.
    public var gain: Double

    /// Creates a zero-pole-gain description.
    /// - Parameters:
    ///   - zeros: zeros, complex ones in conjugate pairs.
    ///   - poles: poles, complex ones in conjugate pairs.
    ///   - gain: the factor `k`.
    public init(zeros: [Complex<Double>], poles: [Complex<Double>], gain: Double) {
        self.zeros = zeros
        self.poles = poles
        self.gain = gain
    }

    /// Maps an analog description (s in rad/s) to a digital one with the bilinear transform, scipy
    /// `bilinear_zpk(z, p, k, fs)`.
    ///
    /// `z = (2·fs + s) / (2·fs − s)`; the `poles.count − zeros.count` zeros at infinity move to
    /// z = −1 (Nyquist), and the gain becomes `k · Re(∏(2·fs − zᵢ) / ∏(2·fs − pⱼ))` so the gain at DC is
    /// kept. No prewarping is done here: prewarp critical frequencies with `2·fs·tan(π·f/fs)` first.
    /// - Parameter sampleRate: the sampling rate fs in Hz (finite, above 0).
    /// - Returns: the digital description. Allocates its two arrays.
    /// - Precondition: at least as many poles as zeros (a proper transfer function) and a valid `sampleRate`.
    public func bilinear(sampleRate: Double) -> ZeroPoleGain {
        typealias M = FilterComplexMath
        precondition(
            poles.count >= zeros.count,
            "ZeroPoleGain.bilinear: \(zeros.count) zeros but only \(poles.count) poles (improper transfer function)")
        precondition(sampleRate.isFinite && sampleRate > 0, "ZeroPoleGain.bilinear: sampleRate \(sampleRate) Hz")
        let twoFs = Complex<Double>(2.0 * sampleRate, 0)
        var digitalZeros = zeros.map { M.divide(twoFs + $0, twoFs - $0) }
        digitalZeros.append(contentsOf: repeatElement(Complex(-1, 0), count: poles.count - zeros.count))
        let digitalPoles = poles.map { M.divide(twoFs + $0, twoFs - $0) }
        let ratio = M.divide(M.product(zeros.map { twoFs - $0 }), M.product(poles.map { twoFs - $0 }))
        return ZeroPoleGain(zeros: digitalZeros, poles: digitalPoles, gain: gain * ratio.real)
    }
}
