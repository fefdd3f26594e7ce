import Foundation
import StudyInputs
internal import SensorSignal

/// Computes the Sage Bionetworks tapping features (``TappingFeatures``) of a list of taps, reproducing the R code
/// of the chosen ``TappingVariant`` step by step (every statistic is an ``RStatistics`` function with R's
/// arithmetic).
///
/// Stateless and allocation-light (a few arrays of n per call); safe to call from any task.
public enum TappingFeatureExtractor {
    /// mhealthtools' error when the input has fewer than 5 taps.
    public static let tooFewRows = "tapping data has less than 5 rows"
    /// mhealthtools' error when fewer than 5 taps survive the removal of repeated `none` taps.
    public static let tooFewUniqueRows = "sensor data has less than 5 unique rows"
    /// mhealthtools' error when fewer than 5 taps survive the depress-event selection.
    public static let tooFewDepressEvents = "post cleaning less than 5 tap points remain"
    /// The mPower 2016 variant's error when no tap precedes an x jump (the R code returns no features at all).
    public static let noDepressEvents = "no tap is followed by an x jump above the depress threshold"

    /// Computes the features of `samples` (in recorded order; they are sorted here as the R code does).
    ///
    /// - Parameters:
    ///   - samples: The taps: timestamp (s), location (points) and button label; durations are not used.
    ///   - variant: The R implementation to reproduce.
    ///   - depressThreshold: The x jump, points, that separates two depress events (mhealthtools'
    ///     `depress_threshold`, default 20; mPower 2016's `depressThr`).
    /// - Returns: The features; on a gate failure or invalid input every feature is NA and ``TappingFeatures/error``
    ///   says why (mhealthtools' own message where it has one).
    public static func features(
        of samples: [TapSample], variant: TappingVariant = .mhealthtools, depressThreshold: Double = 20
    ) -> TappingFeatures {
        for (k, s) in samples.enumerated() {
            guard s.timestamp.isFinite else {
                return .failed(variant, "tap \(k + 1) has a non-finite timestamp (\(s.timestamp))")
            }
            guard s.location.x.isFinite, s.location.y.isFinite else {
                return .failed(variant, "tap \(k + 1) has a non-finite location (\(s.location.x), \(s.location.y))")
            }
        }
        if variant == .mhealthtools && samples.count < 5 { return .failed(variant, tooFewRows) }

        let cleaned = cleanedOrder(samples, variant: variant)
        if variant == .mhealthtools && cleaned.count < 5 { return .failed(variant, tooFewUniqueRows) }

        // Depress events: the taps around a jump of the demeaned x of more than the threshold.
        let n = cleaned.count
        guard n > 0 else { return .failed(variant, variant == .mhealthtools ? tooFewRows : noDepressEvents) }
        let t0 = samples[cleaned[0]].timestamp
        var xs = [Double](repeating: 0, count: n)
        for i in 0..<n { xs[i] = samples[cleaned[i]].location.x }
        let xMean = RStatistics.mean(xs)
        var kept: [Int] = []  // indices into `cleaned`
        kept.reserveCapacity(n)
        if variant == .mhealthtools { kept.append(0) }
        for i in 0..<(n - 1) {
            let dx = (xs[i + 1] - xMean) - (xs[i] - xMean)
            if dx.magnitude > depressThreshold { kept.append(variant == .mhealthtools ? i + 1 : i) }
        }
        if variant == .mhealthtools && kept.count < 5 { return .failed(variant, tooFewDepressEvents) }
        if kept.isEmpty { return .failed(variant, noDepressEvents) }

        let m = kept.count
        var keptX = [Double](repeating: 0, count: m)
        var keptY = [Double](repeating: 0, count: m)
        var noneCount = 0
        var intervals = [Double](repeating: 0, count: Swift.max(m - 1, 0))
        var previousTime = 0.0
        for (j, i) in kept.enumerated() {
            let s = samples[cleaned[i]]
            keptX[j] = s.location.x
            keptY[j] = s.location.y
            if s.button == .none { noneCount += 1 }
            let time = s.timestamp - t0  // R: tap_time <- t - t[1], then diff(tap_time[i])
            if j > 0 { intervals[j - 1] = time - previousTime }
            previousTime = time
        }

        // Drift: distance between consecutive taps on the same side of the kept taps' mean x.
        let keptMean = RStatistics.mean(keptX)
        var leftDrift: [Double] = []
        var rightDrift: [Double] = []
        leftDrift.reserveCapacity(m)
        rightDrift.reserveCapacity(m)
        var lastLeft: Int?
        var lastRight: Int?
        for j in 0..<m {
            if keptX[j] < keptMean {
                if let p = lastLeft { leftDrift.append(distance(keptX, keptY, p, j)) }
                lastLeft = j
            } else {
                if let p = lastRight { rightDrift.append(distance(keptX, keptY, p, j)) }
                lastRight = j
            }
        }

        let interval = summary(intervals, variant: variant)
        let shortSeries = variant == .mpower2016 && intervals.count < 3
        let acf =
            shortSeries || intervals.isEmpty
            ? [Double.nan, .nan, .nan] : RStatistics.autocorrelation(intervals, maxLag: 2)
        let fatigue = shortSeries ? (Double.nan, Double.nan, Double.nan) : fatigueFeatures(intervals)
        return TappingFeatures(
            variant: variant, intervals: interval,
            tkeo: shortSeries ? .nan : RStatistics.meanTKEO(intervals),
            dfa: variant == .mpower2016 ? RStatistics.detrendedFluctuationExponent(intervals, sumOrder: 1) : .nan,
            ar1: acf[1], ar2: acf[2], fatigue10: fatigue.0, fatigue25: fatigue.1, fatigue50: fatigue.2,
            driftLeft: summary(leftDrift, variant: variant), driftRight: summary(rightDrift, variant: variant),
            numberTaps: m, buttonNoneFreq: Double(noneCount) / Double(m),
            corXY: RStatistics.correlation(keptX, keptY, missing: .pairwiseComplete), error: nil)
    }

    // MARK: - Steps

    /// The indices of the taps the R code keeps, in its order.
    ///
    /// mhealthtools (`clean_tapped_button_none`): left/right taps, then the `none` taps whose (x, y) does not
    /// repeat an earlier `none` tap's exactly; mPower 2016 (`CleanTappedButtonNone`): left taps, right taps, then
    /// the `none` taps whose (x, y), printed to R's 15 significant digits, repeats no earlier row (button rows and
    /// earlier `none` rows).
    /// Then a stable sort by timestamp (R's `order`), so ties keep that order.
    static func cleanedOrder(_ samples: [TapSample], variant: TappingVariant) -> [Int] {
        var order: [Int] = []
        order.reserveCapacity(samples.count)
        switch variant {
        case .mhealthtools:
            for (i, s) in samples.enumerated() where s.button != .none { order.append(i) }
            var seen = Set<PointKey>()
            for (i, s) in samples.enumerated() where s.button == .none {
                if seen.insert(PointKey(s.location.x, s.location.y)).inserted { order.append(i) }
            }
        case .mpower2016:
            for button in [TapButton.left, .right] {
                for (i, s) in samples.enumerated() where s.button == button { order.append(i) }
            }
            let buttonRows = order.count
            for (i, s) in samples.enumerated() where s.button == .none {
                // A duplicate of any earlier row (button rows, then earlier none rows, kept or not).
                var duplicate = false
                for j in order.prefix(buttonRows) where sameAsRCharacters(samples[j].location, s.location) {
                    duplicate = true
                    break
                }
                if !duplicate {
                    for j in samples.indices.prefix(i) where samples[j].button == .none {
                        if sameAsRCharacters(samples[j].location, s.location) {
                            duplicate = true
                            break
                        }
                    }
                }
                if !duplicate { order.append(i) }
            }
        }
        // Stable: sort by (timestamp, position in `order`).
        var keyed = order.enumerated().map { (position: $0.offset, index: $0.element) }
        keyed.sort { a, b in
            let ta = samples[a.index].timestamp, tb = samples[b.index].timestamp
            return ta < tb || (ta == tb && a.position < b.position)
        }
        return keyed.map(\.index)
    }

    /// Exact (x, y) equality as R's `duplicated` on a data frame of doubles (−0 equals 0).
    struct PointKey: Hashable {
        var x: Double
        var y: Double
        init(_ x: Double, _ y: Double) {
            self.x = x + 0  // −0 → 0
            self.y = y + 0
        }
    }

    /// True when R's `duplicated` on a numeric matrix would call the two rows equal.
    ///
    /// R compares rows pasted as text, each number as `as.character` prints it: 15 significant digits. Values that far apart in the 15th digit cannot print alike, so the text is only
    /// made for the rare near-equal pairs.
    static func sameAsRCharacters(_ a: ViewPoint, _ b: ViewPoint) -> Bool {
        func near(_ u: Double, _ v: Double) -> Bool { u == v || abs(u - v) <= 1e-14 * Swift.max(abs(u), abs(v)) }
        guard near(a.x, b.x), near(a.y, b.y) else { return false }
        if a.x == b.x && a.y == b.y { return true }
        func text(_ p: ViewPoint) -> String { String(format: "%.15g\r%.15g", p.x + 0, p.y + 0) }
        return text(a) == text(b)
    }

    /// √(dx² + dy²) between kept taps `a` and `b`, as R's `sqrt(dx^2 + dy^2)`.
    static func distance(_ x: [Double], _ y: [Double], _ a: Int, _ b: Int) -> Double {
        let dx = x[b] - x[a]
        let dy = y[b] - y[a]
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The eleven statistics with the variant's estimators.
    static func summary(_ x: [Double], variant: TappingVariant) -> TappingSeriesSummary {
        let span = x.span
        let skew: Double, kur: Double, cv: Double
        switch variant {
        case .mhealthtools:
            skew = RStatistics.skewness(span, estimator: .sample)
            kur = RStatistics.kurtosis(span, estimator: .sample)
            cv = RStatistics.coefficientOfVariation(span)
        case .mpower2016:
            (skew, kur) = x.count < 3 ? (.nan, .nan) : populationMoments(x)
            cv = x.count < 3 ? .nan : RStatistics.coefficientOfVariation(span)
        }
        let order = RStatistics.orderSummary(span)
        return TappingSeriesSummary(
            mean: RStatistics.mean(span), median: order.median, iqr: order.interquartileRange, min: order.minimum,
            max: order.maximum, skew: skew, kur: kur, sd: RStatistics.standardDeviation(span),
            mad: order.medianAbsoluteDeviation, cv: cv, range: order.maximum - order.minimum)
    }

    /// mPower 2016's `Skewness` and `Kurtosis`: `mean((x − μ)^3) / mean((x − μ)^2)^(3/2)` and
    /// `mean((x − μ)^4) / mean((x − μ)^2)^2`, each `mean` R's.
    static func populationMoments(_ x: [Double]) -> (skew: Double, kur: Double) {
        let mu = RStatistics.mean(x)
        var d2 = [Double](repeating: 0, count: x.count)
        var d3 = d2
        var d4 = d2
        for i in x.indices {
            let d = x[i] - mu
            d2[i] = d * d
            d3[i] = Foundation.pow(d, 3)
            d4[i] = Foundation.pow(d, 4)
        }
        let m2 = RStatistics.mean(d2)
        return (RStatistics.mean(d3) / Foundation.pow(m2, 1.5), RStatistics.mean(d4) / (m2 * m2))
    }

    /// mhealthtools' `fatigue(x)`: mean of the first k values minus the mean of the values k+1 from the end
    /// (`mean(x[1:k]) - mean(x[(n - k):n])`) for k = R `round(0.1 n)`, `round(0.25 n)` and ⌊0.5 n⌋, with R's
    /// indexing: k = 0 takes `x[1]` and `x[n]`.
    static func fatigueFeatures(_ x: [Double]) -> (Double, Double, Double) {
        let n = x.count
        guard n > 0 else { return (.nan, .nan, .nan) }
        func fatigue(_ k: Int) -> Double {
            let head = k >= 1 ? x[0..<k] : x[0..<1]  // R: 1:0 is c(1, 0), and x[0] selects nothing
            let from = Swift.max(n - k, 1)  // R index (n - k), 1-based
            let tail = x[(from - 1)..<n]
            return RStatistics.mean(head.span) - RStatistics.mean(tail.span)
        }
        let count = Double(n)
        return (
            fatigue(Int(RStatistics.round(0.1 * count))), fatigue(Int(RStatistics.round(0.25 * count))),
            fatigue(Int((0.5 * count).rounded(.down)))
        )
    }
}
