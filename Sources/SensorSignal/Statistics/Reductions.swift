/// Fast SIMD reductions over contiguous samples: sum, sum of squares, dot product, extrema, mean and variance.
///
/// Every function reads its input through a bounds-checked `Span` and accumulates in several independent
/// `SIMD4<Double>` partial sums (16 `Double`s, or 16 `Float`s widened to `Double`, per iteration) followed by a scalar
/// tail. None of them allocates. The summation order therefore differs from a left-to-right loop, so results can differ
/// from one in the last bits; use ``RStatistics`` when bit-for-bit agreement with R matters.
///
/// Conventions shared by all functions:
/// - **NaN** anywhere in the input makes the result NaN, as it would in a plain loop (for ``min(_:)-(Span<Double>)``
///   and ``max(_:)-(Span<Double>)`` too, unlike `Swift.min`, which ignores a NaN in its second argument).
/// - **Empty input** never traps: sums and sums of squares are `0`, the mean, extrema and variance are NaN,
///   and ``argmin(_:)-(Span<Double>)`` / ``argmax(_:)-(Span<Double>)`` are `nil`.
/// - **`Float` input** is widened to `Double` lane by lane before it is accumulated, and the result is rounded to
///   `Float` once at the end, so the sum of ten million `Float(0.1)` is the correctly rounded `1_000_000`.
public enum Reductions {
    /// The denominator of a variance.
    public enum VarianceEstimator: Sendable, Hashable {
        /// Divide by *n*: the variance of the samples as a complete population (NumPy's `ddof = 0`).
        case population
        /// Divide by *n* − 1: the unbiased sample variance (R's `var`, NumPy's `ddof = 1`).
        case sample
    }
}

// MARK: - Double

extension Reductions {
    /// Returns the sum of the samples, Σ xᵢ.
    ///
    /// - Parameter x: The samples.
    /// - Returns: The sum, in the samples' units; `0` for empty input.
    /// - Complexity: O(n), one pass, no allocation.
    public static func sum(_ x: Span<Double>) -> Double {
        let raw = x.bytes
        let n = x.count
        var a0 = SIMD4<Double>(), a1 = a0, a2 = a0, a3 = a0
        var i = 0
        while i &+ 16 <= n {
            a0 += raw.loadDouble4(at: i)
            a1 += raw.loadDouble4(at: i &+ 4)
            a2 += raw.loadDouble4(at: i &+ 8)
            a3 += raw.loadDouble4(at: i &+ 12)
            i &+= 16
        }
        while i &+ 4 <= n {
            a0 += raw.loadDouble4(at: i)
            i &+= 4
        }
        var s = ((a0 + a1) + (a2 + a3)).sum()
        while i < n {
            s += x[i]
            i &+= 1
        }
        return s
    }

    /// Returns the sum of squares of the samples, Σ xᵢ².
    ///
    /// - Parameter x: The samples.
    /// - Returns: The sum of squares, in squared sample units (the *energy*); `0` for empty input.
    /// - Complexity: O(n), one pass, no allocation.
    public static func sumOfSquares(_ x: Span<Double>) -> Double {
        let raw = x.bytes
        let n = x.count
        var a0 = SIMD4<Double>(), a1 = a0, a2 = a0, a3 = a0
        var i = 0
        while i &+ 16 <= n {
            let v0 = raw.loadDouble4(at: i), v1 = raw.loadDouble4(at: i &+ 4)
            let v2 = raw.loadDouble4(at: i &+ 8), v3 = raw.loadDouble4(at: i &+ 12)
            a0 += v0 * v0
            a1 += v1 * v1
            a2 += v2 * v2
            a3 += v3 * v3
            i &+= 16
        }
        while i &+ 4 <= n {
            let v = raw.loadDouble4(at: i)
            a0 += v * v
            i &+= 4
        }
        var s = ((a0 + a1) + (a2 + a3)).sum()
        while i < n {
            s += x[i] * x[i]
            i &+= 1
        }
        return s
    }

    /// Returns the dot product of two equally long sample vectors, Σ xᵢ·yᵢ.
    ///
    /// - Parameters:
    ///   - x: The first vector.
    ///   - y: The second vector; must have the same count as `x` (a programmer error otherwise: `precondition`).
    /// - Returns: The dot product, in the product of the two vectors' units; `0` for empty input.
    /// - Complexity: O(n), one pass, no allocation.
    public static func dot(_ x: Span<Double>, _ y: Span<Double>) -> Double {
        precondition(x.count == y.count, "dot: x has \(x.count) elements but y has \(y.count)")
        let rx = x.bytes, ry = y.bytes
        let n = x.count
        var a0 = SIMD4<Double>(), a1 = a0, a2 = a0, a3 = a0
        var i = 0
        while i &+ 16 <= n {
            a0 += rx.loadDouble4(at: i) * ry.loadDouble4(at: i)
            a1 += rx.loadDouble4(at: i &+ 4) * ry.loadDouble4(at: i &+ 4)
            a2 += rx.loadDouble4(at: i &+ 8) * ry.loadDouble4(at: i &+ 8)
            a3 += rx.loadDouble4(at: i &+ 12) * ry.loadDouble4(at: i &+ 12)
            i &+= 16
        }
        while i &+ 4 <= n {
            a0 += rx.loadDouble4(at: i) * ry.loadDouble4(at: i)
            i &+= 4
        }
        var s = ((a0 + a1) + (a2 + a3)).sum()
        while i < n {
            s += x[i] * y[i]
            i &+= 1
        }
        return s
    }

    /// Returns the smallest sample, or NaN if any sample is NaN.
    ///
    /// - Parameter x: The samples.
    /// - Returns: min xᵢ in the samples' units; NaN for empty input or when any sample is NaN.
    /// - Complexity: O(n), one pass, no allocation.
    public static func min(_ x: Span<Double>) -> Double {
        extremum(x, smallest: true)
    }

    /// Returns the largest sample, or NaN if any sample is NaN.
    ///
    /// - Parameter x: The samples.
    /// - Returns: max xᵢ in the samples' units; NaN for empty input or when any sample is NaN.
    /// - Complexity: O(n), one pass, no allocation.
    public static func max(_ x: Span<Double>) -> Double {
        extremum(x, smallest: false)
    }

    /// Returns the index of the first smallest sample (of the first NaN, if there is one).
    ///
    /// A NaN counts as the extremum, consistently with ``min(_:)-(Span<Double>)`` (NumPy's `argmin` does the same).
    ///
    /// - Parameter x: The samples.
    /// - Returns: The zero-based index, or `nil` for empty input.
    /// - Complexity: O(n): one SIMD pass for the value, then a scan that stops at the first match; no allocation.
    public static func argmin(_ x: Span<Double>) -> Int? {
        firstIndex(of: extremum(x, smallest: true), in: x)
    }

    /// Returns the index of the first largest sample (of the first NaN, if there is one).
    ///
    /// A NaN counts as the extremum, consistently with ``max(_:)-(Span<Double>)`` (NumPy's `argmax` does the same).
    ///
    /// - Parameter x: The samples.
    /// - Returns: The zero-based index, or `nil` for empty input.
    /// - Complexity: O(n): one SIMD pass for the value, then a scan that stops at the first match; no allocation.
    public static func argmax(_ x: Span<Double>) -> Int? {
        firstIndex(of: extremum(x, smallest: false), in: x)
    }

    /// Returns the arithmetic mean, x̄ = Σ xᵢ / n.
    ///
    /// - Parameter x: The samples.
    /// - Returns: The mean in the samples' units; NaN for empty input.
    /// - Complexity: O(n), one pass, no allocation.
    public static func mean(_ x: Span<Double>) -> Double {
        x.isEmpty ? .nan : sum(x) / Double(x.count)
    }

    /// Returns the variance, Σ (xᵢ − x̄)² / d with d = n (population) or n − 1 (sample).
    ///
    /// Uses the corrected two-pass algorithm (Chan, Golub & LeVeque 1983): the mean first, then
    /// (Σ dᵢ² − (Σ dᵢ)²/n) / d with dᵢ = xᵢ − x̄, each sum in SIMD lanes. It never suffers the catastrophic
    /// cancellation of E[x²] − E[x]², and a tiny negative rounding result is clamped to `0`.
    ///
    /// - Parameters:
    ///   - x: The samples.
    ///   - estimator: ``VarianceEstimator/sample`` (n − 1, the default, like R's `var`) or
    ///     ``VarianceEstimator/population`` (n).
    /// - Returns: The variance in squared sample units; NaN for empty input, and for a single sample with the
    ///   `.sample` estimator (`0` with `.population`).
    /// - Complexity: O(n), two passes, no allocation.
    public static func variance(_ x: Span<Double>, estimator: VarianceEstimator = .sample) -> Double {
        let n = x.count
        let denominator = estimator == .sample ? n - 1 : n
        guard n > 0, denominator > 0 else { return .nan }
        let mean = sum(x) / Double(n)
        let m = SIMD4<Double>(repeating: mean)
        let raw = x.bytes
        var q0 = SIMD4<Double>(), q1 = q0, d0 = q0, d1 = q0
        var i = 0
        while i &+ 8 <= n {
            let e0 = raw.loadDouble4(at: i) - m, e1 = raw.loadDouble4(at: i &+ 4) - m
            q0 += e0 * e0
            q1 += e1 * e1
            d0 += e0
            d1 += e1
            i &+= 8
        }
        var squares = (q0 + q1).sum(), deviations = (d0 + d1).sum()
        while i < n {
            let e = x[i] - mean
            squares += e * e
            deviations += e
            i &+= 1
        }
        let sumOfSquaredDeviations = squares - deviations * deviations / Double(n)
        // Clamp rounding noise below zero; a NaN fails the comparison and propagates.
        return sumOfSquaredDeviations < 0 ? 0 : sumOfSquaredDeviations / Double(denominator)
    }

    /// Returns the standard deviation, the square root of ``variance(_:estimator:)-(Span<Double>,_)``.
    ///
    /// - Parameters:
    ///   - x: The samples.
    ///   - estimator: `.sample` (n − 1, default) or `.population` (n).
    /// - Returns: The standard deviation in the samples' units; NaN where the variance is NaN.
    /// - Complexity: O(n), two passes, no allocation.
    public static func standardDeviation(_ x: Span<Double>, estimator: VarianceEstimator = .sample) -> Double {
        variance(x, estimator: estimator).squareRoot()
    }

    // MARK: Internals

    // Always inlined so that `smallest` is a constant and the loop has no branch on it (3× faster).
    @inline(__always)
    private static func extremum(_ x: Span<Double>, smallest: Bool) -> Double {
        let n = x.count
        guard n > 0 else { return .nan }
        let raw = x.bytes
        var best0 = SIMD4<Double>(repeating: smallest ? .infinity : -.infinity), best1 = best0
        var nan0 = SIMDMask<SIMD4<Int64>>(repeating: false), nan1 = nan0
        var i = 0
        while i &+ 8 <= n {
            let v0 = raw.loadDouble4(at: i), v1 = raw.loadDouble4(at: i &+ 4)
            if smallest {
                best0.replace(with: v0, where: v0 .< best0)
                best1.replace(with: v1, where: v1 .< best1)
            } else {
                best0.replace(with: v0, where: v0 .> best0)
                best1.replace(with: v1, where: v1 .> best1)
            }
            nan0 .|= v0 .!= v0
            nan1 .|= v1 .!= v1
            i &+= 8
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

    private static func firstIndex(of target: Double, in x: Span<Double>) -> Int? {
        if target.isNaN {  // rare: a plain scan for the first NaN
            for i in x.indices where x[i].isNaN { return i }
            return nil
        }
        let raw = x.bytes
        let n = x.count
        let t = SIMD4<Double>(repeating: target)
        var i = 0
        // Skip whole blocks of 16 that cannot contain the target, then finish with scalars.
        while i &+ 16 <= n {
            let v0 = raw.loadDouble4(at: i), v1 = raw.loadDouble4(at: i &+ 4)
            let v2 = raw.loadDouble4(at: i &+ 8), v3 = raw.loadDouble4(at: i &+ 12)
            if any((v0 .== t) .| (v1 .== t) .| (v2 .== t) .| (v3 .== t)) { break }
            i &+= 16
        }
        while i < n {
            if x[i] == target { return i }
            i &+= 1
        }
        return nil  // only for empty input: the extremum is one of the samples
    }
}

// MARK: - Array conveniences (Double)

extension Reductions {
    /// Returns Σ xᵢ; see ``sum(_:)-(Span<Double>)``.
    public static func sum(_ x: [Double]) -> Double { sum(x.span) }
    /// Returns Σ xᵢ²; see ``sumOfSquares(_:)-(Span<Double>)``.
    public static func sumOfSquares(_ x: [Double]) -> Double { sumOfSquares(x.span) }
    /// Returns Σ xᵢ·yᵢ; see ``dot(_:_:)-(Span<Double>,Span<Double>)``.
    public static func dot(_ x: [Double], _ y: [Double]) -> Double { dot(x.span, y.span) }
    /// Returns min xᵢ (NaN if empty or any NaN); see ``min(_:)-(Span<Double>)``.
    public static func min(_ x: [Double]) -> Double { min(x.span) }
    /// Returns max xᵢ (NaN if empty or any NaN); see ``max(_:)-(Span<Double>)``.
    public static func max(_ x: [Double]) -> Double { max(x.span) }
    /// Returns the index of the first minimum; see ``argmin(_:)-(Span<Double>)``.
    public static func argmin(_ x: [Double]) -> Int? { argmin(x.span) }
    /// Returns the index of the first maximum; see ``argmax(_:)-(Span<Double>)``.
    public static func argmax(_ x: [Double]) -> Int? { argmax(x.span) }
    /// Returns Σ xᵢ / n; see ``mean(_:)-(Span<Double>)``.
    public static func mean(_ x: [Double]) -> Double { mean(x.span) }
    /// Returns the variance; see ``variance(_:estimator:)-(Span<Double>,_)``.
    public static func variance(_ x: [Double], estimator: VarianceEstimator = .sample) -> Double {
        variance(x.span, estimator: estimator)
    }
    /// Returns the standard deviation; see ``standardDeviation(_:estimator:)-(Span<Double>,_)``.
    public static func standardDeviation(_ x: [Double], estimator: VarianceEstimator = .sample) -> Double {
        standardDeviation(x.span, estimator: estimator)
    }
}

// MARK: - Vector loads

extension RawSpan {
    /// Loads four `Double`s starting at element index `index` (bounds-checked; the memory holds `Double`s).
    @inline(__always)
    func loadDouble4(at index: Int) -> SIMD4<Double> {
        unsafeLoadUnaligned(fromByteOffset: index &* MemoryLayout<Double>.stride, as: SIMD4<Double>.self)
    }

    /// Loads eight `Float`s starting at element index `index` (bounds-checked; the memory holds `Float`s).
    @inline(__always)
    func loadFloat8(at index: Int) -> SIMD8<Float> {
        unsafeLoadUnaligned(fromByteOffset: index &* MemoryLayout<Float>.stride, as: SIMD8<Float>.self)
    }
}
