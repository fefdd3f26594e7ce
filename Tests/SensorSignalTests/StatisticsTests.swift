import RealModule
import SensorSignal
import Testing

// Parity of `RStatistics` with R itself. The expected values come from Reference/statistics.json, which
// Tools/reference/statistics_reference.R writes (its "generator" entry names the R and e1071 versions).

extension StatisticsReferenceCase {
    /// The input vector: the literal, or the formula R used, rebuilt with the same IEEE operations in the same order.
    var samples: [Double] {
        if let input { return input }
        switch name {
        case "modular1000":
            return (1...1000).map { (i: Int) -> Double in
                let a = Double((i * 7919) % 1009), b = Double(i % 3)
                return a / 97 - 4 + b * 0.001
            }
        case "taps181":
            return (1...181).map { (i: Int) -> Double in 0.15 + Double((i * 37) % 23) / 200 }
        default:
            Issue.record("no formula for reference case \(name)")
            return []
        }
    }

    /// (statistic, Swift result, R result) for every statistic the reference records.
    var comparisons: [(statistic: String, actual: Double, expected: Double)] {
        let x = samples
        var rows: [(String, Double, Double)] = [
            ("mean", RStatistics.mean(x), mean),
            ("var", RStatistics.variance(x), variance),
            ("sd", RStatistics.standardDeviation(x.span), standardDeviation),
            ("median", RStatistics.median(x), median),
            ("IQR", RStatistics.interquartileRange(x), interquartileRange),
            ("mad", RStatistics.medianAbsoluteDeviation(x), medianAbsoluteDeviation),
            ("coef_var", RStatistics.coefficientOfVariation(x), coefficientOfVariation),
            ("diff(range)", RStatistics.range(x), range),
            ("mean_tkeo", RStatistics.meanTKEO(x), meanTKEO),
        ]
        let probabilities = StatisticsReference.probabilities
        let batch = RStatistics.quantiles(x, probabilities: probabilities)
        for (k, p) in probabilities.enumerated() {
            rows.append(("quantile(\(p))", RStatistics.quantile(x, probability: p), quantiles[k]))
            rows.append(("quantiles[\(p)]", batch[k], quantiles[k]))
        }
        let estimators: [RStatistics.ShapeEstimator] = [.population, .adjusted, .sample]
        for (type, estimator) in estimators.enumerated() {
            rows.append(("skewness type \(type + 1)", RStatistics.skewness(x, estimator: estimator), skewness[type]))
            rows.append(("kurtosis type \(type + 1)", RStatistics.kurtosis(x, estimator: estimator), kurtosis[type]))
        }
        let acf = RStatistics.autocorrelation(x, maxLag: StatisticsReference.maxLag)
        for lag in autocorrelation.indices { rows.append(("acf lag \(lag)", acf[lag], autocorrelation[lag])) }
        return rows
    }
}

extension CorrelationReferenceCase {
    var comparisons: [(statistic: String, actual: Double, expected: Double)] {
        [
            ("cor everything", RStatistics.correlation(x, y), everything),
            ("cor pairwise", RStatistics.correlation(x.span, y.span, missing: .pairwiseComplete), pairwise),
        ]
    }
}

/// Distance in units in the last place (0 for equal values, both NaN, or equal infinities).
private func ulpDistance(_ a: Double, _ b: Double) -> UInt64 {
    if a.isNaN || b.isNaN { return a.isNaN && b.isNaN ? 0 : .max }
    if a == b { return 0 }
    func ordered(_ v: Double) -> Int64 {
        let bits = Int64(bitPattern: v.bitPattern)
        return bits < 0 ? Int64.min &- bits : bits
    }
    return ordered(a) > ordered(b)
        ? UInt64(bitPattern: ordered(a) &- ordered(b)) : UInt64(bitPattern: ordered(b) &- ordered(a))
}

/// R's result within a relative tolerance (plus a small absolute one for values that are 0 in exact arithmetic);
/// NaN must match NaN and infinities must be equal.
private func matchesR(_ actual: Double, _ expected: Double) -> Bool {
    if actual.isNaN || expected.isNaN { return actual.isNaN && expected.isNaN }
    if !actual.isFinite || !expected.isFinite { return actual == expected }
    return actual.isApproximatelyEqual(to: expected, absoluteTolerance: 1e-13, relativeTolerance: 1e-12)
}

@Suite struct StatisticsTests {
    // MARK: Parity with R

    @Test(arguments: StatisticsReference.cases)
    func descriptiveStatisticsMatchR(reference: StatisticsReferenceCase) {
        if reference.input == nil {  // the Swift formula rebuilds exactly the vector R used
            let x = reference.samples
            #expect(x.count == reference.count)
            #expect(Array(x.prefix(3)) == reference.head)
            #expect(x.last == reference.last)
        }
        for row in reference.comparisons {
            #expect(
                matchesR(row.actual, row.expected),
                "\(row.statistic): Swift \(row.actual), R \(row.expected)")
        }
    }

    @Test(arguments: StatisticsReference.correlations)
    func correlationMatchesR(reference: CorrelationReferenceCase) {
        for row in reference.comparisons {
            #expect(matchesR(row.actual, row.expected), "\(row.statistic): Swift \(row.actual), R \(row.expected)")
        }
    }

    /// On x86-64, where Swift's `Float80` is R's `long double`, the results are R's to the last bit.
    @Test(.enabled(if: StatisticsTests.longDoubleIsX87))
    func resultsAreBitIdenticalToROnX86() {
        var mismatches: [String] = []
        for reference in StatisticsReference.cases {
            for row in reference.comparisons where ulpDistance(row.actual, row.expected) != 0 {
                mismatches.append("\(reference.name) \(row.statistic): \(ulpDistance(row.actual, row.expected)) ulp")
            }
        }
        for reference in StatisticsReference.correlations {
            for row in reference.comparisons where ulpDistance(row.actual, row.expected) != 0 {
                mismatches.append("\(reference.name) \(row.statistic): \(ulpDistance(row.actual, row.expected)) ulp")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "; "))")
    }

    static var longDoubleIsX87: Bool {
        #if arch(x86_64) || arch(i386)
            true
        #else
            false
        #endif
    }

    // MARK: Rounding (exactness is the point)

    @Test(arguments: StatisticsReference.rounding)
    func roundMatchesRExactly(reference: RoundReferenceCase) {
        let actual = RStatistics.round(reference.x, digits: reference.digits)
        #expect(actual.bitPattern == reference.expected.bitPattern, "Swift \(actual), R \(reference.expected)")
    }

    @Test func roundHalfToEvenClassics() {
        #expect(RStatistics.round(0.5) == 0)
        #expect(RStatistics.round(1.5) == 2)
        #expect(RStatistics.round(2.5) == 2)
        #expect(RStatistics.round(-2.5) == -2)
        #expect(RStatistics.round(-0.5).sign == .minus && RStatistics.round(-0.5) == 0)
        #expect(RStatistics.round(0.125, digits: 2) == 0.12)  // 0.125 is exact: a true tie, to even
        // 2.675 is stored as 2.674999999999999822…, 0.15 as 0.149999999999999994…: the stored decimal decides.
        #expect(RStatistics.round(2.675, digits: 2) == 2.67)
        #expect(RStatistics.round(0.15, digits: 1) == 0.1)
        #expect(RStatistics.round(1250, digits: -2) == 1200)
        #expect(RStatistics.round(.nan).isNaN)
        #expect(RStatistics.round(-.infinity, digits: 2) == -.infinity)
        // mhealthtools' fatigue window sizes: round(0.1 n) and round(0.25 n) go to even on exact halves.
        #expect(RStatistics.round(0.1 * 5) == 0)
        #expect(RStatistics.round(0.25 * 10) == 2)
        #expect(RStatistics.round(0.25 * 6) == 2)
    }

    // MARK: Edge cases

    @Test func emptyInputGivesNaNAndNeverTraps() {
        let empty: [Double] = []
        let scalars = [
            RStatistics.mean(empty), RStatistics.variance(empty), RStatistics.standardDeviation(empty),
            RStatistics.median(empty), RStatistics.quantile(empty, probability: 0.5),
            RStatistics.interquartileRange(empty), RStatistics.medianAbsoluteDeviation(empty),
            RStatistics.skewness(empty), RStatistics.kurtosis(empty, estimator: .population),
            RStatistics.coefficientOfVariation(empty), RStatistics.meanTKEO(empty),
            RStatistics.correlation(empty, empty), RStatistics.correlation(empty, empty, missing: .pairwiseComplete),
        ]
        #expect(scalars.allSatisfy { $0.isNaN })
        #expect(RStatistics.quantiles(empty, probabilities: [0, 1]).allSatisfy { $0.isNaN })
        #expect(RStatistics.autocorrelation(empty, maxLag: 2).count == 3)
        #expect(RStatistics.autocorrelation(empty, maxLag: 2).allSatisfy { $0.isNaN })
        #expect(RStatistics.range(empty) == -.infinity)  // R: diff(range(numeric(0))) is -Inf
    }

    @Test func autocorrelationAlwaysHasMaxLagPlusOneValues() throws {
        #expect(RStatistics.autocorrelation([5.0], maxLag: 2).count == 3)
        #expect(RStatistics.autocorrelation([5.0], maxLag: 2)[0] == 1)  // R: acf of one value is 1
        let two = RStatistics.autocorrelation([1.0, 3.0], maxLag: 3)
        #expect(two[0] == 1)
        #expect(two[1] == -0.5)  // c(1) = (−1·1)/2, c(0) = 2/2
        #expect(two[2].isNaN && two[3].isNaN)  // R returns only lags 0…n−1
        #expect(RStatistics.autocorrelation([2.0, 2.0, 2.0], maxLag: 1).allSatisfy { $0.isNaN })  // constant: 0/0
        #expect(RStatistics.autocorrelation([1.0, 2.0, 3.0], maxLag: 0) == [1])
    }

    @Test func quantileProbabilityHandling() {
        let x: [Double] = [4, 1, 3, 2]
        #expect(RStatistics.quantile(x, probability: .nan).isNaN)
        #expect(RStatistics.quantile(x, probability: 1 + 50 * .ulpOfOne) == 4)  // within R's 100 ε: clamped
        #expect(RStatistics.quantile(x, probability: -50 * .ulpOfOne) == 1)
        #expect(RStatistics.quantile(x, probability: 0.5) == 2.5)
        #expect(RStatistics.quantiles(x, probabilities: []) == [])
    }

    @Test func quantileOutsideUnitIntervalIsAProgrammerError() async {
        await #expect(processExitsWith: .failure) {
            _ = RStatistics.quantile([1.0, 2.0], probability: 1.5)
        }
    }

    @Test func nanHandlingFollowsR() {
        let x: [Double] = [0.2, .nan, 0.4, 0.35, 0.3]
        #expect(RStatistics.mean(x).isNaN)  // mean(x) without na.rm
        #expect(RStatistics.median(x).isNaN)
        #expect(RStatistics.skewness(x).isNaN)  // e1071 returns NA
        #expect(RStatistics.autocorrelation(x, maxLag: 1).allSatisfy { $0.isNaN })  // na.fail
        // mhealthtools' coef_var and mean_tkeo drop NAs first.
        let clean: [Double] = [0.2, 0.4, 0.35, 0.3]
        #expect(RStatistics.coefficientOfVariation(x) == RStatistics.coefficientOfVariation(clean))
        #expect(RStatistics.meanTKEO(x) == RStatistics.meanTKEO(clean))
        #expect(RStatistics.correlation(x, clean + [1]).isNaN)
        #expect(!RStatistics.correlation(x, clean + [1], missing: .pairwiseComplete).isNaN)
    }

    @Test func madUsesRsConstantAndShapeEstimatorsAreConsistent() {
        #expect(RStatistics.medianAbsoluteDeviation([1, 2, 3, 4, 100]) == 1.4826)
        #expect(RStatistics.medianAbsoluteDeviation([1, 2, 3, 4, 100], constant: 1) == 1)
        let x: [Double] = [1, 1, 1, 2, 2, 3, 10, 50]
        let n = Double(x.count)
        let g1 = RStatistics.skewness(x, estimator: .population)
        #expect(
            RStatistics.skewness(x).isApproximatelyEqual(
                to: g1 * ((n - 1) / n) * ((n - 1) / n).squareRoot(), relativeTolerance: 1e-14))
        let g2 = RStatistics.kurtosis(x, estimator: .population)
        #expect(
            RStatistics.kurtosis(x).isApproximatelyEqual(
                to: (g2 + 3) * ((n - 1) / n) * ((n - 1) / n) - 3, relativeTolerance: 1e-14))
        #expect(RStatistics.skewness([1.0, 2.0], estimator: .adjusted).isNaN)  // e1071 needs n ≥ 3
        #expect(RStatistics.kurtosis([1.0, 2.0, 4.0], estimator: .adjusted).isNaN)  // and n ≥ 4
    }

    @Test func spanAndArrayOverloadsAgree() {
        let x: [Double] = [0.187, 0.201, 0.176, 0.0, 0.214, 0.193, 0.834]
        #expect(RStatistics.mean(x.span) == RStatistics.mean(x))
        #expect(RStatistics.median(x.span) == RStatistics.median(x))
        #expect(RStatistics.medianAbsoluteDeviation(x.span) == RStatistics.medianAbsoluteDeviation(x))
        #expect(RStatistics.meanTKEO(x.span) == RStatistics.meanTKEO(x))
        #expect(RStatistics.autocorrelation(x.span, maxLag: 2) == RStatistics.autocorrelation(x, maxLag: 2))
        #expect(RStatistics.kurtosis(x.span) == RStatistics.kurtosis(x))
    }
}
