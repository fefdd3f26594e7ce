// R's `cumsum` and detrended fluctuation analysis as the R package `fractal` (2.0-4) computes it.
internal import RealModule

extension RStatistics {
    /// Returns the running sums as R's `cumsum(x)` computes them.
    ///
    /// R (`cum.c`, `rcumsum`) accumulates in `long double` and rounds each partial sum to `double`:
    /// yₖ = Σᵢ₌₁ᵏ xᵢ. A NaN stays in every later sum.
    ///
    /// - Parameter x: The samples.
    /// - Returns: n running sums, in the samples' units.
    /// - Complexity: O(n); allocates the result.
    public static func cumulativeSum(_ x: Span<Double>) -> [Double] {
        [Double](unsafeUninitializedCapacity: x.count) { buffer, initialized in
            var sum: LongDouble = 0
            for i in x.indices {
                sum += LongDouble(x[i])
                buffer[i] = Double(sum)
            }
            initialized = x.count
        }
    }

    /// Returns R's `cumsum(x)`; see ``cumulativeSum(_:)-(Span<Double>)``.
    public static func cumulativeSum(_ x: [Double]) -> [Double] { cumulativeSum(x.span) }

    /// Returns the detrended-fluctuation-analysis (DFA) scaling exponent as `fractal::DFA(x, sum.order:)$[[1]]`
    /// (fractal 2.0-4, every other argument at its default) computes it, the `dfaTapInter` feature of the 2016
    /// mPower tapping code.
    ///
    /// The steps, in fractal's order:
    /// 1. Apply R's ``cumulativeSum(_:)-(Span<Double>)`` `sumOrder` times (the profile); N is the length.
    /// 2. Block sizes: fractal's `logScale(4, ⌊N/2⌋, ratio 2)`: k = ⌈ln(⌊N/2⌋/4) / ln 2⌉ sizes 4, 8, …, 4·2ᵏ⁻¹,
    ///    truncated to integers, duplicates and sizes ≤ 1 removed. The minimum 4 = 2·(order + 1) belongs to the
    ///    default `detrend = "poly1"`; fewer than two sizes (⌊N/2⌋ ≤ 8, i.e. N < 18) make fractal stop with an
    ///    error, reported here as NaN.
    /// 3. For each size s, the profile is cut into ⌊N/s⌋ consecutive non-overlapping blocks from the start (a
    ///    remainder shorter than s is ignored); each block contributes Σ (yᵢ − ȳ_block)², with R's `mean` and
    ///    `sum`. F(s) = √(Σ blocks / (blocks · s)), the root-mean-square fluctuation.
    ///
    ///    **fractal removes only each block's mean, not a fitted line**, although its default is called
    ///    `"poly1"`: its regression helper tests the order of the formula `x ~ 1` instead of the model it was given
    ///    (`regression.poly` in `R/fra_hurst.R`), so the linear branch never runs. This function reproduces that
    ///    (it is what every published `dfaTapInter` value was computed with).
    /// 4. The exponent is the slope of the weighted least-squares line of ln F(s) on ln s (R's `lm` with weights
    ///    1, 1/2, 1/3, … from the smallest size up).
    ///
    /// - Parameters:
    ///   - x: The series (for `dfaTapInter`, the inter-tap intervals in s; the exponent is dimensionless).
    ///   - sumOrder: How many times to cumulatively sum first; mPower uses 1. Must be ≥ 0 (a programmer error
    ///     otherwise: `precondition`).
    /// - Returns: The exponent α (≈ 0.5 for white noise after one summation, ≈ 1.5 for a random walk); NaN when
    ///   fractal stops or R's `lm` fails: N < 18, any NaN sample, or a zero fluctuation at some size (a block-wise
    ///   constant profile, where ln F = −∞).
    /// - Complexity: O(n log n); allocates the profile and two arrays of about log₂ n values.
    public static func detrendedFluctuationExponent(_ x: Span<Double>, sumOrder: Int = 1) -> Double {
        precondition(sumOrder >= 0, "detrendedFluctuationExponent: sumOrder \(sumOrder) must be at least 0")
        guard !containsNaN(x) else { return .nan }
        var profile = [Double](unsafeUninitializedCapacity: x.count) { buffer, initialized in
            for i in x.indices { buffer[i] = x[i] }
            initialized = x.count
        }
        for _ in 0..<sumOrder { profile = cumulativeSum(profile.span) }
        let n = profile.count
        guard let sizes = dfaBlockSizes(seriesLength: n) else { return .nan }

        var logSizes: [Double] = []
        var logFluctuations: [Double] = []
        logSizes.reserveCapacity(sizes.count)
        logFluctuations.reserveCapacity(sizes.count)
        let span = profile.span
        for size in sizes {
            var total = 0.0
            var blocks = 0
            var start = 0
            while start + size <= n {
                let block = span.extracting(start..<(start + size))
                let m = mean(block)
                var squares: LongDouble = 0
                for i in block.indices {
                    let d = block[i] - m
                    squares += LongDouble(d * d)
                }
                total += rSum(squares)
                blocks += 1
                start += size
            }
            let fluctuation = (total / Double(blocks * size)).squareRoot()
            logSizes.append(Double.log(Double(size)))
            logFluctuations.append(Double.log(fluctuation))
        }
        for value in logFluctuations where !value.isFinite { return .nan }  // lm: "NA/NaN/Inf in 'y'"
        return weightedSlope(x: logSizes, y: logFluctuations)
    }

    /// Returns `fractal::DFA(x, sum.order:)`'s exponent; see ``detrendedFluctuationExponent(_:sumOrder:)-(Span<Double>,_)``.
    public static func detrendedFluctuationExponent(_ x: [Double], sumOrder: Int = 1) -> Double {
        detrendedFluctuationExponent(x.span, sumOrder: sumOrder)
    }

    // MARK: Internals

    /// fractal's block sizes for a profile of `seriesLength` values (`logScale(4, trunc(N/2), 2, coerce = trunc)`,
    /// then sizes > 1); nil where fractal stops with an error.
    static func dfaBlockSizes(seriesLength n: Int) -> [Int]? {
        let minimum = 4.0
        let maximum = Double(n / 2)
        guard minimum <= maximum else { return nil }  // "Scale minimum cannot exceed scale maximum"
        let count = (Double.log(maximum / minimum) / Double.log(2.0)).rounded(.up)
        // logScale fills scale[2…n.scale] with `for (i in seq(2, n.scale))`; with n.scale < 2 that loop runs
        // downwards to index 0 and R stops ("replacement has length zero").
        guard count >= 2 else { return nil }
        var sizes: [Int] = []
        var scale = minimum
        for _ in 0..<Int(count) {
            let size = Int(scale.rounded(.towardZero))
            if size > 1 && !sizes.contains(size) { sizes.append(size) }
            scale *= 2
        }
        return sizes
    }

    /// Slope of the weighted least-squares line y = a + b·x with weights 1/1, 1/2, 1/3, … (R's
    /// `lm(y ~ 1 + x, weights = 1 / seq_along(x))$coefficients["x"]`); NaN when x has no spread (R's `lm` reports
    /// an aliased, NA coefficient).
    static func weightedSlope(x: [Double], y: [Double]) -> Double {
        var sw = 0.0, swx = 0.0, swy = 0.0
        for i in x.indices {
            let w = 1 / Double(i + 1)
            sw += w
            swx += w * x[i]
            swy += w * y[i]
        }
        let mx = swx / sw, my = swy / sw
        var sxy = 0.0, sxx = 0.0
        for i in x.indices {
            let w = 1 / Double(i + 1)
            let dx = x[i] - mx
            sxy += w * dx * (y[i] - my)
            sxx += w * dx * dx
        }
        guard sxx > 0 else { return .nan }
        return sxy / sxx
    }
}
