// R, pracma and seewave routines behind mhealthtools' kinematic (tremor, balance, walk) features, with R semantics.
import Foundation

extension RStatistics {
    /// Returns R's `x ^ y` for doubles (`arithmetic.c`, `R_POW`): `x * x` for y = 2, R's special cases for 1, 0
    /// and non-finite operands, and the C library's `pow` otherwise.
    ///
    /// - Parameters:
    ///   - x: The base.
    ///   - y: The exponent.
    /// - Returns: xʸ as R computes it.
    public static func power(_ x: Double, _ y: Double) -> Double { rPow(x, y) }

    /// Returns R's `sum(x)`: a `long double` accumulation rounded to `double` (±∞ beyond the `double` range).
    ///
    /// - Parameter x: The values.
    /// - Returns: Σ xᵢ in the values' units; 0 for empty input; NaN if any value is NaN.
    /// - Complexity: O(n), scalar, no allocation.
    public static func sum(_ x: Span<Double>) -> Double {
        var s: LongDouble = 0
        for i in x.indices { s += LongDouble(x[i]) }
        return rSum(s)
    }

    /// Returns R's `sum(x)`; see ``sum(_:)-(Span<Double>)``.
    public static func sum(_ x: [Double]) -> Double { sum(x.span) }

    /// Returns R's `prod(x)`: a `long double` running product rounded to `double`.
    ///
    /// - Parameter x: The values.
    /// - Returns: Π xᵢ; 1 for empty input.
    /// - Complexity: O(n), scalar, no allocation.
    public static func product(_ x: Span<Double>) -> Double {
        var p: LongDouble = 1
        for i in x.indices { p *= LongDouble(x[i]) }
        return rSum(p)
    }

    /// Returns the most frequent value as `pracma::Mode(x)` (pracma 2.4) computes it.
    ///
    /// `Mode` tabulates `x` by its R character form (`as.character`, 15 significant digits), so values that agree
    /// to 15 significant digits count as one, and returns the value of the most frequent entry parsed back from
    /// that text; among equally frequent entries, the smallest. For a series without repeats this is its minimum
    /// rounded to 15 significant digits.
    ///
    /// - Parameter x: The values.
    /// - Returns: The mode in the values' units; NaN when every value is NaN (R `NA`) or `x` is empty.
    /// - Complexity: O(n log n); allocates a sorted copy (text conversions only for near-equal neighbours).
    public static func mode(_ x: Span<Double>) -> Double {
        var values: [Double] = []
        values.reserveCapacity(x.count)
        for i in x.indices where !x[i].isNaN { values.append(x[i]) }
        guard !values.isEmpty else { return .nan }
        values.sort()
        func text(_ v: Double) -> Double { Double(String(format: "%.15g", v)) ?? v }
        // Two values share their 15-digit text only if they differ by less than one unit of its 15th digit, which
        // is below 1e-14 of their magnitude: only such neighbours need the text comparison (rare in sensor data).
        func sameText(_ a: Double, _ b: Double) -> Bool {
            if a == b { return true }
            if abs(a - b) >= 1e-14 * Swift.max(abs(a), abs(b)) { return false }
            return text(a) == text(b)
        }
        var best = values[0], bestCount = 0
        var current = values[0], count = 0
        for v in values {
            if sameText(v, current) {
                count += 1
            } else {
                if count > bestCount { (best, bestCount) = (current, count) }
                (current, count) = (v, 1)
            }
        }
        if count > bestCount { best = current }
        return text(best)
    }

    /// Returns `seewave::roughness(x)` (seewave 2.2): Σ (Δ²xᵢ)², the sum of squared second differences.
    ///
    /// - Parameter x: The series.
    /// - Returns: The roughness in squared sample units; 0 for fewer than 3 samples. NaN second differences are
    ///   skipped (`na.rm = TRUE`).
    /// - Complexity: O(n), no allocation.
    public static func roughness(_ x: Span<Double>) -> Double {
        guard x.count >= 3 else { return 0 }
        var s: LongDouble = 0
        for i in 0..<(x.count - 2) {
            let d = (x[i + 2] - x[i + 1]) - (x[i + 1] - x[i])
            let d2 = d * d
            if !d2.isNaN { s += LongDouble(d2) }
        }
        return rSum(s)
    }

    /// Returns `seewave::rugo(x)` (seewave 2.2): √(mean((xᵢ₊₁ − xᵢ)²)), the RMS first difference.
    ///
    /// - Parameter x: The series.
    /// - Returns: The rugosity in sample units; NaN for fewer than 2 samples.
    /// - Complexity: O(n); allocates the n − 1 squared differences.
    public static func rugosity(_ x: Span<Double>) -> Double {
        guard x.count >= 2 else { return .nan }
        var y = [Double](repeating: 0, count: x.count - 1)
        for i in 0..<(x.count - 1) {
            let d = x[i + 1] - x[i]
            y[i] = d * d
        }
        return mean(y.span).squareRoot()
    }

    /// Returns `pracma::trapz(x, y)` (pracma 2.4): the trapezoidal integral of y over x, evaluated as pracma does
    /// (the shoelace area of the polygon under the curve).
    ///
    /// - Parameters:
    ///   - x: The abscissae.
    ///   - y: The ordinates; the same count as `x` (a programmer error otherwise: `precondition`).
    /// - Returns: ∫ y dx in x-units × y-units; 0 for fewer than 2 points.
    /// - Complexity: O(n), no allocation.
    public static func trapezoid(x: Span<Double>, y: Span<Double>) -> Double {
        precondition(x.count == y.count, "trapezoid: x has \(x.count) points but y has \(y.count)")
        let m = x.count
        guard m > 1 else { return 0 }
        // xp = c(x, rev(x)); yp = c(zeros, rev(y)); n = 2m.
        let n = 2 * m
        func xp(_ i: Int) -> Double { i < m ? x[i] : x[n - 1 - i] }
        func yp(_ i: Int) -> Double { i < m ? 0 : y[n - 1 - i] }
        var s1: LongDouble = 0, s2: LongDouble = 0
        for i in 0..<(n - 1) {
            s1 += LongDouble(xp(i) * yp(i + 1))
            s2 += LongDouble(xp(i + 1) * yp(i))
        }
        let p1 = rSum(s1) + xp(n - 1) * yp(0)
        let p2 = rSum(s2) + xp(0) * yp(n - 1)
        return 0.5 * (p1 - p2)
    }

    /// A peak found by ``findPeaks(_:minimumHeight:count:)``.
    public struct Peak: Sendable, Hashable {
        /// The peak's value, in the series' units.
        public var value: Double
        /// Index of the peak (0-based; the first maximum of its rise-and-fall).
        public var index: Int
        /// Index where the rise begins (0-based).
        public var start: Int
        /// Index where the fall ends (0-based).
        public var end: Int
    }

    /// Returns the peaks of `x` as `pracma::findpeaks(x, minpeakheight:, npeaks:, sortstr = TRUE)` (pracma 2.4,
    /// `nups = ndowns = 1`, `minpeakdistance = 1`, `threshold = 0`) finds them.
    ///
    /// The signs of the first differences are scanned for maximal runs "one or more rises, then one or more falls"
    /// (a flat step breaks a run, as pracma's regular expression does); each run's peak is the first maximum between
    /// its first and last index. Peaks lower than `minimumHeight` are dropped; the rest are sorted by decreasing
    /// value (ties in position order) and the first `count` kept.
    ///
    /// - Parameters:
    ///   - x: The series.
    ///   - minimumHeight: The smallest peak value kept.
    ///   - count: How many peaks to keep at most (pracma's `npeaks`; 0 keeps all).
    /// - Returns: The peaks, highest first; empty when there is none (pracma returns `NULL`).
    /// - Complexity: O(n + p log p).
    public static func findPeaks(_ x: Span<Double>, minimumHeight: Double, count: Int) -> [Peak] {
        let n = x.count
        guard n >= 3 else { return [] }
        // sign(diff(x)): +1, -1, 0 (NaN differences give NA, which matches neither + nor -).
        func sign(_ i: Int) -> Int {
            let d = x[i + 1] - x[i]
            return d > 0 ? 1 : (d < 0 ? -1 : 0)
        }
        var peaks: [Peak] = []
        var i = 0
        while i < n - 1 {
            guard sign(i) == 1 else {
                i += 1
                continue
            }
            var j = i
            while j < n - 1 && sign(j) == 1 { j += 1 }
            var k = j
            while k < n - 1 && sign(k) == -1 { k += 1 }
            if k == j {  // no fall after the rise: no match starting anywhere in this rise
                i = j
                continue
            }
            // x1 = i, x2 = k (0-based indices of x); peak = first maximum of x[i...k].
            var best = i
            for m in i...k where x[m] > x[best] { best = m }
            let value = x[best]
            if value >= minimumHeight && value - Swift.max(x[i], x[k]) >= 0 {
                peaks.append(Peak(value: value, index: best, start: i, end: k))
            }
            i = k
        }
        // sort.list(decreasing = TRUE) is stable for ties.
        let sorted = peaks.enumerated().sorted { a, b in
            a.element.value != b.element.value ? a.element.value > b.element.value : a.offset < b.offset
        }.map(\.element)
        return count > 0 && count < sorted.count ? Array(sorted.prefix(count)) : sorted
    }

    /// Returns R's `prod(x)`; see ``product(_:)-(Span<Double>)``.
    public static func product(_ x: [Double]) -> Double { product(x.span) }
    /// Returns `pracma::Mode(x)`; see ``mode(_:)-(Span<Double>)``.
    public static func mode(_ x: [Double]) -> Double { mode(x.span) }
    /// Returns `seewave::roughness(x)`; see ``roughness(_:)-(Span<Double>)``.
    public static func roughness(_ x: [Double]) -> Double { roughness(x.span) }
    /// Returns `seewave::rugo(x)`; see ``rugosity(_:)-(Span<Double>)``.
    public static func rugosity(_ x: [Double]) -> Double { rugosity(x.span) }
    /// Returns `pracma::trapz(x, y)`; see ``trapezoid(x:y:)-(Span<Double>,_)``.
    public static func trapezoid(x: [Double], y: [Double]) -> Double { trapezoid(x: x.span, y: y.span) }
    /// Returns `pracma::findpeaks`; see ``findPeaks(_:minimumHeight:count:)-(Span<Double>,_,_)``.
    public static func findPeaks(_ x: [Double], minimumHeight: Double, count: Int) -> [Peak] {
        findPeaks(x.span, minimumHeight: minimumHeight, count: count)
    }
}
