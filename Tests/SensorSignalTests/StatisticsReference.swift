// R's results for the RStatistics parity tests, read from Reference/statistics.json (written by
// Tools/reference/statistics_reference.R; see Reference/README.md).

import TestSupport

/// R's results for one input vector (NaN where R gives NA/NaN or stops with an error).
struct StatisticsReferenceCase: Sendable, CustomStringConvertible {
    var name: String
    /// The literal input, or nil for a formula input that StatisticsTests rebuilds (checked by count/head/last).
    var input: [Double]?
    var count = 0, head: [Double] = [], last = 0.0
    var mean, variance, standardDeviation, median: Double
    /// `quantile(x, p, type = 7)` at ``StatisticsReference/probabilities``.
    var quantiles: [Double]
    var interquartileRange, medianAbsoluteDeviation: Double
    /// e1071 types 1, 2, 3.
    var skewness, kurtosis: [Double]
    var coefficientOfVariation, range, meanTKEO: Double
    /// `acf(x, lag.max = 3)`, padded with NaN where R returns fewer lags or fails.
    var autocorrelation: [Double]
    var description: String { name }
}

extension StatisticsReferenceCase: Decodable {
    private enum CodingKeys: String, CodingKey {
        case name, input, count, head, last, mean, variance, standardDeviation, median, quantiles
        case interquartileRange, medianAbsoluteDeviation, skewness, kurtosis, coefficientOfVariation, range, meanTKEO
        case autocorrelation
    }

    /// `count`, `head` and `last` are in the file for a formula input only (`input` null); otherwise 0, [] and 0.
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func value<T: Decodable>(_ key: CodingKeys) throws -> T { try c.decode(T.self, forKey: key) }
        try self.init(
            name: value(.name), input: c.decodeIfPresent([Double].self, forKey: .input),
            count: c.decodeIfPresent(Int.self, forKey: .count) ?? 0,
            head: c.decodeIfPresent([Double].self, forKey: .head) ?? [],
            last: c.decodeIfPresent(Double.self, forKey: .last) ?? 0, mean: value(.mean), variance: value(.variance),
            standardDeviation: value(.standardDeviation), median: value(.median), quantiles: value(.quantiles),
            interquartileRange: value(.interquartileRange), medianAbsoluteDeviation: value(.medianAbsoluteDeviation),
            skewness: value(.skewness), kurtosis: value(.kurtosis),
            coefficientOfVariation: value(.coefficientOfVariation), range: value(.range), meanTKEO: value(.meanTKEO),
            autocorrelation: value(.autocorrelation))
    }
}

/// R's `cor(x, y)` (use = "everything") and `cor(x, y, use = "p")` for one pair.
struct CorrelationReferenceCase: Sendable, CustomStringConvertible, Decodable {
    var name: String
    var x, y: [Double]
    var everything, pairwise: Double
    var description: String { name }
}

/// R's `round(x, digits)` for one value.
struct RoundReferenceCase: Sendable, CustomStringConvertible, Decodable {
    var x: Double
    var digits: Int
    var expected: Double
    var description: String { "round(\(x), \(digits))" }
}

enum StatisticsReference {
    private struct File: Decodable {
        var rVersion: String
        var probabilities: [Double]
        var maxLag: Int
        var cases: [StatisticsReferenceCase]
        var correlations: [CorrelationReferenceCase]
        var rounding: [RoundReferenceCase]
    }

    private static let file = loadReference(File.self, "statistics.json")
    static let rVersion = file.rVersion
    static let probabilities = file.probabilities
    static let maxLag = file.maxLag
    static let cases = file.cases
    static let correlations = file.correlations
    static let rounding = file.rounding
}
