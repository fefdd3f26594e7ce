import RealModule
import Testing

@testable import SensorSignal

/// `RStatistics.cumulativeSum` and `detrendedFluctuationExponent` against analytic answers and R / fractal 2.0-4.
@Suite struct FluctuationTests {
    @Test func cumulativeSumAccumulatesInExtendedPrecision() {
        #expect(RStatistics.cumulativeSum([1, 2, 3.5]) == [1, 3, 6.5])
        #expect(RStatistics.cumulativeSum([Double]()) == [])
        // R: cumsum(c(1e16, 1, 1)) is 1e16, 10000000000000002 (long double keeps the first 1)
        #expect(RStatistics.cumulativeSum([1e16, 1, 1])[2] == 10_000_000_000_000_002)
    }

    @Test func blockSizesFollowFractalsLogScale() {
        // fractal stops (NA) for N < 18: trunc(N/2) ≤ 8 leaves fewer than two scales.
        for n in [0, 7, 8, 16, 17] { #expect(RStatistics.dfaBlockSizes(seriesLength: n) == nil, "N = \(n)") }
        #expect(RStatistics.dfaBlockSizes(seriesLength: 18) == [4, 8])
        #expect(RStatistics.dfaBlockSizes(seriesLength: 40) == [4, 8, 16])
        #expect(RStatistics.dfaBlockSizes(seriesLength: 162) == [4, 8, 16, 32, 64])
    }

    @Test func shortOrDegenerateSeriesGiveNaN() {
        #expect(RStatistics.detrendedFluctuationExponent([Double](repeating: 0.1, count: 10)).isNaN)
        // A constant series sums to a line; each block's mean removal leaves a non-zero fluctuation, but a zero
        // series leaves none: ln 0 = −∞ and R's lm stops.
        #expect(RStatistics.detrendedFluctuationExponent([Double](repeating: 0, count: 40)).isNaN)
        #expect(RStatistics.detrendedFluctuationExponent([1, .nan] + [Double](repeating: 1, count: 30)).isNaN)
    }

    @Test func linearProfileScalesWithExponentOne() {
        // A constant series of ones integrates to 1, 2, …, N: every block of size s is a ramp whose deviations from
        // its mean have RMS √((s² − 1)/12); over sizes 4, 8, 16 the fitted log-log slope is close to 1 and
        // is exactly the weighted slope of ln √((s² − 1)/12) on ln s.
        let sizes = [4.0, 8, 16]
        let logF = sizes.map { (($0 * $0 - 1) / 12).squareRoot() }.map { Foundation_log($0) }
        let expected = RStatistics.weightedSlope(x: sizes.map(Foundation_log), y: logF)
        let alpha = RStatistics.detrendedFluctuationExponent([Double](repeating: 1, count: 40), sumOrder: 1)
        #expect(abs(alpha - expected) < 1e-12)
        #expect(abs(alpha - 1) < 0.05)
    }

    @Test func weightedSlopeRecoversALine() {
        let x = [1.0, 2, 3, 4, 5]
        #expect(abs(RStatistics.weightedSlope(x: x, y: x.map { 3 - 0.5 * $0 }) + 0.5) < 1e-15)
        #expect(RStatistics.weightedSlope(x: [2, 2], y: [1, 3]).isNaN)
    }

    @Test(arguments: FluctuationReference.cases)
    func matchesRAndFractal(_ reference: FluctuationReferenceCase) {
        #expect(RStatistics.cumulativeSum(reference.series) == reference.cumulativeSum)
        for (order, expected) in [(0, reference.dfaSumOrder0), (1, reference.dfaSumOrder1)] {
            let alpha = RStatistics.detrendedFluctuationExponent(reference.series, sumOrder: order)
            if expected.isNaN {
                #expect(alpha.isNaN, "sum.order \(order)")
            } else {
                #expect(abs(alpha - expected) <= 1e-12 * abs(expected), "sum.order \(order): \(alpha) vs \(expected)")
            }
        }
    }
}

/// The C library's natural logarithm (RealModule).
private func Foundation_log(_ x: Double) -> Double { Double.log(x) }
