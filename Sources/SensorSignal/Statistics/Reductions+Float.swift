// `Float` overloads of the reductions. Sums widen each `SIMD8<Float>` load to two `SIMD4<Double>` lanes and accumulate
// in `Double`, so precision holds for many millions of samples; the result is rounded to `Float` once. Extrema stay in
// `Float` lanes (they are exact).

extension Reductions {
    /// Returns the sum of the samples, Σ xᵢ, accumulated in `Double` and rounded to `Float` once.
    ///
    /// - Parameter x: The samples.
    /// - Returns: The sum, in the samples' units; `0` for empty input.
    /// - Complexity: O(n), one pass, no allocation.
    public static func sum(_ x: Span<Float>) -> Float {
        Float(wideSum(x))
    }

    /// Returns the sum of squares, Σ xᵢ², accumulated in `Double` and rounded to `Float` once.
    ///
    /// Each square of a widened `Float` is exact in `Double`, so only the additions round.
    ///
    /// - Parameter x: The samples.
    /// - Returns: The sum of squares, in squared sample units; `0` for empty input.
    /// - Complexity: O(n), one pass, no allocation.
    public static func sumOfSquares(_ x: Span<Float>) -> Float {
        let raw = x.bytes
        let n = x.count
        var a0 = SIMD4<Double>(), a1 = a0, a2 = a0, a3 = a0
        var i = 0
        while i &+ 16 <= n {
            let u = raw.loadFloat8(at: i), v = raw.loadFloat8(at: i &+ 8)
            let u0 = SIMD4<Double>(u.lowHalf), u1 = SIMD4<Double>(u.highHalf)
            let v0 = SIMD4<Double>(v.lowHalf), v1 = SIMD4<Double>(v.highHalf)
            a0 += u0 * u0
            a1 += u1 * u1
            a2 += v0 * v0
            a3 += v1 * v1
            i &+= 16
        }
        var s = ((a0 + a1) + (a2 + a3)).sum()
        while i < n {
            let v = Double(x[i])
            s += v * v
            i &+= 1
        }
        return Float(s)
    }

    /// Returns the dot product, Σ xᵢ·yᵢ, accumulated in `Double` and rounded to `Float` once.
    ///
    /// - Parameters:
    ///   - x: The first vector.
    ///   - y: The second vector; must have the same count as `x` (a programmer error otherwise: `precondition`).
    /// - Returns: The dot product; `0` for empty input.
    /// - Complexity: O(n), one pass, no allocation.
    public static func dot(_ x: Span<Float>, _ y: Span<Float>) -> Float {
        precondition(x.count == y.count, "dot: x has \(x.count) elements but y has \(y.count)")
        let rx = x.bytes, ry = y.bytes
        let n = x.count
        var a0 = SIMD4<Double>(), a1 = a0, a2 = a0, a3 = a0
        var i = 0
        while i &+ 16 <= n {
            let u = rx.loadFloat8(at: i), v = ry.loadFloat8(at: i)
            let p = rx.loadFloat8(at: i &+ 8), q = ry.loadFloat8(at: i &+ 8)
            a0 += SIMD4<Double>(u.lowHalf) * SIMD4<Double>(v.lowHalf)
            a1 += SIMD4<Double>(u.highHalf) * SIMD4<Double>(v.highHalf)
            a2 += SIMD4<Double>(p.lowHalf) * SIMD4<Double>(q.lowHalf)
            a3 += SIMD4<Double>(p.highHalf) * SIMD4<Double>(q.highHalf)
            i &+= 16
        }
        var s = ((a0 + a1) + (a2 + a3)).sum()
        while i < n {
            s += Double(x[i]) * Double(y[i])
            i &+= 1
        }
        return Float(s)
    }

    /// Returns the smallest sample, or NaN if any sample is NaN.
    ///
    /// - Parameter x: The samples.
    /// - Returns: min xᵢ; NaN for empty input or when any sample is NaN.
    /// - Complexity: O(n), one pass, no allocation.
    public static func min(_ x: Span<Float>) -> Float {
        extremum(x, smallest: true)
    }

    /// Returns the largest sample, or NaN if any sample is NaN.
    ///
    /// - Parameter x: The samples.
    /// - Returns: max xᵢ; NaN for empty input or when any sample is NaN.
    /// - Complexity: O(n), one pass, no allocation.
    public static func max(_ x: Span<Float>) -> Float {
        extremum(x, smallest: false)
    }

    /// Returns the index of the first smallest sample (of the first NaN, if there is one).
    ///
    /// - Parameter x: The samples.
    /// - Returns: The zero-based index, or `nil` for empty input.
    /// - Complexity: O(n): one SIMD pass, then a scan that stops at the first match; no allocation.
    public static func argmin(_ x: Span<Float>) -> Int? {
        firstIndex(of: extremum(x, smallest: true), in: x)
    }

    /// Returns the index of the first largest sample (of the first NaN, if there is one).
    ///
    /// - Parameter x: The samples.
    /// - Returns: The zero-based index, or `nil` for empty input.
    /// - Complexity: O(n): one SIMD pass, then a scan that stops at the first match; no allocation.
    public static func argmax(_ x: Span<Float>) -> Int? {
        firstIndex(of: extremum(x, smallest: false), in: x)
    }

    /// Returns the arithmetic mean, Σ xᵢ / n, computed in `Double` and rounded to `Float` once.
    ///
    /// - Parameter x: The samples.
    /// - Returns: The mean in the samples' units; NaN for empty input.
    /// - Complexity: O(n), one pass, no allocation.
    public static func mean(_ x: Span<Float>) -> Float {
        x.isEmpty ? .nan : Float(wideSum(x) / Double(x.count))
    }

    /// Returns the variance, Σ (xᵢ − x̄)² / d with d = n or n − 1, computed in `Double` and rounded to `Float` once.
    ///
    /// The same corrected two-pass algorithm as the `Double` overload, on samples widened to `Double`.
    ///
    /// - Parameters:
    ///   - x: The samples.
    ///   - estimator: `.sample` (n − 1, default) or `.population` (n).
    /// - Returns: The variance in squared sample units; NaN for empty input, and for a single sample with `.sample`.
    /// - Complexity: O(n), two passes, no allocation.
    public static func variance(_ x: Span<Float>, estimator: VarianceEstimator = .sample) -> Float {
        Float(wideVariance(x, estimator: estimator))
    }

    /// Returns the standard deviation, the square root of the variance, computed in `Double`.
    ///
    /// - Parameters:
    ///   - x: The samples.
    ///   - estimator: `.sample` (n − 1, default) or `.population` (n).
    /// - Returns: The standard deviation in the samples' units; NaN where the variance is NaN.
    /// - Complexity: O(n), two passes, no allocation.
    public static func standardDeviation(_ x: Span<Float>, estimator: VarianceEstimator = .sample) -> Float {
        Float(wideVariance(x, estimator: estimator).squareRoot())
    }

    // MARK: Internals

    private static func wideSum(_ x: Span<Float>) -> Double {
        let raw = x.bytes
        let n = x.count
        var a0 = SIMD4<Double>(), a1 = a0, a2 = a0, a3 = a0
        var i = 0
        while i &+ 16 <= n {
            let u = raw.loadFloat8(at: i), v = raw.loadFloat8(at: i &+ 8)
            a0 += SIMD4<Double>(u.lowHalf)
            a1 += SIMD4<Double>(u.highHalf)
            a2 += SIMD4<Double>(v.lowHalf)
            a3 += SIMD4<Double>(v.highHalf)
            i &+= 16
        }
        var s = ((a0 + a1) + (a2 + a3)).sum()
        while i < n {
            s += Double(x[i])
            i &+= 1
        }
        return s
    }

    private static func wideVariance(_ x: Span<Float>, estimator: VarianceEstimator) -> Double {
        let n = x.count
        let denominator = estimator == .sample ? n - 1 : n
        guard n > 0, denominator > 0 else { return .nan }
        let mean = wideSum(x) / Double(n)
        let m = SIMD4<Double>(repeating: mean)
        let raw = x.bytes
        var q0 = SIMD4<Double>(), q1 = q0, d0 = q0, d1 = q0
        var i = 0
        while i &+ 8 <= n {
            let v = raw.loadFloat8(at: i)
            let e0 = SIMD4<Double>(v.lowHalf) - m, e1 = SIMD4<Double>(v.highHalf) - m
            q0 += e0 * e0
            q1 += e1 * e1
            d0 += e0
            d1 += e1
            i &+= 8
        }
        var squares = (q0 + q1).sum(), deviations = (d0 + d1).sum()
        while i < n {
            let e = Double(x[i]) - mean
            squares += e * e
            deviations += e
            i &+= 1
        }
        let sumOfSquaredDeviations = squares - deviations * deviations / Double(n)
        return sumOfSquaredDeviations < 0 ? 0 : sumOfSquaredDeviations / Double(denominator)
    }

    // Always inlined so that `smallest` is a constant and the loop has no branch on it (3× faster).
    @inline(__always)
    private static func extremum(_ x: Span<Float>, smallest: Bool) -> Float {
        let n = x.count
        guard n > 0 else { return .nan }
        let raw = x.bytes
        var best0 = SIMD8<Float>(repeating: smallest ? .infinity : -.infinity), best1 = best0
        var nan0 = SIMDMask<SIMD8<Int32>>(repeating: false), nan1 = nan0
        var i = 0
        while i &+ 16 <= n {
            let v0 = raw.loadFloat8(at: i), v1 = raw.loadFloat8(at: i &+ 8)
            if smallest {
                best0.replace(with: v0, where: v0 .< best0)
                best1.replace(with: v1, where: v1 .< best1)
            } else {
                best0.replace(with: v0, where: v0 .> best0)
                best1.replace(with: v1, where: v1 .> best1)
            }
            nan0 .|= v0 .!= v0
            nan1 .|= v1 .!= v1
            i &+= 16
        }
        if any(nan0 .| nan1) { return .nan }
        var best = smallest ? Swift.min(best0.min(), best1.min()) : Swift.max(best0.max(), best1.max())
        while i < n {
            let v = x[i]
            if v.isNaN { return .nan }
            if smallest ? v < best : v > best { best = v }
            i &+= 1
        }
        return best
    }

    private static func firstIndex(of target: Float, in x: Span<Float>) -> Int? {
        if target.isNaN {  // rare: a plain scan for the first NaN
            for i in x.indices where x[i].isNaN { return i }
            return nil
        }
        let raw = x.bytes
        let n = x.count
        let t = SIMD8<Float>(repeating: target)
        var i = 0
        // Skip whole blocks of 32 that cannot contain the target, then finish with scalars.
        while i &+ 32 <= n {
            let v0 = raw.loadFloat8(at: i), v1 = raw.loadFloat8(at: i &+ 8)
            let v2 = raw.loadFloat8(at: i &+ 16), v3 = raw.loadFloat8(at: i &+ 24)
            if any((v0 .== t) .| (v1 .== t) .| (v2 .== t) .| (v3 .== t)) { break }
            i &+= 32
        }
        while i < n {
            if x[i] == target { return i }
            i &+= 1
        }
        return nil  // only for empty input: the extremum is one of the samples
    }
}

// MARK: - Array conveniences (Float)

extension Reductions {
    /// Returns Σ xᵢ accumulated in `Double`; see ``sum(_:)-(Span<Float>)``.
    public static func sum(_ x: [Float]) -> Float { sum(x.span) }
    /// Returns Σ xᵢ² accumulated in `Double`; see ``sumOfSquares(_:)-(Span<Float>)``.
    public static func sumOfSquares(_ x: [Float]) -> Float { sumOfSquares(x.span) }
    /// Returns Σ xᵢ·yᵢ accumulated in `Double`; see ``dot(_:_:)-(Span<Float>,Span<Float>)``.
    public static func dot(_ x: [Float], _ y: [Float]) -> Float { dot(x.span, y.span) }
    /// Returns min xᵢ (NaN if empty or any NaN); see ``min(_:)-(Span<Float>)``.
    public static func min(_ x: [Float]) -> Float { min(x.span) }
    /// Returns max xᵢ (NaN if empty or any NaN); see ``max(_:)-(Span<Float>)``.
    public static func max(_ x: [Float]) -> Float { max(x.span) }
    /// Returns the index of the first minimum; see ``argmin(_:)-(Span<Float>)``.
    public static func argmin(_ x: [Float]) -> Int? { argmin(x.span) }
    /// Returns the index of the first maximum; see ``argmax(_:)-(Span<Float>)``.
    public static func argmax(_ x: [Float]) -> Int? { argmax(x.span) }
    /// Returns Σ xᵢ / n computed in `Double`; see ``mean(_:)-(Span<Float>)``.
    public static func mean(_ x: [Float]) -> Float { mean(x.span) }
    /// Returns the variance computed in `Double`; see ``variance(_:estimator:)-(Span<Float>,_)``.
    public static func variance(_ x: [Float], estimator: VarianceEstimator = .sample) -> Float {
        variance(x.span, estimator: estimator)
    }
    /// Returns the standard deviation computed in `Double`; see ``standardDeviation(_:estimator:)-(Span<Float>,_)``.
    public static func standardDeviation(_ x: [Float], estimator: VarianceEstimator = .sample) -> Float {
        standardDeviation(x.span, estimator: estimator)
    }
}
