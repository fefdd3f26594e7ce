// R's `round(x, digits)` (R ≥ 4.0.0, `nmath/fround.c`).

extension RStatistics {
    /// Rounds to `digits` decimal places as R 4.x's `round(x, digits)` does.
    ///
    /// - `digits == 0`: the nearest integer, ties to even (C `nearbyint`): `round(0.5) = 0`, `round(1.5) = 2`,
    ///   `round(2.5) = 2`, `round(-0.5) = -0`. Swift's `rounded()` would round ties away from zero instead.
    /// - Otherwise R's "long double free" algorithm: with p = 10^digits (by repeated squaring, `R_pow_di`) and
    ///   x₁₀ = |x|·p, the two candidates x↓ = ⌊x₁₀⌋ / p and x↑ = ⌈x₁₀⌉ / p are compared in `double`: the closer one
    ///   to |x| wins, and an exact tie goes to the even ⌊x₁₀⌋·… candidate. So the *decimal* value a `Double`
    ///   actually holds decides: `round(0.125, 2) = 0.12` (0.125 is exact, tie to even), `round(2.675, 2) = 2.67`
    ///   (2.675 is stored as 2.67499999…), `round(0.15, 1) = 0.1`, `round(2.5, 0) = 2`.
    /// - Nothing to do when |x| already has no more than 15 significant digits at that position
    ///   (log₁₀|x| + digits > 15): `x` is returned unchanged. Negative `digits` round to tens, hundreds, …
    ///   (`round(1250, -2) = 1200`).
    ///
    /// mhealthtools uses it for the fatigue windows: k = `round(0.1 * n)`.
    ///
    /// - Parameters:
    ///   - x: The value.
    ///   - digits: Decimal places; negative values round to powers of ten.
    /// - Returns: The rounded value; NaN and ±∞ are returned unchanged, as are zeros (keeping their sign).
    /// - Complexity: O(log |digits|), no allocation.
    public static func round(_ x: Double, digits: Int = 0) -> Double {
        let maxDigits = 308 + 15  // DBL_MAX_10_EXP + DBL_DIG
        let max10e = 308
        guard x.isFinite else { return x }
        if digits > maxDigits || x == 0 { return x }
        if digits < -max10e { return 0 }
        if digits == 0 { return x.rounded(.toNearestOrEven) }

        let sign: Double = x < 0 ? -1 : 1
        let magnitude = x.magnitude
        let log10OfTwo = 0.301029995663981195213738894724493027  // M_LOG10_2
        let approximateLog10 = log10OfTwo * (0.5 + Double(magnitude.exponent))  // logb(x)
        if approximateLog10 + Double(digits) > 15 { return sign * magnitude }

        let scaled: Double, lower: Double, down: Double, up: Double
        if digits <= max10e {
            let p10 = rPowDI(10, digits)
            scaled = magnitude * p10
            lower = scaled.rounded(.down)
            down = lower / p10
            up = scaled.rounded(.up) / p10
        } else {  // |x| ≪ 1 (~1e-305): 10^digits would overflow, split it
            let p10 = rPowDI(10, digits - max10e)
            let p10max = rPowDI(10, max10e)
            scaled = (magnitude * p10max) * p10
            lower = scaled.rounded(.down)
            down = lower / p10max / p10
            up = scaled.rounded(.up) / p10max / p10
        }
        let distanceUp = up - magnitude, distanceDown = magnitude - down
        let lowerIsOdd = lower.truncatingRemainder(dividingBy: 2) == 1
        return sign * ((distanceUp < distanceDown || (lowerIsOdd && distanceUp == distanceDown)) ? up : down)
    }

    /// R's `R_pow_di(x, n)` (`arithmetic.c`): xⁿ by repeated squaring, 1/x^|n| for negative n.
    static func rPowDI(_ base: Double, _ exponent: Int) -> Double {
        var x = base
        var result = 1.0
        if x.isNaN { return x }
        guard exponent != 0 else { return result }
        if !x.isFinite { return rPow(x, Double(exponent)) }
        var n = exponent.magnitude
        while true {
            if n & 1 == 1 { result *= x }
            n >>= 1
            if n == 0 { break }
            x *= x
        }
        return exponent < 0 ? 1 / result : result
    }
}
