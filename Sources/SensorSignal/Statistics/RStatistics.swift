internal import RealModule

/// Descriptive statistics that reproduce R 4.2 (`stats`, `e1071` 1.7) and mhealthtools results bit for bit.
///
/// These functions exist for parity with published R feature pipelines (mhealthtools' tapping features, mPower), so
/// each one follows the R source operation by operation rather than the fastest or most accurate algorithm:
/// - R's C code accumulates sums in `long double`. On x86-64 that is the 80-bit x87 format, which Swift exposes as
///   `Float80`, so on x86-64 the results here equal R's to the last bit (verified against R 4.2.2 on Debian 12 by the
///   generated reference tests). On other architectures the accumulators fall back to `Double`, which matches R
///   builds whose `long double` is `double` (macOS on Apple silicon) but may differ from Linux/aarch64 R in the
///   last bits.
/// - `x^3` and `x^4` go through the C library's `pow`, as R's `R_pow` does.
/// - The loops are scalar (x87 arithmetic cannot be vectorised). For fast statistics on long signals use
///   ``Reductions``.
///
/// **Missing values.** R's `NA` and `NaN` are both `Double.nan` here. Where R returns `NA`/`NaN`, or stops with an
/// error that mhealthtools turns into `NA`, these functions return `.nan`: empty input, the standard deviation of one
/// value, a zero variance in a correlation, NaN input to a function whose R default is `na.rm = FALSE`.
/// None of them traps on empty input.
public enum RStatistics {
    /// The sample skewness and kurtosis estimators of `e1071::skewness` / `e1071::kurtosis` (Joanes & Gill 1998).
    ///
    /// With mᵣ = Σ (xᵢ − x̄)ʳ / n the central moments and s the sample standard deviation (n − 1):
    public enum ShapeEstimator: Sendable, Hashable {
        /// e1071 `type = 1`, the population moments: g₁ = m₃ / m₂^(3/2), g₂ = m₄ / m₂² − 3.
        case population
        /// e1071 `type = 2`, the SAS/SPSS/Excel adjusted estimators:
        /// G₁ = g₁ √(n(n−1)) / (n−2) (needs n ≥ 3), G₂ = ((n+1) g₂ + 6)(n−1) / ((n−2)(n−3)) (needs n ≥ 4).
        case adjusted
        /// e1071 `type = 3`, the e1071 default and what mhealthtools reports: b₁ = m₃ / s³ = g₁ ((n−1)/n)^(3/2),
        /// b₂ = m₄ / s⁴ − 3 = (g₂ + 3)(1 − 1/n)² − 3.
        case sample
    }
}

// MARK: - Moments

extension RStatistics {
    /// Returns the arithmetic mean as R's `mean(x)` computes it.
    ///
    /// R sums in `long double`, divides by n, then adds the mean residual Σ (xᵢ − x̄)/n as a second-pass correction
    /// (`summary.c`, `real_mean`).
    ///
    /// - Parameter x: The samples.
    /// - Returns: x̄ in the samples' units; NaN for empty input or if any sample is NaN.
    /// - Complexity: O(n), two scalar passes, no allocation.
    public static func mean(_ x: Span<Double>) -> Double {
        let n = x.count
        let count = LongDouble(n)
        var s: LongDouble = 0
        for i in x.indices { s += LongDouble(x[i]) }
        let finiteSum = Double(s).isFinite
        if finiteSum {
            s /= count
        } else {  // the sum may just have overflowed: retry with smaller terms, as R does
            s = 0
            let nDouble = Double(n)
            for i in x.indices { s += LongDouble(x[i] / nDouble) }
        }
        if finiteSum && Double(s).isFinite {
            var t: LongDouble = 0
            for i in x.indices { t += LongDouble(x[i]) - s }
            s += t / count
        } else if Double(s).isFinite {
            var t: LongDouble = 0
            for i in x.indices { t += (LongDouble(x[i]) - s) / count }
            s += t
        }
        return Double(s)
    }

    /// Returns the sample variance as R's `var(x)` computes it, Σ (xᵢ − x̄)² / (n − 1).
    ///
    /// R (`cov.c`, `cov_na_1`) takes a two-pass `long double` mean, rounds it to `double`, then accumulates the
    /// squared deviations in `long double`.
    ///
    /// - Parameter x: The samples.
    /// - Returns: The variance in squared sample units; NaN when n < 2 or any sample is NaN.
    /// - Complexity: O(n), three scalar passes, no allocation.
    public static func variance(_ x: Span<Double>) -> Double {
        let n = x.count
        guard n > 1, !containsNaN(x) else { return .nan }
        let m = LongDouble(covarianceMean(x))
        var sum: LongDouble = 0
        for i in x.indices {
            let d = LongDouble(x[i]) - m
            sum += d * d
        }
        return Double(sum / LongDouble(n - 1))
    }

    /// Returns the sample standard deviation as R's `sd(x)` computes it, √`var(x)` (n − 1 denominator).
    ///
    /// - Parameter x: The samples.
    /// - Returns: s in the samples' units; NaN when n < 2 or any sample is NaN.
    /// - Complexity: O(n), no allocation.
    public static func standardDeviation(_ x: Span<Double>) -> Double {
        variance(x).squareRoot()
    }

    /// Returns the coefficient of variation in percent, as mhealthtools' `coef_var`: 100 · sd(x) / mean(x).
    ///
    /// Like `coef_var`, NaN samples are dropped first (`x[!is.na(x)]`), then R's `sd` and `mean` are applied.
    ///
    /// - Parameter x: The samples.
    /// - Returns: The coefficient of variation in percent (dimensionless); NaN when fewer than two non-NaN samples
    ///   remain, ±∞ when the mean is zero.
    /// - Complexity: O(n); allocates one array (the non-NaN samples) only when `x` contains NaN.
    public static func coefficientOfVariation(_ x: Span<Double>) -> Double {
        withoutNaN(x) { clean in (standardDeviation(clean) / mean(clean)) * 100 }
    }

    /// Returns the sample skewness as `e1071::skewness(x, type:)` computes it.
    ///
    /// With dᵢ = xᵢ − `mean(x)`: y = √n · Σdᵢ³ / (Σdᵢ²)^(3/2) (= g₁), then the ``ShapeEstimator`` adjustment
    /// (`.sample`: y · (1 − 1/n)^(3/2)). Sums are R `sum`s (`long double`).
    ///
    /// - Parameters:
    ///   - x: The samples.
    ///   - estimator: `.sample` (e1071 type 3, the default and the mhealthtools feature), `.population` (type 1) or
    ///     `.adjusted` (type 2).
    /// - Returns: The skewness (dimensionless); NaN for empty input, constant input, any NaN sample, or `.adjusted`
    ///   with n < 3 (where e1071 stops with an error).
    /// - Complexity: O(n), three scalar passes, no allocation.
    public static func skewness(_ x: Span<Double>, estimator: ShapeEstimator = .sample) -> Double {
        guard !containsNaN(x) else { return .nan }
        let n = Double(x.count)
        let m = mean(x)
        var sum2: LongDouble = 0, sum3: LongDouble = 0
        for i in x.indices {
            let d = x[i] - m
            sum2 += LongDouble(d * d)
            sum3 += LongDouble(rPow(d, 3))
        }
        let y = n.squareRoot() * rSum(sum3) / rPow(rSum(sum2), 1.5)
        switch estimator {
        case .population:
            return y
        case .adjusted:
            guard x.count >= 3 else { return .nan }
            return y * (n * (n - 1)).squareRoot() / (n - 2)
        case .sample:
            return y * rPow(1 - 1 / n, 1.5)
        }
    }

    /// Returns the sample excess kurtosis as `e1071::kurtosis(x, type:)` computes it.
    ///
    /// With dᵢ = xᵢ − `mean(x)`: r = n · Σdᵢ⁴ / (Σdᵢ²)² (= g₂ + 3), then per ``ShapeEstimator``:
    /// `.population` r − 3, `.adjusted` ((n+1)(r−3) + 6)(n−1) / ((n−2)(n−3)), `.sample` r (1 − 1/n)² − 3.
    ///
    /// - Parameters:
    ///   - x: The samples.
    ///   - estimator: `.sample` (e1071 type 3, the default and the mhealthtools feature), `.population` (type 1) or
    ///     `.adjusted` (type 2).
    /// - Returns: The excess kurtosis (dimensionless; 0 for a normal distribution); NaN for empty input, constant
    ///   input, any NaN sample, or `.adjusted` with n < 4.
    /// - Complexity: O(n), three scalar passes, no allocation.
    public static func kurtosis(_ x: Span<Double>, estimator: ShapeEstimator = .sample) -> Double {
        guard !containsNaN(x) else { return .nan }
        let n = Double(x.count)
        let m = mean(x)
        var sum2: LongDouble = 0, sum4: LongDouble = 0
        for i in x.indices {
            let d = x[i] - m
            sum2 += LongDouble(d * d)
            sum4 += LongDouble(rPow(d, 4))
        }
        let s2 = rSum(sum2)
        let r = n * rSum(sum4) / (s2 * s2)
        switch estimator {
        case .population:
            return r - 3
        case .adjusted:
            guard x.count >= 4 else { return .nan }
            return ((n + 1) * (r - 3) + 6) * (n - 1) / ((n - 2) * (n - 3))
        case .sample:
            let b = 1 - 1 / n
            return r * (b * b) - 3
        }
    }
}

// MARK: - Array conveniences (moments)

extension RStatistics {
    /// Returns R's `mean(x)`; see ``mean(_:)-(Span<Double>)``.
    public static func mean(_ x: [Double]) -> Double { mean(x.span) }
    /// Returns R's `var(x)`; see ``variance(_:)-(Span<Double>)``.
    public static func variance(_ x: [Double]) -> Double { variance(x.span) }
    /// Returns R's `sd(x)`; see ``standardDeviation(_:)-(Span<Double>)``.
    public static func standardDeviation(_ x: [Double]) -> Double { standardDeviation(x.span) }
    /// Returns mhealthtools' `coef_var(x)` in percent; see ``coefficientOfVariation(_:)-(Span<Double>)``.
    public static func coefficientOfVariation(_ x: [Double]) -> Double { coefficientOfVariation(x.span) }
    /// Returns `e1071::skewness(x, type:)`; see ``skewness(_:estimator:)-(Span<Double>,_)``.
    public static func skewness(_ x: [Double], estimator: ShapeEstimator = .sample) -> Double {
        skewness(x.span, estimator: estimator)
    }
    /// Returns `e1071::kurtosis(x, type:)`; see ``kurtosis(_:estimator:)-(Span<Double>,_)``.
    public static func kurtosis(_ x: [Double], estimator: ShapeEstimator = .sample) -> Double {
        kurtosis(x.span, estimator: estimator)
    }
}

// MARK: - R arithmetic primitives (internal)

#if arch(x86_64) || arch(i386)
    /// C `long double` as R's x86 builds use it for accumulators: the 80-bit x87 extended format.
    typealias LongDouble = Float80
#else
    /// C `long double` stand-in where Swift has no matching type (R on Apple silicon uses `double` itself).
    typealias LongDouble = Double
#endif

extension RStatistics {
    /// R's `x ^ y` for doubles (`arithmetic.c`, `R_POW`/`R_pow`): `x * x` for y = 2, special cases for 1, 0 and
    /// non-finite operands, and the C library's `pow` otherwise.
    static func rPow(_ x: Double, _ y: Double) -> Double {
        if y == 2 { return x * x }
        if x == 1 || y == 0 { return 1 }
        if x == 0 { return y > 0 ? 0 : (y < 0 ? .infinity : y) }
        if x.isFinite && y.isFinite {
            // RealModule's integer-exponent `pow` and its real one (for x > 0) both call the C library's pow(x, y).
            if let n = Int(exactly: y) { return Double.pow(x, n) }
            return x > 0 ? Double.pow(x, y) : .nan
        }
        if x.isNaN || y.isNaN { return x + y }
        if !x.isFinite {
            if x > 0 { return y < 0 ? 0 : .infinity }
            if y.isFinite && y == y.rounded(.down) {  // (-Inf)^n
                return y < 0 ? 0 : (y.truncatingRemainder(dividingBy: 2) != 0 ? x : -x)
            }
        }
        if !y.isFinite && x >= 0 {
            if y > 0 { return x >= 1 ? .infinity : 0 }
            return x < 1 ? .infinity : 0
        }
        return .nan
    }

    /// R's `sum()` result conversion (`summary.c`, `rsum`): a `long double` sum beyond ±DBL_MAX becomes ±∞.
    static func rSum(_ s: LongDouble) -> Double {
        if s > LongDouble(Double.greatestFiniteMagnitude) { return .infinity }
        if s < -LongDouble(Double.greatestFiniteMagnitude) { return -.infinity }
        return Double(s)
    }

    /// The two-pass mean of R's covariance code (`cov.c`, macro `MEAN_`), rounded to `double`.
    static func covarianceMean(_ x: Span<Double>) -> Double {
        let count = LongDouble(x.count)
        var sum: LongDouble = 0
        for i in x.indices { sum += LongDouble(x[i]) }
        var mean = sum / count
        if Double(mean).isFinite {
            sum = 0
            for i in x.indices { sum += LongDouble(x[i]) - mean }
            mean += sum / count
        }
        return Double(mean)
    }

    /// True if any sample is NaN (R's `anyNA` for doubles).
    static func containsNaN(_ x: Span<Double>) -> Bool {
        for i in x.indices where x[i].isNaN { return true }
        return false
    }

    /// Calls `body` with the samples minus their NaNs (R's `x[!is.na(x)]`); copies only when there is a NaN.
    static func withoutNaN<R>(_ x: Span<Double>, _ body: (Span<Double>) -> R) -> R {
        guard containsNaN(x) else { return body(x) }
        var kept: [Double] = []
        kept.reserveCapacity(x.count)
        for i in x.indices where !x[i].isNaN { kept.append(x[i]) }
        return body(kept.span)
    }
}
