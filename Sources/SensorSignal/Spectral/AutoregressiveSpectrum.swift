internal import RealModule

/// A univariate autoregressive (AR) model fitted by the Yule–Walker equations with its order chosen by AIC, and its
/// spectral density: R 4.2's `spec.ar(x, n.freq, plot = FALSE)` (which calls `ar(x)`, i.e. `ar.yw` with every
/// argument at its default), operation by operation.
///
/// The fit, for a series x₁…xₙ:
/// 1. x̄ = R `colMeans(x)` (one `long double` pass); the series is centred, and centred again by `acf` (as R does).
/// 2. Autocovariances c(k) = Σᵢ₌₁ⁿ⁻ᵏ xᵢ₊ₖ xᵢ / n for k = 0…K, K = min(n − 1, ⌊10 log₁₀ n⌋) (R's `order.max`).
/// 3. Levinson–Durbin recursion (R's Fortran `eureka`) gives the coefficients φ₁…φₚ and innovation variances
///    σ²ₚ of every order p = 1…K (σ²₀ = c(0)).
/// 4. AIC(p) = n ln σ²ₚ + 2p + 2; the order is the first p with the smallest AIC.
/// 5. The prediction variance is σ²ₚ · n / (n − (p + 1)).
///
/// The spectrum at frequency f (cycles per sample) is σ² / ((1 − Σₖ φₖ cos 2πfk)² + (Σₖ φₖ sin 2πfk)²), at R's
/// `seq.int(0, 0.5, length.out = n.freq)`. Multiply frequencies by the sampling rate for Hz; the density is then
/// in the series' units squared per (cycle/sample), as R reports it (mhealthtools normalises it to sum 1).
///
/// Parity with R 4.2.2 on x86-64 (80-bit `long double`) is tested against mhealthtools' spectra; sums of products
/// that R does in BLAS may differ in the last bits.
public struct YuleWalkerFit: Sendable, Hashable {
    /// The AR order p chosen by AIC (0 for white noise).
    public var order: Int
    /// The coefficients φ₁…φₚ (dimensionless), `ar(x)$ar`; empty for order 0.
    public var coefficients: [Double]
    /// The innovation (prediction-error) variance σ², `ar(x)$var.pred`, in the series' units squared.
    public var predictionVariance: Double
    /// The largest order tried, K = min(n − 1, ⌊10 log₁₀ n⌋) (R's `order.max`).
    public var maximumOrder: Int
    /// AIC(p) − min AIC for p = 0…K (R's `ar(x)$aic`).
    public var aic: [Double]
    /// The mean removed before fitting, in the series' units (`ar(x)$x.mean`).
    public var mean: Double

    /// Fits the model to `x` as R's `ar(x)` does.
    ///
    /// - Parameter x: The series, in any unit.
    /// - Returns: The fit; nil for fewer than 2 samples, a non-finite sample (R stops: `na.fail`, or the fit turns
    ///   NaN), or a zero-variance series (R stops with "zero-variance series").
    /// - Complexity: O(n K + K²); allocates the centred series and K² coefficients.
    public static func fit(_ x: Span<Double>) -> YuleWalkerFit? {
        let n = x.count
        guard n >= 2 else { return nil }
        for i in x.indices where !x[i].isFinite { return nil }
        // ar.yw: x - colMeans(x); acf: the same again.
        let mean1 = columnMean(x)
        var centred = [Double](repeating: 0, count: n)
        for i in 0..<n { centred[i] = x[i] - mean1 }
        let mean2 = columnMean(centred.span)
        for i in 0..<n { centred[i] -= mean2 }
        // ⌊10 log₁₀ n⌋ is an integral value in [3, 190] for 2 ≤ n ≤ Int.max.
        guard let tenLog = Int(exactly: (10 * Double.log10(Double(n))).rounded(.down)) else { return nil }
        let maxOrder = Swift.min(n - 1, tenLog)
        guard maxOrder >= 1 else { return nil }
        var r = [Double](repeating: 0, count: maxOrder + 1)
        for lag in 0...maxOrder {
            var s = 0.0
            for i in 0..<(n - lag) { s += centred[i + lag] * centred[i] }
            r[lag] = s / Double(n)
        }
        guard r[0] != 0 else { return nil }
        let (coefs, vars) = levinsonDurbin(r, maxOrder: maxOrder)
        var variances = [r[0]]
        variances.append(contentsOf: vars)
        let dn = Double(n)
        var aic = [Double](repeating: 0, count: maxOrder + 1)
        for p in 0...maxOrder { aic[p] = dn * Double.log(variances[p]) + 2 * Double(p) + 2 }
        guard !aic.contains(where: { $0.isNaN }), let minimum = aic.min() else { return nil }
        for p in aic.indices { aic[p] -= minimum }
        guard let order = aic.firstIndex(of: 0) else { return nil }
        let coefficients = order == 0 ? [] : Array(coefs[order - 1][0..<order])
        let variance = variances[order] * dn / (dn - Double(order + 1))
        return YuleWalkerFit(
            order: order, coefficients: coefficients, predictionVariance: variance, maximumOrder: maxOrder,
            aic: aic, mean: mean1)
    }

    /// Fits the model to `x`; see ``fit(_:)-(Span<Double>)``.
    public static func fit(_ x: [Double]) -> YuleWalkerFit? { fit(x.span) }

    /// R's `seq.int(0, 0.5, length.out = count)`: k · (0.5 / (count − 1)) for k < count − 1, and exactly 0.5 last.
    ///
    /// - Parameter count: Number of frequencies, ≥ 0.
    /// - Returns: The frequencies, in cycles per sample.
    public static func frequencies(count: Int) -> [Double] {
        guard count > 0 else { return [] }
        guard count > 1 else { return [0] }
        let by = 0.5 / Double(count - 1)
        var f = [Double](repeating: 0, count: count)
        for k in 1..<(count - 1) { f[k] = Double(k) * by }
        f[count - 1] = 0.5
        return f
    }

    /// The AR spectral density at ``frequencies(count:)``, as R's `spec.ar(x, n.freq = count)$spec`.
    ///
    /// - Parameter count: Number of frequencies (R's `n.freq`; mhealthtools uses 500).
    /// - Returns: σ² / ((1 − Σ φₖ cos 2πfk)² + (Σ φₖ sin 2πfk)²) per frequency, in the series' units squared per
    ///   (cycle/sample).
    /// - Complexity: O(count · p).
    public func spectrum(count: Int) -> [Double] {
        let f = Self.frequencies(count: count)
        guard order >= 1 else { return f.map { _ in predictionVariance } }
        return f.map { frequency in
            var cs = 0.0, sn = 0.0
            for k in 1...order {
                let angle = 2 * Double.pi * frequency * Double(k)
                cs += Double.cos(angle) * coefficients[k - 1]
                sn += Double.sin(angle) * coefficients[k - 1]
            }
            let a = 1 - cs
            return predictionVariance / (a * a + sn * sn)
        }
    }

    /// R `colMeans` of one column: a `long double` sum divided by n, rounded to `double`.
    static func columnMean(_ x: Span<Double>) -> Double {
        var sum: LongDouble = 0
        for i in x.indices { sum += LongDouble(x[i]) }
        return Double(sum / LongDouble(x.count))
    }

    /// The Levinson–Durbin recursion of R's Fortran `eureka(lr, r, g, f, var, a)` with g = r: the coefficients of
    /// every order (row p − 1 holds φ₁…φₚ of order p) and the innovation variances σ²₁…σ²ₖ.
    static func levinsonDurbin(_ r: [Double], maxOrder lr: Int) -> (coefficients: [[Double]], variances: [Double]) {
        // 1-based working arrays, as in the Fortran.
        var f = [[Double]](repeating: [Double](repeating: 0, count: lr + 1), count: lr + 1)
        var a = [Double](repeating: 0, count: lr + 1)
        var variances = [Double](repeating: 0, count: lr + 1)
        func R(_ i: Int) -> Double { r[i - 1] }
        var v = R(1)
        var d = R(2)
        a[1] = 1
        f[1][1] = R(2) / v
        var q = f[1][1] * R(2)
        variances[1] = (1 - f[1][1] * f[1][1]) * R(1)
        if lr > 1 {
            for l in 2...lr {
                a[l] = -d / v
                if l > 2 {
                    let l1 = (l - 2) / 2
                    let l2 = l1 + 1
                    if l2 >= 2 {
                        for j in 2...l2 {
                            let hold = a[j]
                            let k = l - j + 1
                            a[j] = a[j] + a[l] * a[k]
                            a[k] = a[k] + a[l] * hold
                        }
                    }
                    if 2 * l1 != l - 2 { a[l2 + 1] = a[l2 + 1] * (1 + a[l]) }
                }
                v = v + a[l] * d
                f[l][l] = (R(l + 1) - q) / v
                for j in 1..<l { f[l][j] = f[l - 1][j] + f[l][l] * a[l - j + 1] }
                variances[l] = variances[l - 1] * (1 - f[l][l] * f[l][l])
                if l == lr { break }
                d = 0
                q = 0
                for i in 1...l {
                    let k = l - i + 2
                    d = d + a[i] * R(k)
                    q = q + f[l][i] * R(k)
                }
            }
        }
        let coefficients = (1...lr).map { p in Array(f[p][1...p]) }
        return (coefficients, Array(variances[1...lr]))
    }
}
