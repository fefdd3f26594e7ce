// R's median, IQR, MAD, min and max of one series from a single sorted copy (the tapping features need all five).

extension RStatistics {
    /// The order statistics R's `median`, `IQR(type = 7)`, `mad`, `min` and `max` give for one series.
    public struct OrderSummary: Sendable, Hashable {
        /// R `median(x)`.
        public var median: Double
        /// R `IQR(x, type = 7)`.
        public var interquartileRange: Double
        /// R `mad(x)` with the default constant 1.4826.
        public var medianAbsoluteDeviation: Double
        /// R `min(x)`; +∞ for empty input.
        public var minimum: Double
        /// R `max(x)`; −∞ for empty input.
        public var maximum: Double
    }

    /// Returns ``OrderSummary`` for `x`, equal value for value to ``median(_:)-(Span<Double>)``,
    /// ``interquartileRange(_:)-(Span<Double>)``, ``medianAbsoluteDeviation(_:constant:)-(Span<Double>,_)`` and the
    /// extremes, but sorting once instead of three times.
    ///
    /// - Parameter x: The samples.
    /// - Returns: The summary in the samples' units; median, IQR and MAD NaN for empty input or if any sample is
    ///   NaN (R's `na.rm = FALSE`), the extremes ±∞ for empty input (as R's `min`/`max`, which warn) and NaN with a
    ///   NaN sample.
    /// - Complexity: O(n log n); allocates two arrays of n (the sorted samples and the sorted deviations).
    public static func orderSummary(_ x: Span<Double>) -> OrderSummary {
        guard !x.isEmpty else {
            return OrderSummary(
                median: .nan, interquartileRange: .nan, medianAbsoluteDeviation: .nan, minimum: .infinity,
                maximum: -.infinity)
        }
        guard !containsNaN(x) else {
            return OrderSummary(
                median: .nan, interquartileRange: .nan, medianAbsoluteDeviation: .nan, minimum: .nan, maximum: .nan)
        }
        var sorted = [Double](unsafeUninitializedCapacity: x.count) { buffer, initialized in
            for i in x.indices { buffer[i] = x[i] }
            initialized = x.count
        }
        sorted.sort()
        let center = sortedMedian(sorted)
        var deviations = [Double](unsafeUninitializedCapacity: sorted.count) { buffer, initialized in
            for i in sorted.indices { buffer[i] = (sorted[i] - center).magnitude }
            initialized = sorted.count
        }
        deviations.sort()
        return OrderSummary(
            median: center, interquartileRange: interquartileRange(ofSorted: sorted),
            medianAbsoluteDeviation: 1.4826 * sortedMedian(deviations), minimum: sorted[0],
            maximum: sorted[sorted.count - 1])
    }

    /// Returns R's order statistics of an array; see ``orderSummary(_:)-(Span<Double>)``.
    public static func orderSummary(_ x: [Double]) -> OrderSummary { orderSummary(x.span) }

    /// R's `median.default` of sorted, NaN-free, non-empty data: the middle value, or R's `mean` of the two.
    private static func sortedMedian(_ sorted: [Double]) -> Double {
        let n = sorted.count
        if n % 2 == 1 { return sorted[n / 2] }
        let middle: InlineArray<2, Double> = [sorted[n / 2 - 1], sorted[n / 2]]
        return mean(middle.span)
    }
}
