import Testing

@testable import SensorSignal

/// `RStatistics.orderSummary` against R's values in Reference/statistics.json (statistics_reference.R).
@Suite struct OrderSummaryTests {
    @Test func matchesRsMedianIQRMADAndRange() {
        for reference in StatisticsReference.cases {
            guard let x = reference.input else { continue }  // formula inputs are rebuilt in StatisticsTests
            let s = RStatistics.orderSummary(x)
            func same(_ a: Double, _ b: Double) -> Bool { a.isNaN ? b.isNaN : a == b }
            #expect(same(reference.median, s.median), "\(reference.name) median")
            #expect(same(reference.interquartileRange, s.interquartileRange), "\(reference.name) IQR")
            #expect(same(reference.medianAbsoluteDeviation, s.medianAbsoluteDeviation), "\(reference.name) MAD")
            if x.isEmpty {
                #expect(s.minimum == .infinity && s.maximum == -.infinity)  // R: min/max of numeric(0)
            } else {
                #expect(same(reference.range, s.maximum - s.minimum), "\(reference.name) range")
            }
        }
    }
}
