// Empirical mode decomposition as R's `EMD::emd` (CRAN EMD 1.5.9) computes it with its default arguments, and the
// Forsythe–Malcolm–Moler cubic spline of R's `splinefun` that draws its envelopes.

/// Empirical mode decomposition of a sampled signal into intrinsic mode functions, as R's `EMD::emd` computes it.
///
/// EMD (Huang and others, 1998) splits a signal into intrinsic mode functions (IMFs), fastest first, and a residue.
/// This reproduces R's `EMD::emd(x, times, max.imf = k)` (CRAN EMD 1.5.9) with every other argument at its default:
/// `tol = sd(x) * 0.1^2`, `max.sift = 20`, `stoprule = "type1"`, `boundary = "periodic"`, `sm = "none"`, no `interm`.
///
/// mhealthtools' `get_walk_features` calls it as `EMD::emd(v, t, max.imf = 2)$imf` on one accelerometer axis with
/// t in seconds. The port follows the R and C code operation by operation (same floating-point operations in the
/// same order, `long double` where R accumulates in it), so on x86-64 the results equal R's bit for bit in the
/// reference tests.
///
/// **The algorithm** (`emd` → `extractimf` → `extrema`, `splinefun`):
/// - *Extrema* (`extrema`): with the signs of the successive differences, ignoring zero differences, every change of
///   sign is one extremum — a maximum after a rise, a minimum after a fall. A flat extremum (plateau) contributes both
///   its first and its last sample as envelope knots. The first and last samples are never extrema.
/// - *IMF k* starts from the residue r (r = x for k = 1) and sifts h₁ = r, h₂, … at most 20 times (`max.sift`):
///   if hⱼ has ≤ 2 extrema, sifting stops **without** an IMF and the decomposition ends there (even at j > 1, where
///   R discards the partly sifted IMF). Otherwise the lower and upper envelopes eₗ, eᵤ are cubic splines (R's
///   `splinefun`, method `"fmm"`, see ``CubicSpline``) through the minima and the maxima evaluated at the sample
///   times, mⱼ = (eₗ + eᵤ)/2, and hⱼ₊₁ = hⱼ − mⱼ.
/// - *Stop rule type 1*: the IMF is hⱼ₊₁ as soon as every |mⱼ(tᵢ)| < tol, or after sift 20; tol = sd(x) · 0.1² in
///   the signal's units, from the *original* signal (R's lazily evaluated default) for every IMF. The residue becomes
///   r − IMF.
/// - *Boundary*: the first sift of each IMF (j = 1) always uses `extractimf`'s own end extension (R's branch for
///   `j == 1 || boundary == "wave"`): if the first (last) sample lies below both the first (last) minimum and
///   maximum it becomes an extra minimum (likewise above both → an extra maximum), and each knot list is extended by
///   four copies of its end value spaced by a wave period estimated from the first (last) extremum times
///   (`wavefreq1`/`wavefreq2`, in the time unit, including R's `round(1.5 · Δt)` — a rounding to whole time units).
///   Later sifts use the `"periodic"` boundary: the extrema of the series h[1…n−1] ‖ h ‖ h[2…n] on the time axis
///   (t₁ − Σ…, t, tₙ + cumsum(Δt)) (R's `cumsum` in `long double`), evaluated on the middle copy.
///
/// **Times** are in any unit (mhealthtools: seconds from the first sample) and need not be uniform. They need not
/// even increase: knots are sorted and tied knot times collapsed to the mean of their values, as R's
/// `regularize.values` does in `splinefun`.
///
/// - Complexity: each sift is O(n) plus O(m log m) for m envelope knots (m ≤ 3n); at most 20 sifts per IMF. Buffers
///   (about 12 n doubles) are allocated once per call and reused across sifts and IMFs; the result arrays are the
///   only other allocations.
public enum EmpiricalModeDecomposition {
    /// The intrinsic mode functions and the residue of one decomposition (R's `emd(...)$imf`, `$residue`).
    public struct Result: Sendable, Hashable {
        /// The IMFs, the fastest oscillation first (R's `$imf` columns, `$nimf` of them).
        ///
        /// Each has one value per sample, in the signal's units. Empty when the signal has too few extrema to sift
        /// (R's `imf = NULL`, `nimf = 0`).
        public var imfs: [[Double]]
        /// The residue: the signal minus each IMF in turn (rᵢ = rᵢ₋₁ − IMFᵢ, one rounding per subtraction), in the
        /// signal's units; the signal itself when ``imfs`` is empty.
        public var residue: [Double]
    }

    /// The largest number of IMFs ``decompose(_:times:maximumIMFs:)`` extracts, whatever `maximumIMFs` asks for.
    ///
    /// A bound on work and memory (one n-sample array per IMF) for absurd requests such as `Int.max`. Sifting
    /// normally runs out of extrema after about log₂ n IMFs (R's own default `max.imf` is 10), so for real signals
    /// R stops well before this bound.
    public static let maximumIMFLimit = 64

    /// The number of sifts after which stop rule type 1 accepts an IMF regardless of tolerance (R's `max.sift`).
    static let maximumSifts = 20

    /// Decomposes `x`, sampled at `times`, into at most `maximumIMFs` IMFs and a residue, exactly as R's
    /// `EMD::emd(x, times, max.imf = maximumIMFs)` with its defaults (see the type's documentation).
    ///
    /// Fewer IMFs than requested come back when R stops early: when the residue, or a signal part-way through
    /// sifting, has at most two extrema. Signals with fewer than 5 samples, constant or monotone signals, and
    /// `maximumIMFs ≤ 0` give no IMF and the signal itself as the residue, as in R.
    ///
    /// - Parameters:
    ///   - x: The signal, in any unit (mhealthtools: one acceleration axis in g).
    ///   - times: The sample times, one per sample, in any unit (mhealthtools: seconds since the first sample).
    ///   - maximumIMFs: The most IMFs to extract (R's `max.imf`), capped at ``maximumIMFLimit``.
    /// - Returns: The IMFs and the residue, or `nil` where R stops with an error instead: `times.count ≠ x.count`,
    ///   any sample or time that is NaN or ±∞ (R: "NA/NaN argument" or "missing value where TRUE/FALSE needed"),
    ///   or an envelope or sifted value that overflows to ±∞/NaN (only for |x| near `Double.greatestFiniteMagnitude`,
    ///   where R fails on the NaN in the stop test or in `extrema`).
    /// - Complexity: O(maximumIMFs · 20 · n) time in the worst case; O(n) scratch, allocated once per call.
    public static func decompose(_ x: [Double], times: [Double], maximumIMFs: Int) -> Result? {
        guard x.count == times.count else { return nil }
        for value in x where !value.isFinite { return nil }
        for time in times where !time.isFinite { return nil }
        let limit = min(maximumIMFs, maximumIMFLimit)
        // At most n − 2 samples can be extrema, and sifting needs three: n < 5 never yields an IMF.
        guard limit > 0, x.count >= 5 else { return Result(imfs: [], residue: x) }

        let tolerance = RStatistics.standardDeviation(x) * (0.1 * 0.1)  // R: sd(xt) * 0.1^2, `^2` is x * x
        var sifter = Sifter(times: times, tolerance: tolerance)
        var residue = x
        var imfs: [[Double]] = []
        while imfs.count < limit {
            switch sifter.extractIMF(from: residue) {
            case .mode(let imf):
                for i in residue.indices { residue[i] = residue[i] - imf[i] }
                imfs.append(imf)
            case .exhausted:
                return Result(imfs: imfs, residue: residue)
            case .failed:
                return nil
            }
        }
        return Result(imfs: imfs, residue: residue)
    }
}

// MARK: - Sifting (R's extractimf)

extension EmpiricalModeDecomposition {
    /// The outcome of R's `extractimf` for one residue.
    enum Extraction {
        /// An IMF, one value per sample.
        case mode([Double])
        /// Sifting met a signal with ≤ 2 extrema: R returns `imf = NULL` and `emd` stops.
        case exhausted
        /// A value became NaN or ±∞: R stops with an error.
        case failed
    }

    /// The buffers of one decomposition, reused across sifts and IMFs; `extractIMF` is R's `extractimf`.
    struct Sifter {
        /// The sample times t₁…tₙ.
        let times: [Double]
        /// The periodic extension of the time axis, 3n − 2 values (R's `ttext`); filled on first use.
        private var extendedTimes: [Double] = []
        /// tol of stop rule type 1, in the signal's units.
        let tolerance: Double
        /// The signal being sifted (hⱼ), sifted in place.
        private var input: [Double]
        /// The lower and upper envelopes at the sample times.
        private var lower: [Double], upper: [Double]
        /// h[1…n−1] ‖ h ‖ h[2…n] for the periodic boundary (R's `inputext`).
        private var extended: [Double] = []
        /// Knot indices (0-based) of the minima and maxima, plateau ends included (R's `unique(c(t(minindex)))`).
        private var minima: [Int] = [], maxima: [Int] = []
        /// The envelope spline, its knot and coefficient buffers reused.
        private var spline = CubicSpline()

        init(times: [Double], tolerance: Double) {
            self.times = times
            self.tolerance = tolerance
            input = []
            input.reserveCapacity(times.count)
            lower = []
            lower.reserveCapacity(times.count)
            upper = []
            upper.reserveCapacity(times.count)
        }

        /// Sifts `residue` into one IMF with stop rule type 1 (R's `extractimf` with the `emd` defaults).
        mutating func extractIMF(from residue: [Double]) -> Extraction {
            let n = residue.count
            input.removeAll(keepingCapacity: true)
            input.append(contentsOf: residue)
            var sift = 1
            while true {
                let extremaCount = EmpiricalModeDecomposition.extrema(of: input, minima: &minima, maxima: &maxima)
                if extremaCount <= 2 { return .exhausted }  // R: `minextrema` is 2 unless boundary = "none"
                if sift == 1 {
                    endExtendedEnvelopes()
                } else {
                    periodicEnvelopes()
                }
                // m = (eₗ + eᵤ)/2, h = input − m; R: all(abs(em) < tol) is NA (an error) if m has a NaN.
                var allBelowTolerance = true
                for i in 0..<n {
                    let mean = (lower[i] + upper[i]) / 2
                    let sifted = input[i] - mean
                    guard mean.isFinite, sifted.isFinite else { return .failed }
                    if !(abs(mean) < tolerance) { allBelowTolerance = false }
                    input[i] = sifted
                }
                if allBelowTolerance || sift >= EmpiricalModeDecomposition.maximumSifts { return .mode(input) }
                sift += 1
            }
        }

        /// The envelopes of the first sift: knots at the extrema, the end samples when they lie beyond both
        /// neighbouring extrema, and four mirrored-period knots past each end (R's `j == 1` branch).
        private mutating func endExtendedEnvelopes() {
            let n = input.count
            guard let firstMinimum = minima.first, let firstMaximum = maxima.first, let lastMinimum = minima.last,
                let lastMaximum = maxima.last
            else { return }  // unreachable: three or more extrema alternate, so both kinds exist
            let first = input[0], last = input[n - 1]

            // Start: wavefreq1 from the gaps between t₁ and the first minimum and maximum times.
            let startGaps = Self.sortedGaps(times[0], times[firstMinimum], times[firstMaximum])
            var minimumAtStart = false, maximumAtStart = false
            let startPeriod: Double
            if first <= input[firstMinimum] && first <= input[firstMaximum] {
                minimumAtStart = true
                startPeriod = 2 * startGaps.0
            } else if first >= input[firstMinimum] && first >= input[firstMaximum] {
                maximumAtStart = true
                startPeriod = 2 * startGaps.0
            } else if first >= (input[firstMinimum] + input[firstMaximum]) / 2 {
                startPeriod = startGaps.1 + Self.rMax(startGaps.1, 2 * startGaps.0)
            } else {
                startPeriod = startGaps.1 + Self.rMax(startGaps.1, (1.5 * startGaps.0).rounded(.toNearestOrEven))
            }

            // End: wavefreq2 from the gaps between the last minimum and maximum times and tₙ.
            let endGaps = Self.sortedGaps(times[lastMinimum], times[lastMaximum], times[n - 1])
            var minimumAtEnd = false, maximumAtEnd = false
            let endPeriod: Double
            if last <= input[lastMinimum] && last <= input[lastMaximum] {
                minimumAtEnd = true
                endPeriod = 2 * endGaps.1
            } else if last >= input[lastMinimum] && last >= input[lastMaximum] {
                maximumAtEnd = true
                endPeriod = 2 * endGaps.1
            } else if last >= (input[lastMinimum] + input[lastMaximum]) / 2 {
                endPeriod = endGaps.0 + Self.rMax(endGaps.0, 2 * endGaps.1)
            } else {
                endPeriod = endGaps.0 + Self.rMax(endGaps.0, (1.5 * endGaps.1).rounded(.toNearestOrEven))
            }

            fitEndExtended(minima, atStart: minimumAtStart, atEnd: minimumAtEnd, startPeriod, endPeriod)
            spline.evaluate(at: times, into: &lower)
            fitEndExtended(maxima, atStart: maximumAtStart, atEnd: maximumAtEnd, startPeriod, endPeriod)
            spline.evaluate(at: times, into: &upper)
        }

        /// Fits the spline through c(t[e₁] − 4:1 · p₁, t[e], t[eₖ] + 1:4 · p₂) and c(rep(x[e₁], 4), x[e], rep(x[eₖ], 4)).
        private mutating func fitEndExtended(
            _ indices: [Int], atStart: Bool, atEnd: Bool, _ startPeriod: Double, _ endPeriod: Double
        ) {
            let n = input.count
            guard let firstIndex = atStart ? 0 : indices.first, let lastIndex = atEnd ? n - 1 : indices.last else {
                return
            }
            spline.removeAllKnots()
            for k in (1...4).reversed() {
                spline.appendKnot(times[firstIndex] - Double(k) * startPeriod, input[firstIndex])
            }
            if atStart { spline.appendKnot(times[0], input[0]) }
            for i in indices { spline.appendKnot(times[i], input[i]) }
            if atEnd { spline.appendKnot(times[n - 1], input[n - 1]) }
            for k in 1...4 { spline.appendKnot(times[lastIndex] + Double(k) * endPeriod, input[lastIndex]) }
            spline.fit()
        }

        /// The envelopes of sifts 2…20: splines through the extrema of the periodic extension (R's `"periodic"`).
        private mutating func periodicEnvelopes() {
            let n = input.count
            if extendedTimes.isEmpty { extendedTimes = Self.periodicTimes(times) }
            extended.removeAll(keepingCapacity: true)
            extended.append(contentsOf: input[0..<(n - 1)])
            extended.append(contentsOf: input)
            extended.append(contentsOf: input[1..<n])
            _ = EmpiricalModeDecomposition.extrema(of: extended, minima: &minima, maxima: &maxima)
            spline.removeAllKnots()
            for i in minima { spline.appendKnot(extendedTimes[i], extended[i]) }
            spline.fit()
            spline.evaluate(at: times, into: &lower)
            spline.removeAllKnots()
            for i in maxima { spline.appendKnot(extendedTimes[i], extended[i]) }
            spline.fit()
            spline.evaluate(at: times, into: &upper)
        }

        /// R's `ttext`: `c(rev(t[1] - cumsum(rev(diff(t)))), t, t[n] + cumsum(diff(t)))`, 3n − 2 times.
        static func periodicTimes(_ t: [Double]) -> [Double] {
            let n = t.count
            guard n >= 2 else { return t }
            var steps = [Double](repeating: 0, count: n - 1)
            for i in 0..<(n - 1) { steps[i] = t[i + 1] - t[i] }
            var result = [Double](repeating: 0, count: 3 * n - 2)
            var sum: LongDouble = 0
            for k in 0..<(n - 1) {  // cumsum(rev(diff(t))), placed right to left before t
                sum += LongDouble(steps[n - 2 - k])
                result[n - 2 - k] = t[0] - Double(sum)
            }
            for i in 0..<n { result[n - 1 + i] = t[i] }
            sum = 0
            for k in 0..<(n - 1) {
                sum += LongDouble(steps[k])
                result[2 * n - 1 + k] = t[n - 1] + Double(sum)
            }
            return result
        }

        /// `diff(sort(c(a, b, c)))`: the two gaps between three sorted values.
        static func sortedGaps(_ a: Double, _ b: Double, _ c: Double) -> (Double, Double) {
            var s = (a, b, c)
            if s.0 > s.1 { swap(&s.0, &s.1) }
            if s.1 > s.2 { swap(&s.1, &s.2) }
            if s.0 > s.1 { swap(&s.0, &s.1) }
            return (s.1 - s.0, s.2 - s.1)
        }

        /// R's `max(a, b)` of two non-NaN doubles.
        static func rMax(_ a: Double, _ b: Double) -> Double { b > a ? b : a }
    }

    /// Finds the extrema of `y` as R's `EMD::extrema` does and returns their number (R's `nextreme`).
    ///
    /// Zero differences are skipped; each change of sign between consecutive non-zero differences is one extremum,
    /// whose plateau runs from the sample after the last rise (fall) to the sample before the next fall (rise).
    /// `minima` and `maxima` receive, in order, each plateau's first and (if different) last 0-based index.
    /// The samples must not be NaN.
    static func extrema(of y: [Double], minima: inout [Int], maxima: inout [Int]) -> Int {
        minima.removeAll(keepingCapacity: true)
        maxima.removeAll(keepingCapacity: true)
        var count = 0
        var previousIndex = 0
        var previousSign = 0
        var k = 0
        while k + 1 < y.count {
            let difference = y[k + 1] - y[k]
            if difference != 0 {
                let sign = difference > 0 ? 1 : -1
                if previousSign != 0 && sign != previousSign {
                    count += 1
                    let start = previousIndex + 1
                    if previousSign > 0 {
                        maxima.append(start)
                        if k != start { maxima.append(k) }
                    } else {
                        minima.append(start)
                        if k != start { minima.append(k) }
                    }
                }
                previousIndex = k
                previousSign = sign
            }
            k += 1
        }
        return count
    }
}

// MARK: - Cubic spline (R's splinefun, method "fmm")

/// A cubic interpolating spline with the end conditions of Forsythe, Malcolm & Moler (1977), exactly as R's
/// `splinefun(x, y)` (default `method = "fmm"`, `ties = mean`) builds and evaluates it.
///
/// - Knots (`regularize.values`): sorted by x (stably) if they are not in order; knots with equal x collapse to one
///   whose value is R's `mean` of theirs.
/// - Coefficients (`splines.c`, `fmm_spline`): on each interval [xᵢ, xᵢ₊₁] the spline is
///   s(u) = yᵢ + bᵢ·Δ + cᵢ·Δ² + dᵢ·Δ³ with Δ = u − xᵢ; the third derivatives at both ends match those of the cubics
///   through the first and last four knots (the divided differences). Two knots give a line, three a parabola-like
///   fit with zero end conditions; one knot a constant.
/// - Evaluation (`spline_eval`): the interval is found by bisection, kept from one point to the next while it still
///   contains the point; points outside the knots use the cubic of the end interval (left) or of the last knot with
///   the last interval's d (right).
///
/// Units: x and u share one unit (e.g. seconds), y and s(u) another. Complexity: O(m) to fit m sorted knots, plus
/// O(m log m) if they are unsorted; O(k + m log m) to evaluate k points in ascending order.
struct CubicSpline: Sendable {
    /// The knot positions, strictly increasing after ``fit()``.
    private(set) var x: [Double] = []
    /// The knot values.
    private(set) var y: [Double] = []
    /// The polynomial coefficients of each interval (R's `b`, `c`, `d`).
    private(set) var b: [Double] = [], c: [Double] = [], d: [Double] = []

    /// An empty spline; add knots with ``appendKnot(_:_:)`` and call ``fit()``.
    init() {}

    /// The spline through `(x[i], y[i])`, R's `splinefun(x, y)`.
    init(x: [Double], y: [Double]) {
        precondition(x.count == y.count, "CubicSpline: \(x.count) positions but \(y.count) values")
        self.x = x
        self.y = y
        fit()
    }

    /// Removes every knot, keeping the buffers.
    mutating func removeAllKnots() {
        x.removeAll(keepingCapacity: true)
        y.removeAll(keepingCapacity: true)
    }

    /// Adds the knot (`position`, `value`).
    mutating func appendKnot(_ position: Double, _ value: Double) {
        x.append(position)
        y.append(value)
    }

    /// Regularizes the knots and computes the fmm coefficients (R's `regularize.values` then `fmm_spline`).
    mutating func fit() {
        regularize()
        let n = x.count
        Self.resetToZeros(&b, count: n)
        Self.resetToZeros(&c, count: n)
        Self.resetToZeros(&d, count: n)
        if n < 2 { return }  // R: errno = EDOM, coefficients stay 0 (a constant)
        if n < 3 {
            let t = y[1] - y[0]
            b[0] = t / (x[1] - x[0])
            b[1] = b[0]
            return
        }
        // Tridiagonal system: b = diagonal, d = off-diagonal, c = right-hand side.
        d[0] = x[1] - x[0]
        c[1] = (y[1] - y[0]) / d[0]
        for i in 1..<(n - 1) {
            d[i] = x[i + 1] - x[i]
            b[i] = 2.0 * (d[i - 1] + d[i])
            c[i + 1] = (y[i + 1] - y[i]) / d[i]
            c[i] = c[i + 1] - c[i]
        }
        // End conditions: third derivatives at x₁ and xₙ from divided differences.
        b[0] = -d[0]
        b[n - 1] = -d[n - 2]
        c[0] = 0
        c[n - 1] = 0
        if n > 3 {
            c[0] = c[2] / (x[3] - x[1]) - c[1] / (x[2] - x[0])
            c[n - 1] = c[n - 2] / (x[n - 1] - x[n - 3]) - c[n - 3] / (x[n - 2] - x[n - 4])
            c[0] = c[0] * d[0] * d[0] / (x[3] - x[0])
            c[n - 1] = -c[n - 1] * d[n - 2] * d[n - 2] / (x[n - 1] - x[n - 4])
        }
        // Gaussian elimination.
        for i in 1..<n {
            let t = d[i - 1] / b[i - 1]
            b[i] = b[i] - t * d[i - 1]
            c[i] = c[i] - t * c[i - 1]
        }
        // Backward substitution.
        c[n - 1] = c[n - 1] / b[n - 1]
        for i in stride(from: n - 2, through: 0, by: -1) {
            c[i] = (c[i] - d[i] * c[i + 1]) / b[i]
        }
        // Polynomial coefficients.
        b[n - 1] = (y[n - 1] - y[n - 2]) / d[n - 2] + d[n - 2] * (c[n - 2] + 2.0 * c[n - 1])
        for i in 0..<(n - 1) {
            b[i] = (y[i + 1] - y[i]) / d[i] - d[i] * (c[i + 1] + 2.0 * c[i])
            d[i] = (c[i + 1] - c[i]) / d[i]
            c[i] = 3.0 * c[i]
        }
        c[n - 1] = 3.0 * c[n - 1]
        d[n - 1] = d[n - 2]
    }

    /// Writes s(u) for every u in `points` into `values` (replacing its contents), as R's `spline_eval`.
    ///
    /// Without knots every value is NaN (R's `splinefun` stops: "zero non-NA points").
    func evaluate(at points: [Double], into values: inout [Double]) {
        values.removeAll(keepingCapacity: true)
        let n = x.count
        guard n > 0 else {
            values.append(contentsOf: repeatElement(.nan, count: points.count))
            return
        }
        var i = 0
        for u in points {
            if u < x[i] || (i < n - 1 && x[i + 1] < u) {  // bisect for x[i] ≤ u < x[i + 1]
                i = 0
                var j = n
                repeat {
                    let k = (i + j) / 2
                    if u < x[k] { j = k } else { i = k }
                } while j > i + 1
            }
            let dx = u - x[i]
            values.append(y[i] + dx * (b[i] + dx * (c[i] + dx * d[i])))
        }
    }

    /// Returns s(u) for every u in `points` (R's `splinefun(x, y)(points)`).
    func evaluate(at points: [Double]) -> [Double] {
        var values: [Double] = []
        values.reserveCapacity(points.count)
        evaluate(at: points, into: &values)
        return values
    }

    /// Makes `buffer` `count` zeros, keeping its capacity.
    private static func resetToZeros(_ buffer: inout [Double], count: Int) {
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: repeatElement(0, count: count))
    }

    /// R's `regularize.values(x, y, mean)`: stable sort by x if unsorted, then ties collapsed to their mean value.
    private mutating func regularize() {
        let n = x.count
        guard n > 1 else { return }
        var sorted = true
        for k in 1..<n where x[k - 1] > x[k] {
            sorted = false
            break
        }
        if !sorted {  // rare (non-increasing times): allocates
            let order = (0..<n).sorted { x[$0] < x[$1] || (x[$0] == x[$1] && $0 < $1) }
            let (oldX, oldY) = (x, y)
            for (k, index) in order.enumerated() {
                x[k] = oldX[index]
                y[k] = oldY[index]
            }
        }
        var tied = false
        for k in 1..<n where x[k - 1] == x[k] {
            tied = true
            break
        }
        guard tied else { return }
        var kept = 0
        var k = 0
        while k < n {
            var end = k + 1
            while end < n && x[end] == x[k] { end += 1 }
            let value = end - k == 1 ? y[k] : RStatistics.mean(Array(y[k..<end]))
            x[kept] = x[k]
            y[kept] = value
            kept += 1
            k = end
        }
        x.removeSubrange(kept...)
        y.removeSubrange(kept...)
    }
}
