import Foundation
import Testing

@testable import SensorSignal

/// `EmpiricalModeDecomposition` and its fmm `CubicSpline` against R's `EMD::emd` / `splinefun` (Reference/emd.json
/// and emd/, from Tools/reference/emd_reference.R) and against hand-checkable physics.
@Suite struct EmpiricalModeDecompositionTests {
    /// Worst |Swift − R| / max |R| over one vector (0 when both are empty).
    static func relativeDifference(_ actual: [Double], _ expected: [Double]) -> Double {
        guard actual.count == expected.count else { return .infinity }
        let scale = expected.reduce(0) { max($0, abs($1)) }
        var worst = 0.0
        for (a, e) in zip(actual, expected) {
            let difference = abs(a - e)
            if !(difference <= worst) { worst = difference }  // NaN propagates as a failure
        }
        return scale > 0 ? worst / scale : worst
    }

    // MARK: Parity with R

    /// The largest relative difference from R allowed in the parity tests.
    ///
    /// Measured on x86-64 Linux against R 4.2.2 / EMD 1.5.9: every IMF, residue and spline value is bit-identical
    /// (worst relative difference 0 in every case), and ``bitIdentical`` pins that. Elsewhere (no `Float80` for R's
    /// `long double` cumsum) the bound leaves room only for last-bit differences.
    static let parityBound = 1e-12
    #if arch(x86_64)
        static let bitIdentical = true
    #else
        static let bitIdentical = false
    #endif

    /// Whether `actual` and `expected` hold the same doubles, bit for bit.
    static func sameBits(_ actual: [Double], _ expected: [Double]) -> Bool {
        actual.count == expected.count && zip(actual, expected).allSatisfy { $0.bitPattern == $1.bitPattern }
    }

    @Test(arguments: EMDReference.emdCases)
    func matchesREMD(_ reference: EMDReferenceCase) throws {
        let result = try #require(
            EmpiricalModeDecomposition.decompose(
                reference.x, times: reference.times, maximumIMFs: reference.maximumIMFs))
        #expect(result.imfs.count == reference.imfCount)
        try #require(result.imfs.count == reference.imfs.count)
        for (k, (imf, expected)) in zip(result.imfs, reference.imfs).enumerated() {
            let difference = Self.relativeDifference(imf, expected)
            #expect(difference <= Self.parityBound, "IMF \(k + 1): worst relative difference \(difference)")
            if Self.bitIdentical { #expect(Self.sameBits(imf, expected), "IMF \(k + 1)") }
        }
        let difference = Self.relativeDifference(result.residue, reference.residue)
        #expect(difference <= Self.parityBound, "residue: worst relative difference \(difference)")
        if Self.bitIdentical { #expect(Self.sameBits(result.residue, reference.residue), "residue") }
    }

    @Test(arguments: EMDReference.splineCases)
    func matchesRSplinefun(_ reference: SplineReferenceCase) {
        let spline = CubicSpline(x: reference.x, y: reference.y)
        let values = spline.evaluate(at: reference.points)
        let difference = Self.relativeDifference(values, reference.values)
        #expect(difference <= Self.parityBound, "worst relative difference \(difference)")
        if Self.bitIdentical { #expect(Self.sameBits(values, reference.values)) }
    }

    // MARK: Physics and hand checks

    /// 1.5 Hz + 0.5 · 11 Hz at 100 Hz for 6 s: the first IMF is the 11 Hz tone; the 1.5 Hz tone is what remains
    /// (the second IMF plus the residue: with only 20 sifts part of it stays in the residue, up to 0.23 here).
    @Test func twoTonesSeparateAwayFromTheEnds() throws {
        let times = (0..<600).map { Double($0) / 100 }
        let slow = times.map { sin(2 * Double.pi * 1.5 * $0) }
        let fast = times.map { 0.5 * sin(2 * Double.pi * 11 * $0) }
        let x = zip(slow, fast).map { $0 + $1 }
        let result = try #require(EmpiricalModeDecomposition.decompose(x, times: times, maximumIMFs: 2))
        try #require(result.imfs.count == 2)
        let middle = 100..<500  // 1 s away from either end
        let fastError = middle.map { abs(result.imfs[0][$0] - fast[$0]) }.max() ?? .infinity
        let slowError = middle.map { abs(result.imfs[1][$0] + result.residue[$0] - slow[$0]) }.max() ?? .infinity
        #expect(fastError < 0.02, "IMF 1 vs the 11 Hz tone (amplitude 0.5): \(fastError), measured 0.0134")
        #expect(slowError < 0.02, "IMF 2 + residue vs the 1.5 Hz tone (amplitude 1): \(slowError), measured 0.0134")
        // The 11 Hz tone is not in the second IMF: its zero crossings are ~0.1 s or more apart, not 0.045 s.
        let crossings = middle.dropFirst().filter { (result.imfs[1][$0 - 1] < 0) != (result.imfs[1][$0] < 0) }
        #expect(crossings.count < 20, "IMF 2 has \(crossings.count) zero crossings in 4 s")
    }

    @Test(arguments: EMDReference.emdCases)
    func imfsAndResidueReconstructTheSignal(_ reference: EMDReferenceCase) throws {
        let result = try #require(
            EmpiricalModeDecomposition.decompose(reference.x, times: reference.times, maximumIMFs: 10))
        let scale = reference.x.reduce(0) { max($0, abs($1)) }
        for i in reference.x.indices {
            let sum = result.imfs.reduce(result.residue[i]) { $0 + $1[i] }
            #expect(abs(sum - reference.x[i]) <= 1e-12 * scale, "sample \(i)")
        }
        for imf in result.imfs { #expect(imf.count == reference.x.count) }
    }

    @Test func splineReproducesACubic() {
        let cubic = { (u: Double) in 0.5 * u * u * u - 2 * u * u + u - 3 }
        let knots = [-2.0, -1.3, 0, 0.4, 1.9, 2, 3.7, 5, 6.25, 8]
        let spline = CubicSpline(x: knots, y: knots.map(cubic))
        let points = stride(from: -3.0, through: 9, by: 0.05).map { $0 }
        for (u, value) in zip(points, spline.evaluate(at: points)) {
            let expected = cubic(u)
            #expect(abs(value - expected) <= 1e-12 * max(1, abs(expected)), "u = \(u)")
        }
    }

    @Test func splineInterpolatesItsKnots() {
        let x = [0.0, 0.7, 1.1, 2.5, 3, 4.4]
        let y = [1.0, -2, 0.5, 3, 2.5, -1]
        let values = CubicSpline(x: x, y: y).evaluate(at: x)
        for (value, expected) in zip(values, y) { #expect(abs(value - expected) <= 1e-14 * 4) }
    }

    @Test func extremaFollowRPlateauRules() {
        var minima: [Int] = [], maxima: [Int] = []
        // R: extrema(c(0, 2, 2, 1, 1, 1, 3, 0))$maxindex rows (2, 3), (7, 7); minindex (4, 6) (1-based).
        let count = EmpiricalModeDecomposition.extrema(of: [0, 2, 2, 1, 1, 1, 3, 0], minima: &minima, maxima: &maxima)
        #expect(count == 3)
        #expect(maxima == [1, 2, 6])
        #expect(minima == [3, 5])
        #expect(EmpiricalModeDecomposition.extrema(of: [1, 1, 2, 2, 3], minima: &minima, maxima: &maxima) == 0)
        #expect(minima.isEmpty && maxima.isEmpty)
        #expect(EmpiricalModeDecomposition.extrema(of: [], minima: &minima, maxima: &maxima) == 0)
    }

    // MARK: Degenerate input

    @Test func degenerateInputNeverTraps() {
        let decompose = { (x: [Double], t: [Double]) in
            EmpiricalModeDecomposition.decompose(x, times: t, maximumIMFs: 2)
        }
        // Too short, constant or monotone: no IMF, the signal is the residue (R: imf NULL, nimf 0).
        let flat: [[Double]] = [
            [], [1], [1, 2], [3, 1, 2], [1, 3, 2, 4], [Double](repeating: 2, count: 50), (0..<50).map(Double.init),
        ]
        for x in flat {
            let t = x.indices.map(Double.init)
            #expect(decompose(x, t) == EmpiricalModeDecomposition.Result(imfs: [], residue: x), "\(x.prefix(5))")
        }
        // Where R stops with an error.
        let x = (0..<40).map { sin(Double($0)) }
        let t = x.indices.map { Double($0) / 100 }
        #expect(decompose(x, Array(t.dropLast())) == nil)
        for bad in [Double.nan, .infinity, -.infinity] {
            var withBad = x
            withBad[7] = bad
            #expect(decompose(withBad, t) == nil)
            var badTimes = t
            badTimes[7] = bad
            #expect(decompose(x, badTimes) == nil)
        }
        // No IMF asked for; an absurd request is bounded.
        #expect(EmpiricalModeDecomposition.decompose(x, times: t, maximumIMFs: 0)?.imfs.isEmpty == true)
        #expect(EmpiricalModeDecomposition.decompose(x, times: t, maximumIMFs: -3)?.residue == x)
        let many = EmpiricalModeDecomposition.decompose(x, times: t, maximumIMFs: .max)
        #expect((many?.imfs.count ?? .max) <= EmpiricalModeDecomposition.maximumIMFLimit)
        // Equal or decreasing times and huge magnitudes do not trap.
        #expect(decompose(x, [Double](repeating: 0, count: x.count)) != nil)
        #expect(decompose(x, t.reversed()) != nil)
        _ = decompose(x.map { $0 * 1e308 }, t)
    }
}
