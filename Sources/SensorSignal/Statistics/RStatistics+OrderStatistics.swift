// Order statistics with R semantics: median, type-7 quantiles, IQR, MAD and range.

extension RStatistics {
    /// Returns the median as R's `median(x)` computes it.
    ///
    /// The middle order statistic for odd n; for even n the R `mean` of the two middle ones, which R evaluates in
    /// `long double` (so it can differ in the last bit from `quantile(x, 0.5)`, which uses (1 − h)·a + h·b).
    ///
    /// - Parameter x: The samples.
    /// - Returns: The median in the samples' units; NaN for empty input or if any sample is NaN (R's `na.rm = FALSE`).
    /// - Complexity: O(n) expected (selection, as R's partial sort), O(n log n) worst case; allocates one copy of `x`.
    public static func median(_ x: Span<Double>) -> Double {
        guard !x.isEmpty, !containsNaN(x) else { return .nan }
        var copy = [Double](unsafeUninitializedCapacity: x.count) { buffer, initialized in
            for i in x.indices { buffer[i] = x[i] }
            initialized = x.count
        }
        let (lower, upper) = Selection.middlePair(&copy)
        if x.count % 2 == 1 { return upper }
        let middle: InlineArray<2, Double> = [lower, upper]
        return mean(middle.span)
    }

    /// Returns one type-7 sample quantile, as R's `quantile(x, probs = p, type = 7)` (the R default).
    ///
    /// With h = 1 + (n − 1)·p, lo = ⌊h⌋, hi = ⌈h⌉ and x₍ₖ₎ the k-th smallest sample:
    /// Q(p) = x₍lo₎ if h = lo or x₍hi₎ = x₍lo₎, else (1 − (h − lo))·x₍lo₎ + (h − lo)·x₍hi₎, exactly as R writes it.
    ///
    /// - Parameters:
    ///   - x: The samples.
    ///   - probability: p in [0, 1]; R tolerates 100 ε outside and clamps. A value further outside is a programmer
    ///     error (`precondition`; R stops with "'probs' outside [0,1]"). A NaN probability gives NaN.
    /// - Returns: The quantile in the samples' units; NaN for empty input or if any sample is NaN.
    /// - Complexity: O(n log n); allocates one sorted copy of `x`.
    public static func quantile(_ x: Span<Double>, probability: Double) -> Double {
        let p = checkedProbability(probability)
        guard !x.isEmpty, !containsNaN(x) else { return .nan }
        return quantileOfSorted(sortedCopy(x), p)
    }

    /// Returns type-7 sample quantiles for several probabilities, sorting `x` once.
    ///
    /// Each element is ``quantile(_:probability:)-(Span<Double>,_)`` for the matching probability, as R's
    /// `quantile(x, probs, type = 7)`.
    ///
    /// - Parameters:
    ///   - x: The samples.
    ///   - probabilities: Values in [0, 1] (see ``quantile(_:probability:)-(Span<Double>,_)`` for the tolerance).
    /// - Returns: One quantile per probability, in the samples' units; all NaN for empty input or if any sample is
    ///   NaN.
    /// - Complexity: O(n log n + k); allocates the sorted copy and the result array.
    public static func quantiles(_ x: Span<Double>, probabilities: [Double]) -> [Double] {
        let ps = probabilities.map(checkedProbability)
        guard !x.isEmpty, !containsNaN(x) else { return ps.map { _ in .nan } }
        let sorted = sortedCopy(x)
        return ps.map { quantileOfSorted(sorted, $0) }
    }

    /// Returns the interquartile range as R's `IQR(x, type = 7)`: Q(0.75) − Q(0.25).
    ///
    /// - Parameter x: The samples.
    /// - Returns: The IQR in the samples' units; NaN for empty input or if any sample is NaN.
    /// - Complexity: O(n log n); allocates one sorted copy of `x`.
    public static func interquartileRange(_ x: Span<Double>) -> Double {
        guard !x.isEmpty, !containsNaN(x) else { return .nan }
        let sorted = sortedCopy(x)
        return quantileOfSorted(sorted, 0.75) - quantileOfSorted(sorted, 0.25)
    }

    /// Returns the scaled median absolute deviation as R's `mad(x)`: c · median(|xᵢ − median(x)|).
    ///
    /// - Parameters:
    ///   - x: The samples.
    ///   - constant: The scale factor c; R's default `1.4826` (≈ 1/Φ⁻¹(3/4), which makes the MAD a consistent
    ///     estimator of σ for normal data). mhealthtools' `madTapInter` uses the default.
    /// - Returns: The MAD in the samples' units; NaN for empty input or if any sample is NaN.
    /// - Complexity: O(n log n); allocates two arrays of n (sorted samples, sorted deviations).
    public static func medianAbsoluteDeviation(_ x: Span<Double>, constant: Double = 1.4826) -> Double {
        guard !x.isEmpty, !containsNaN(x) else { return .nan }
        let center = medianOfSorted(sortedCopy(x))
        var deviations = [Double](unsafeUninitializedCapacity: x.count) { buffer, initialized in
            for i in x.indices { buffer[i] = (x[i] - center).magnitude }
            initialized = x.count
        }
        deviations.sort()
        return constant * medianOfSorted(deviations)
    }

    /// Returns the range width as R's `diff(range(x))`: max(x) − min(x).
    ///
    /// - Parameter x: The samples.
    /// - Returns: The width in the samples' units; NaN if any sample is NaN; −∞ for empty input, as in R (where
    ///   `range(numeric(0))` is `c(Inf, -Inf)` with a warning).
    /// - Complexity: O(n), one pass, no allocation.
    public static func range(_ x: Span<Double>) -> Double {
        guard !x.isEmpty else { return -.infinity }
        return Reductions.max(x) - Reductions.min(x)
    }

    // MARK: Internals

    private static func sortedCopy(_ x: Span<Double>) -> [Double] {
        var copy = [Double](unsafeUninitializedCapacity: x.count) { buffer, initialized in
            for i in x.indices { buffer[i] = x[i] }
            initialized = x.count
        }
        copy.sort()
        return copy
    }

    /// R's `median.default` on sorted, NaN-free, non-empty data.
    private static func medianOfSorted(_ sorted: [Double]) -> Double {
        let n = sorted.count
        let half = (n + 1) / 2  // 1-based, as in R
        if n % 2 == 1 { return sorted[half - 1] }
        let middle: InlineArray<2, Double> = [sorted[half - 1], sorted[half]]
        return mean(middle.span)
    }

    /// R's `IQR(x, type = 7)` of sorted, NaN-free, non-empty data (what ``interquartileRange(_:)-(Span<Double>)``
    /// returns for the same values in any order).
    static func interquartileRange(ofSorted sorted: [Double]) -> Double {
        quantileOfSorted(sorted, 0.75) - quantileOfSorted(sorted, 0.25)
    }

    /// R's type-7 branch of `quantile.default` on sorted, NaN-free, non-empty data, for a clamped probability.
    private static func quantileOfSorted(_ sorted: [Double], _ p: Double) -> Double {
        guard !p.isNaN else { return .nan }
        let index = 1 + Double(Swift.max(sorted.count - 1, 0)) * p
        let lo = index.rounded(.down), hi = index.rounded(.up)
        let q = sorted[Int(lo) - 1]
        let upper = sorted[Int(hi) - 1]
        guard index > lo, upper != q else { return q }
        let h = index - lo
        return (1 - h) * q + h * upper
    }

    /// R's probability check: at most 100 ε outside [0, 1], then clamped; NaN passes through.
    private static func checkedProbability(_ p: Double) -> Double {
        let eps = 100 * Double.ulpOfOne
        precondition(p.isNaN || (p >= -eps && p <= 1 + eps), "quantile: probability \(p) is outside [0, 1]")
        return p.isNaN ? p : Swift.max(0, Swift.min(1, p))
    }
}

// MARK: - Array conveniences (order statistics)

extension RStatistics {
    /// Returns R's `median(x)`; see ``median(_:)-(Span<Double>)``.
    public static func median(_ x: [Double]) -> Double { median(x.span) }
    /// Returns R's `quantile(x, p, type = 7)`; see ``quantile(_:probability:)-(Span<Double>,_)``.
    public static func quantile(_ x: [Double], probability: Double) -> Double {
        quantile(x.span, probability: probability)
    }
    /// Returns R's `quantile(x, probs, type = 7)`; see ``quantiles(_:probabilities:)-(Span<Double>,_)``.
    public static func quantiles(_ x: [Double], probabilities: [Double]) -> [Double] {
        quantiles(x.span, probabilities: probabilities)
    }
    /// Returns R's `IQR(x, type = 7)`; see ``interquartileRange(_:)-(Span<Double>)``.
    public static func interquartileRange(_ x: [Double]) -> Double { interquartileRange(x.span) }
    /// Returns R's `mad(x, constant:)`; see ``medianAbsoluteDeviation(_:constant:)-(Span<Double>,_)``.
    public static func medianAbsoluteDeviation(_ x: [Double], constant: Double = 1.4826) -> Double {
        medianAbsoluteDeviation(x.span, constant: constant)
    }
    /// Returns R's `diff(range(x))`; see ``range(_:)-(Span<Double>)``.
    public static func range(_ x: [Double]) -> Double { range(x.span) }
}
