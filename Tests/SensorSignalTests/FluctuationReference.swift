// R's cumsum and fractal::DFA results, read from Reference/fluctuation.json (written by
// Tools/reference/fluctuation_reference.R; see Reference/README.md).

import TestSupport
import Testing

/// One series with R's `cumsum` and `fractal::DFA(x, sum.order = k)[[1]]` for k = 0 and 1 (NaN where DFA stops).
struct FluctuationReferenceCase: Sendable, CustomTestStringConvertible, Decodable {
    var name: String
    var series: [Double]
    var cumulativeSum: [Double]
    var dfaSumOrder0: Double
    var dfaSumOrder1: Double
    var testDescription: String { name }
}

enum FluctuationReference {
    private struct File: Decodable {
        var cases: [FluctuationReferenceCase]
    }

    static let cases = loadReference(File.self, "fluctuation.json").cases
}
