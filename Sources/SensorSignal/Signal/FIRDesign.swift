internal import RealModule

/// Windowed-sinc FIR design with a Kaiser window, as used by ``PolyphaseResampler`` (scipy's `firwin` defaults).
///
/// A namespace: all members are static and pure.
public enum FIRDesign {
    /// The modified Bessel function of the first kind, order zero: `I₀(x) = Σₖ ((x/2)^k / k!)²`.
    ///
    /// Evaluated by its power series, whose terms are all positive (no cancellation), until a term no longer
    /// changes the sum. Agrees with `scipy.special.i0` to a few ulps for |x| ≤ 50; overflows to `+∞` past
    /// |x| ≈ 713 like scipy. O(|x|) terms; no allocation.
    ///
    /// - Parameter x: The argument (dimensionless).
    /// - Returns: `I₀(x)` (≥ 1, even in `x`).
    public static func besselI0(_ x: Double) -> Double {
        guard x.isFinite else { return x.isNaN ? x : .infinity }
        let quarterSquare = x * x / 4
        var term = 1.0
        var sum = 1.0
        var k = 1.0
        while true {
            term *= quarterSquare / (k * k)
            let next = sum + term
            if next == sum || !next.isFinite { return next }
            sum = next
            k += 1
        }
    }

    /// The symmetric Kaiser window of `count` points (`scipy.signal.windows.kaiser(count, beta, sym=True)`).
    ///
    /// `w[n] = I₀(β·√(1 − ((n − α)/α)²)) / I₀(β)` with `α = (count − 1)/2`, for `n = 0 ..< count`;
    /// a 1-point window is `[1]`. β = 5 gives about 55 dB side-lobe attenuation (Kaiser & Schafer).
    /// Allocates once: the result array.
    ///
    /// - Parameters:
    ///   - count: Number of points (samples), ≥ 0.
    ///   - beta: Shape parameter β (dimensionless, ≥ 0); 0 is rectangular.
    /// - Returns: The window, peak 1 at the centre.
    public static func kaiserWindow(count: Int, beta: Double) -> [Double] {
        precondition(count >= 0, "kaiserWindow: count must be non-negative, was \(count)")
        if count <= 1 { return [Double](repeating: 1, count: count) }
        let alpha = Double(count - 1) / 2
        let denominator = besselI0(beta)
        return (0..<count).map { n in
            let r = (Double(n) - alpha) / alpha
            return besselI0(beta * (1 - r * r).squareRoot()) / denominator
        }
    }

    /// Designs a linear-phase low-pass FIR filter by the window method with a Kaiser window.
    ///
    /// This is `scipy.signal.firwin(tapCount, cutoff, window=("kaiser", beta))` with its defaults
    /// `pass_zero=True, scale=True`.
    /// `h[n] = c·sinc(c·(n − α)) · w[n]` with `α = (tapCount − 1)/2`, `sinc(t) = sin(πt)/(πt)` and `w` the
    /// Kaiser window; then `h` is divided by `Σ h` so the DC gain is exactly 1.
    /// Allocates the result and the window.
    ///
    /// - Parameters:
    ///   - tapCount: Number of taps (filter length, samples), ≥ 1.
    ///   - cutoff: Cutoff as a fraction of the Nyquist frequency, in (0, 1): `cutoff = f_c / (fs/2)`.
    ///   - kaiserBeta: Kaiser β; scipy's `resample_poly` uses 5.
    /// - Returns: The `tapCount` filter taps, symmetric, summing to 1.
    public static func lowpass(tapCount: Int, cutoff: Double, kaiserBeta: Double = 5) -> [Double] {
        precondition(tapCount >= 1, "lowpass: tapCount must be at least 1, was \(tapCount)")
        precondition(cutoff > 0 && cutoff < 1, "lowpass: cutoff must be in (0, 1) × Nyquist, was \(cutoff)")
        let alpha = Double(tapCount - 1) / 2
        let window = kaiserWindow(count: tapCount, beta: kaiserBeta)
        var taps = (0..<tapCount).map { n in
            cutoff * normalizedSinc(cutoff * (Double(n) - alpha)) * window[n]
        }
        let gain = taps.reduce(0, +)
        for n in taps.indices { taps[n] /= gain }
        return taps
    }

    /// `sin(πt)/(πt)`, 1 at 0.
    private static func normalizedSinc(_ t: Double) -> Double {
        if t == 0 { return 1 }
        let y = Double.pi * t
        return Double.sin(y) / y
    }
}
