import RealModule
import SensorSignal
import Testing

/// Readable scalar reference implementations: one left-to-right loop each, in `Double`.
///
/// Sums are compensated (Neumaier), so the reference is accurate to about one ulp and the SIMD result's own error
/// bound can be checked.
private enum ScalarReference {
    static func compensatedSum(_ terms: some Sequence<Double>) -> Double {
        var sum = 0.0, compensation = 0.0
        for t in terms {
            let next = sum + t
            compensation += sum.magnitude >= t.magnitude ? (sum - next) + t : (t - next) + sum
            sum = next
        }
        return sum + compensation
    }
    static func sum(_ x: [Double]) -> Double { compensatedSum(x) }
    static func sumOfSquares(_ x: [Double]) -> Double { compensatedSum(x.lazy.map { $0 * $0 }) }
    static func dot(_ x: [Double], _ y: [Double]) -> Double { compensatedSum(x.indices.lazy.map { x[$0] * y[$0] }) }
    static func sumOfMagnitudes(_ x: [Double]) -> Double {
        var s = 0.0
        for v in x { s += v.magnitude }
        return s
    }
    /// Index of the first minimum, or of the first NaN.
    static func argmin(_ x: [Double]) -> Int? {
        if let nan = x.firstIndex(where: \.isNaN) { return nan }
        guard var best = x.indices.first else { return nil }
        for i in x.indices where x[i] < x[best] { best = i }
        return best
    }
    /// Index of the first maximum, or of the first NaN.
    static func argmax(_ x: [Double]) -> Int? {
        if let nan = x.firstIndex(where: \.isNaN) { return nan }
        guard var best = x.indices.first else { return nil }
        for i in x.indices where x[i] > x[best] { best = i }
        return best
    }
    /// Textbook two-pass variance.
    static func variance(_ x: [Double], denominatorOffset: Int) -> Double {
        let mean = sum(x) / Double(x.count)
        return compensatedSum(x.lazy.map { ($0 - mean) * ($0 - mean) }) / Double(x.count - denominatorOffset)
    }
}

/// Deterministic samples in [-1, 1) plus an offset, from a 64-bit LCG (Knuth's MMIX constants).
private func lcgSamples(count: Int, seed: UInt64, offset: Double) -> [Double] {
    var state = seed
    return (0..<count).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) * 0x1p-52 - 1 + offset
    }
}

/// Generated once (debug builds make a million-sample generator noticeably slow) and shared by all tests.
private enum Fixture {
    static let largest = ReductionsTests.lengths.max() ?? 0
    static let x = lcgSamples(count: largest, seed: 0x9E37_79B9_7F4A_7C15, offset: 0.25)
    static let y = lcgSamples(count: largest, seed: 42, offset: -0.1)
}

/// |a − b| ≤ tolerance · scale, with NaN equal to NaN.
private func close(_ a: Double, _ b: Double, tolerance: Double, scale: Double) -> Bool {
    if a.isNaN || b.isNaN { return a.isNaN && b.isNaN }
    if a == b { return true }
    return (a - b).magnitude <= tolerance * Swift.max(scale, .leastNormalMagnitude)
}

/// First-order error bound of the 16-lane reductions relative to Σ|terms|: (n/16 + 20) ε.
private func simdBound(_ count: Int) -> Double { Double(count / 16 + 20) * .ulpOfOne }

@Suite struct ReductionsTests {
    static let lengths = Array(0...17) + [31, 32, 33, 1000, 1_000_003]

    // MARK: Double

    @Test(arguments: lengths)
    func doubleSumsMatchScalarReference(count: Int) {
        let x = Array(Fixture.x.prefix(count)), y = Array(Fixture.y.prefix(count))
        let magnitude = ScalarReference.sumOfMagnitudes(x)
        let bound = simdBound(count)
        #expect(close(Reductions.sum(x), ScalarReference.sum(x), tolerance: bound, scale: magnitude))
        #expect(close(Reductions.sum(x.span), ScalarReference.sum(x), tolerance: bound, scale: magnitude))
        let squares = ScalarReference.sumOfSquares(x)
        #expect(close(Reductions.sumOfSquares(x), squares, tolerance: bound, scale: squares))
        let dotScale = ScalarReference.dot(x.map(\.magnitude), y.map(\.magnitude))
        #expect(close(Reductions.dot(x, y), ScalarReference.dot(x, y), tolerance: bound, scale: dotScale))
        if count == 0 {
            #expect(Reductions.sum(x) == 0)
            #expect(Reductions.sumOfSquares(x) == 0)
            #expect(Reductions.dot(x, y) == 0)
        }
    }

    @Test(arguments: lengths)
    func doubleExtremaMatchScalarReference(count: Int) throws {
        let x = Array(Fixture.x.prefix(count))
        #expect(Reductions.argmin(x) == ScalarReference.argmin(x))
        #expect(Reductions.argmax(x) == ScalarReference.argmax(x))
        guard count > 0 else {
            #expect(Reductions.min(x).isNaN)
            #expect(Reductions.max(x).isNaN)
            return
        }
        #expect(Reductions.min(x) == x.min())
        #expect(Reductions.max(x) == x.max())
        let argmin = try #require(Reductions.argmin(x))
        #expect(x[argmin] == x.min())
    }

    @Test(arguments: lengths)
    func doubleMeanAndVarianceMatchScalarReference(count: Int) {
        let x = Array(Fixture.x.prefix(count))
        guard count > 0 else {
            #expect(Reductions.mean(x).isNaN)
            #expect(Reductions.variance(x).isNaN)
            #expect(Reductions.variance(x, estimator: .population).isNaN)
            return
        }
        let mean = ScalarReference.sum(x) / Double(count)
        let meanScale = ScalarReference.sumOfMagnitudes(x) / Double(count)
        #expect(close(Reductions.mean(x), mean, tolerance: simdBound(count), scale: meanScale))
        let population = ScalarReference.variance(x, denominatorOffset: 0)
        let bound = 4 * simdBound(count)
        #expect(close(Reductions.variance(x, estimator: .population), population, tolerance: bound, scale: population))
        #expect(
            close(
                Reductions.standardDeviation(x.span, estimator: .population), population.squareRoot(), tolerance: bound,
                scale: population.squareRoot()))
        if count == 1 {
            #expect(Reductions.variance(x).isNaN)
            #expect(Reductions.variance(x, estimator: .population) == 0)
        } else {
            let sample = ScalarReference.variance(x, denominatorOffset: 1)
            #expect(close(Reductions.variance(x), sample, tolerance: bound, scale: sample))
            #expect(
                Reductions.standardDeviation(x).isApproximatelyEqual(to: sample.squareRoot(), relativeTolerance: bound))
        }
    }

    // MARK: Float

    @Test(arguments: lengths)
    func floatReductionsMatchDoubleReferenceRoundedOnce(count: Int) {
        let x = Fixture.x.prefix(count).map { Float($0) }, y = Fixture.y.prefix(count).map { Float($0) }
        let xd = x.map(Double.init), yd = y.map(Double.init)
        // Accumulated in Double and rounded once: within a Float ulp or two of the Double reference.
        let tolerance = 2 * Double(Float.ulpOfOne)
        #expect(
            close(
                Double(Reductions.sum(x)), ScalarReference.sum(xd), tolerance: tolerance,
                scale: ScalarReference.sumOfMagnitudes(xd)))
        let squares = ScalarReference.sumOfSquares(xd)
        #expect(close(Double(Reductions.sumOfSquares(x.span)), squares, tolerance: tolerance, scale: squares))
        let dotScale = ScalarReference.dot(xd.map(\.magnitude), yd.map(\.magnitude))
        #expect(close(Double(Reductions.dot(x, y)), ScalarReference.dot(xd, yd), tolerance: tolerance, scale: dotScale))
        #expect(Reductions.argmin(x) == ScalarReference.argmin(xd))
        #expect(Reductions.argmax(x.span) == ScalarReference.argmax(xd))
        if count == 0 {
            #expect(Reductions.sum(x) == 0)
            #expect(Reductions.min(x).isNaN && Reductions.max(x).isNaN && Reductions.mean(x).isNaN)
            #expect(Reductions.variance(x, estimator: .population).isNaN)
            return
        }
        #expect(Reductions.min(x) == x.min())
        #expect(Reductions.max(x) == x.max())
        let meanScale = ScalarReference.sumOfMagnitudes(xd) / Double(count)
        #expect(
            close(
                Double(Reductions.mean(x)), ScalarReference.sum(xd) / Double(count), tolerance: tolerance,
                scale: meanScale))
        let population = ScalarReference.variance(xd, denominatorOffset: 0)
        #expect(
            close(
                Double(Reductions.variance(x, estimator: .population)), population, tolerance: tolerance,
                scale: population))
        if count > 1 {
            let sample = ScalarReference.variance(xd, denominatorOffset: 1)
            #expect(close(Double(Reductions.variance(x.span)), sample, tolerance: tolerance, scale: sample))
            #expect(
                close(
                    Double(Reductions.standardDeviation(x)), sample.squareRoot(), tolerance: tolerance,
                    scale: sample.squareRoot()))
        }
    }

    // MARK: Precision

    @Test func tenMillionFloatTenthsSumToTheCorrectlyRoundedExactValue() {
        let x = [Float](repeating: 0.1, count: 10_000_000)
        // Float(0.1) · 10⁷ is exact in Double (a multiple of 2⁻²⁷ below 2⁵³); a Float accumulator gives 1 087 937.
        let exact = Double(Float(0.1)) * 10_000_000
        #expect(Reductions.sum(x) == Float(exact))
        #expect(Reductions.mean(x) == Float(0.1))
    }

    @Test(arguments: [Double(0), 1e6, 1e9])
    func varianceSurvivesALargeOffset(offset: Double) {
        // Digits 0…9 repeated: population variance exactly 8.25 whatever the offset. E[x²] − E[x]² would lose it all
        // at 1e9 (x² ≈ 1e18 has an ulp of 128).
        let n = 100_000
        let x = (0..<n).map { offset + Double($0 % 10) }
        #expect(Reductions.variance(x, estimator: .population).isApproximatelyEqual(to: 8.25, relativeTolerance: 1e-9))
        #expect(
            Reductions.variance(x).isApproximatelyEqual(to: 8.25 * Double(n) / Double(n - 1), relativeTolerance: 1e-9))
        let xf = (0..<n).map { Float(offset / 1000) + Float($0 % 10) }
        // Float samples are widened and reduced in Double: still exact here (offsets up to 1e6 plus a digit are exact).
        #expect(
            Double(Reductions.variance(xf, estimator: .population)).isApproximatelyEqual(
                to: 8.25, relativeTolerance: 1e-9))
    }

    @Test func constantInputHasZeroVariance() {
        for count in [1, 2, 5, 16, 17, 1001] {
            let x = [Double](repeating: 0.1, count: count)
            #expect(Reductions.variance(x, estimator: .population) == 0)
            if count > 1 { #expect(Reductions.variance(x) >= 0 && Reductions.variance(x) < 1e-30) }
        }
    }

    // MARK: NaN and infinities

    @Test(arguments: [0, 3, 4, 15, 16, 17, 35, 36])
    func nanPropagatesFromEveryPosition(position: Int) {
        var x = Array(Fixture.x.prefix(37))
        x[position] = .nan
        let xf = x.map { Float($0) }
        #expect(Reductions.sum(x).isNaN && Reductions.sum(xf).isNaN)
        #expect(Reductions.sumOfSquares(x).isNaN && Reductions.sumOfSquares(xf).isNaN)
        #expect(Reductions.dot(x, x).isNaN && Reductions.dot(xf, xf).isNaN)
        #expect(Reductions.min(x).isNaN && Reductions.min(xf).isNaN)
        #expect(Reductions.max(x).isNaN && Reductions.max(xf).isNaN)
        #expect(Reductions.argmin(x) == position && Reductions.argmin(xf) == position)
        #expect(Reductions.argmax(x) == position && Reductions.argmax(xf) == position)
        #expect(Reductions.mean(x).isNaN && Reductions.mean(xf).isNaN)
        #expect(Reductions.variance(x).isNaN && Reductions.variance(xf).isNaN)
    }

    @Test func infinitiesBehaveLikeAPlainLoop() {
        var x = Array(Fixture.x.prefix(40))
        x[21] = .infinity
        #expect(Reductions.sum(x) == .infinity)
        #expect(Reductions.max(x) == .infinity && Reductions.argmax(x) == 21)
        #expect(Reductions.variance(x).isNaN)  // ∞ − ∞ in the deviations, as in a two-pass loop
        x[5] = -.infinity
        #expect(Reductions.sum(x).isNaN)
        #expect(Reductions.min(x) == -.infinity && Reductions.argmin(x) == 5)
    }

    @Test func argExtremaReturnTheFirstOfTiedValues() {
        let x: [Double] = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 9, 1, 9, 0.5, 0.5, 9, 0.5]
        #expect(Reductions.argmin(x) == 14)
        #expect(Reductions.argmax(x) == 5)
        let xf = x.map { Float($0) }
        #expect(Reductions.argmin(xf) == 14)
        #expect(Reductions.argmax(xf) == 5)
    }

    @Test func dotWithMismatchedLengthsIsAProgrammerError() async {
        await #expect(processExitsWith: .failure) {
            _ = Reductions.dot([1.0, 2.0], [1.0])
        }
    }
}
