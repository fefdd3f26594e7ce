// Serial and bivariate statistics with R / mhealthtools semantics: acf, mean TKEO, Pearson correlation.

extension RStatistics {
    /// How a correlation treats pairs with a NaN, as R's `cor(x, y, use = …)`.
    public enum MissingPairs: Sendable, Hashable {
        /// `use = "everything"` (R's default): any NaN makes the result NaN. R computes two-pass means and divides
        /// the covariance by the two standard deviations (`cov.c`, `cov_na_2`).
        case propagate
        /// `use = "pairwise.complete.obs"` (mhealthtools' `corXY` uses `use = "p"`): pairs where either value is
        /// NaN are dropped. R computes one-pass `long double` means here (`cov.c`, `COV_PAIRWISE_BODY`), so the
        /// last bits can differ from `.propagate` even without NaNs.
        case pairwiseComplete
    }

    /// Returns the sample autocorrelations at lags 0…`maxLag`, as R's `acf(x, lag.max = maxLag, plot = FALSE)$acf`.
    ///
    /// With x̄ the mean (R's `colMeans`, one `long double` pass) and dᵢ = xᵢ − x̄:
    /// c(k) = Σᵢ₌₁ⁿ⁻ᵏ dᵢ₊ₖ dᵢ / n (the biased estimator; each sum in `double`, in R's order) and
    /// r(k) = c(k) / (√c(0) · √c(0)), clamped to [−1, 1]. For n = 1, r(0) = 1.
    ///
    /// R truncates `lag.max` to n − 1, so its result is shorter for short series; here the result always has
    /// `maxLag + 1` elements and the lags R would not return are NaN. (mhealthtools indexes `ar2` as
    /// `acf(...)[[3]]`, which fails for n < 3 and then reports **all** of ar1/ar2 as NA; reproduce that in the
    /// feature code if needed.)
    ///
    /// - Parameters:
    ///   - x: The series.
    ///   - maxLag: The largest lag, ≥ 0 (a programmer error otherwise: `precondition`).
    /// - Returns: `maxLag + 1` autocorrelations (dimensionless), index = lag. All NaN for empty input or if any
    ///   sample is NaN (R's default `na.action = na.fail` stops); NaN from lag 0 on for a constant series.
    /// - Complexity: O(n · maxLag); allocates the result and one demeaned copy of `x`.
    public static func autocorrelation(_ x: Span<Double>, maxLag: Int) -> [Double] {
        precondition(maxLag >= 0, "autocorrelation: maxLag \(maxLag) must be at least 0")
        var result = [Double](repeating: .nan, count: maxLag + 1)
        let n = x.count
        guard n > 0, !containsNaN(x) else { return result }
        if n == 1 {
            result[0] = 1
            return result
        }
        var sum: LongDouble = 0
        for i in x.indices { sum += LongDouble(x[i]) }
        let center = Double(sum / LongDouble(n))
        let d = [Double](unsafeUninitializedCapacity: n) { buffer, initialized in
            for i in x.indices { buffer[i] = x[i] - center }
            initialized = n
        }
        let lags = Swift.min(maxLag, n - 1)
        for lag in 0...lags {
            var s = 0.0
            for i in 0..<(n - lag) { s += d[i + lag] * d[i] }
            result[lag] = s / Double(n)
        }
        let se = result[0].squareRoot()
        for lag in 0...lags {
            let a = result[lag] / (se * se)
            result[lag] = a > 1 ? 1 : (a < -1 ? -1 : a)
        }
        return result
    }

    /// Returns the mean Teager–Kaiser energy as mhealthtools' `mean_tkeo(x)` computes it.
    ///
    /// After dropping NaN samples (`x[!is.na(x)]`): ψᵢ = xᵢ² − xᵢ₊₁·xᵢ₋₁ for i = 2…n−1 (1-based; seewave's `TKEO` with
    /// f = m = M = 1), then R's `mean` of the ψᵢ that are not NaN (`mean(y, na.rm = TRUE)`).
    ///
    /// - Parameter x: The series.
    /// - Returns: The mean energy, in squared sample units; NaN when fewer than three non-NaN samples remain
    ///   (mhealthtools gives NaN for n = 1 or 2 and fails for n = 0).
    /// - Complexity: O(n); allocates one array of n − 2 energies (plus the NaN-free copy if `x` contains NaN).
    public static func meanTKEO(_ x: Span<Double>) -> Double {
        withoutNaN(x) { clean in
            let n = clean.count
            guard n >= 3 else { return .nan }
            var energies: [Double] = []
            energies.reserveCapacity(n - 2)
            for i in 1..<(n - 1) {
                let psi = clean[i] * clean[i] - clean[i + 1] * clean[i - 1]
                if !psi.isNaN { energies.append(psi) }
            }
            return mean(energies.span)
        }
    }

    /// Returns Pearson's correlation coefficient r as R's `cor(x, y, use:)` computes it.
    ///
    /// r = Σ (xᵢ − x̄)(yᵢ − ȳ) / √(Σ (xᵢ − x̄)² · Σ (yᵢ − ȳ)²), evaluated in R's order and precision for the chosen
    /// ``MissingPairs`` policy, and clamped to [−1, 1].
    ///
    /// - Parameters:
    ///   - x: The first variable.
    ///   - y: The second variable; must have the same count as `x` (a programmer error otherwise: `precondition`;
    ///     R stops with "incompatible dimensions").
    ///   - missing: `.propagate` (R's default `use = "everything"`) or `.pairwiseComplete` (`use = "p"`, as
    ///     mhealthtools' `corXY`).
    /// - Returns: r (dimensionless); NaN with fewer than two (complete) pairs, when either variable has zero
    ///   variance (R warns "the standard deviation is zero" and returns NA), or on a NaN under `.propagate`.
    /// - Complexity: O(n), scalar, no allocation.
    public static func correlation(_ x: Span<Double>, _ y: Span<Double>, missing: MissingPairs = .propagate) -> Double {
        precondition(x.count == y.count, "correlation: x has \(x.count) elements but y has \(y.count)")
        switch missing {
        case .propagate: return correlationPropagatingNaN(x, y)
        case .pairwiseComplete: return correlationPairwiseComplete(x, y)
        }
    }

    // MARK: Internals

    /// `cov.c`, `cov_na_2` with `cor = TRUE`.
    private static func correlationPropagatingNaN(_ x: Span<Double>, _ y: Span<Double>) -> Double {
        let n = x.count
        guard n > 1, !containsNaN(x), !containsNaN(y) else { return .nan }
        let xm = LongDouble(covarianceMean(x)), ym = LongDouble(covarianceMean(y))
        let n1 = LongDouble(n - 1)
        var sum: LongDouble = 0, xss: LongDouble = 0, yss: LongDouble = 0
        for k in x.indices {
            let dx = LongDouble(x[k]) - xm, dy = LongDouble(y[k]) - ym
            sum += dx * dy
            xss += dx * dx
            yss += dy * dy
        }
        let covariance = Double(sum / n1)
        let xsd = Double((xss / n1).squareRoot()), ysd = Double((yss / n1).squareRoot())
        guard xsd != 0, ysd != 0 else { return .nan }
        let r = covariance / (xsd * ysd)
        return r >= 1 ? 1 : (r <= -1 ? -1 : r)
    }

    /// `cov.c`, `COV_PAIRWISE_BODY` with `cor = TRUE`, `kendall = FALSE`.
    private static func correlationPairwiseComplete(_ x: Span<Double>, _ y: Span<Double>) -> Double {
        var count = 0
        var xmean: LongDouble = 0, ymean: LongDouble = 0
        for k in x.indices where !(x[k].isNaN || y[k].isNaN) {
            count += 1
            xmean += LongDouble(x[k])
            ymean += LongDouble(y[k])
        }
        guard count >= 2 else { return .nan }
        xmean /= LongDouble(count)
        ymean /= LongDouble(count)
        var sum: LongDouble = 0, xsd: LongDouble = 0, ysd: LongDouble = 0
        for k in x.indices where !(x[k].isNaN || y[k].isNaN) {
            let xm = LongDouble(x[k]) - xmean, ym = LongDouble(y[k]) - ymean
            sum += xm * ym
            xsd += xm * xm
            ysd += ym * ym
        }
        guard xsd != 0, ysd != 0 else { return .nan }
        let n1 = LongDouble(count - 1)
        xsd /= n1
        ysd /= n1
        sum /= n1
        sum /= xsd.squareRoot() * ysd.squareRoot()
        sum = sum >= 1 ? 1 : (sum <= -1 ? -1 : sum)
        return Double(sum)
    }
}

// MARK: - Array conveniences (series)

extension RStatistics {
    /// Returns R's `acf(x, lag.max = maxLag)$acf`; see ``autocorrelation(_:maxLag:)-(Span<Double>,_)``.
    public static func autocorrelation(_ x: [Double], maxLag: Int) -> [Double] {
        autocorrelation(x.span, maxLag: maxLag)
    }
    /// Returns mhealthtools' `mean_tkeo(x)`; see ``meanTKEO(_:)-(Span<Double>)``.
    public static func meanTKEO(_ x: [Double]) -> Double { meanTKEO(x.span) }
    /// Returns R's `cor(x, y, use:)`; see ``correlation(_:_:missing:)-(Span<Double>,Span<Double>,_)``.
    public static func correlation(_ x: [Double], _ y: [Double], missing: MissingPairs = .propagate) -> Double {
        correlation(x.span, y.span, missing: missing)
    }
}
