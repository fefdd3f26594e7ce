import Foundation
import TestSupport
import Testing

@testable import ActiveTasks

/// Issue 16 in the report's charts: values across the whole `Double` range are binned, never a trap.
@Suite(.tags(.hostileInput)) struct SVGChartHostileValueTests {
    /// Values near ±1.8e308 made the histogram's range overflow to ∞ and `Int(NaN)` trapped.
    @Test func theReportHistogramTakesTheWholeDoubleRange() {
        let bins = SVGChart.histogram([1e308, -1e308, 0, 1.7e308, -1.7e308])
        #expect(bins.count == 5)
        #expect(bins.map(\.y).reduce(0, +) == 5)
        // Five equal bins of width 6.8e307 from −1.7e308: one value in each.
        #expect(bins.map(\.y) == [1, 1, 1, 1, 1])
        #expect(bins.allSatisfy { $0.x0.isFinite && $0.x1.isFinite })
    }
}
