import RealModule
import SensorSignal
import TestSupport
import Testing

@Suite struct PeaksTests {
    // MARK: - scipy reference

    @Test("find_peaks matches scipy 1.17.1", arguments: SignalReference.peakCases)
    func matchesScipy(_ reference: PeakReferenceCase) throws {
        let signal = SignalReference.signal(named: reference.signal)
        let peaks = findPeaks(
            in: signal, height: reference.height, threshold: reference.threshold, distance: reference.distance,
            prominence: reference.prominence, width: reference.width, windowLength: reference.windowLength,
            relativeHeight: reference.relativeHeight, plateauSize: reference.plateauSize)

        #expect(peaks.indices == reference.indices)
        try #require(peaks.count == reference.indices.count)
        if let heights = reference.heights { expectClose(peaks.heights, heights) }
        if let left = reference.leftThresholds { expectClose(peaks.leftThresholds, left) }
        if let right = reference.rightThresholds { expectClose(peaks.rightThresholds, right) }
        if let sizes = reference.plateauSizes { #expect(peaks.plateauSizes == sizes) }
        if let left = reference.leftEdges { #expect(peaks.leftEdges == left) }
        if let right = reference.rightEdges { #expect(peaks.rightEdges == right) }

        if let prominences = reference.prominences {
            let computed = try #require(peaks.prominence)
            expectClose(computed.prominences, prominences)
            #expect(computed.leftBases == reference.leftBases)
            #expect(computed.rightBases == reference.rightBases)
        } else {
            #expect(peaks.prominence == nil)
        }
        if let widths = reference.widths {
            let computed = try #require(peaks.width)
            expectClose(computed.widths, widths)
            expectClose(computed.widthHeights, try #require(reference.widthHeights))
            expectClose(computed.leftIntersections, try #require(reference.leftIntersections))
            expectClose(computed.rightIntersections, try #require(reference.rightIntersections))
        } else {
            #expect(peaks.width == nil)
        }
    }

    @Test func standaloneProminencesAndWidthsMatchFindPeaks() throws {
        let signal = SignalReference.formula
        let all = findPeaks(in: signal, prominence: .unbounded, width: .unbounded)
        let prominences = peakProminences(in: signal, peaks: all.indices)
        #expect(prominences == all.prominence)
        let widths = peakWidths(in: signal, peaks: all.indices)
        #expect(widths == all.width)
        let windowed = peakProminences(in: signal, peaks: all.indices, windowLength: 9)
        let reference = try #require(
            SignalReference.peakCases.first { $0.windowLength == 9 }?.prominences)
        expectClose(windowed.prominences, reference)
    }

    // MARK: - Definition of a peak

    @Test(
        arguments: [
            ([], []),
            ([1.0], []),
            ([0.0, 1.0], []),
            ([0.0, 1.0, 0.0], [1]),
            ([0.0, 1.0, 1.0, 0.0], [1]),  // even plateau: middle rounded down
            ([0.0, 1.0, 1.0, 1.0, 0.0], [2]),
            ([0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0], [3]),
            ([2.0, 1.0, 0.0], []),  // a high first sample is not a peak
            ([0.0, 1.0, 2.0], []),  // nor a high last sample
            ([0.0, 1.0, 1.0], []),  // nor a plateau touching the end
            ([1.0, 1.0, 0.0], []),
            ([0.0, 1.0, 1.0, 2.0, 0.0], [3]),  // a shoulder is not a peak
            ([0.0, 1.0, .nan, 2.0, 0.0], []),  // comparisons with NaN are false, as in scipy's C loop
        ] as [([Double], [Int])])
    func localMaxima(signal: [Double], expected: [Int]) {
        #expect(findPeaks(in: signal).indices == expected)
    }

    @Test func spanAndArrayOverloadsAgree() {
        let signal = SignalReference.formula
        let fromArray = findPeaks(in: signal, height: 0, distance: 3, prominence: 0.2, width: 1)
        let fromSpan = findPeaks(in: signal.span, height: 0, distance: 3, prominence: 0.2, width: 1)
        #expect(fromArray == fromSpan)
        #expect(!fromArray.isEmpty)
    }

    @Test func boundsForms() {
        #expect(PeakBounds(0.5...) == .atLeast(0.5))
        #expect(PeakBounds(...2) == .atMost(2))
        #expect(PeakBounds(0.5...2) == .between(0.5, 2))
        let literal: PeakBounds = 3
        #expect(literal == .atLeast(3))
        #expect(PeakBounds.between(1, 2).contains(1) && PeakBounds.between(1, 2).contains(2))
        #expect(!PeakBounds.atLeast(0).contains(.nan) && !PeakBounds.atMost(0).contains(.nan))
        #expect(PeakBounds.unbounded.contains(.nan))  // scipy's (None, None) keeps everything
    }

    @Test func propertiesAreOnlyComputedWhenRequested() {
        let signal = SignalReference.formula
        let plain = findPeaks(in: signal)
        #expect(plain.prominence == nil && plain.width == nil)
        #expect(plain.heights == plain.indices.map { signal[$0] })
        let withProminence = findPeaks(in: signal, prominence: .unbounded)
        #expect(withProminence.indices == plain.indices)
        #expect(withProminence.prominence != nil && withProminence.width == nil)
    }

    // MARK: - Physics and invariants

    /// A cosine at `frequency` Hz sampled at `rate` Hz peaks exactly every `rate / frequency` samples.
    @Test(arguments: [(100.0, 2.0), (50.0, 1.0), (15.0, 1.5), (100.0, 0.5)])
    func cosinePeaksAtItsPeriod(rate: Double, frequency: Double) {
        let period = Int(rate / frequency)
        let count = 4 * period + period / 2 + 1  // ends on a trough, so the last peak has full prominence
        let signal = (0..<count).map { Double.cos(2 * .pi * frequency * Double($0) / rate) }
        let peaks = findPeaks(in: signal, height: 0.5)
        #expect(peaks.indices == (1...4).map { $0 * period })
        for height in peaks.heights {
            #expect(height.isApproximatelyEqual(to: 1, relativeTolerance: 1e-12))
        }
        let prominences = findPeaks(in: signal, prominence: .unbounded).prominence?.prominences ?? []
        for prominence in prominences {
            #expect(prominence.isApproximatelyEqual(to: 2, relativeTolerance: 1e-9))
        }
    }

    /// On noise, every pair of kept peaks is at least `distance` apart, and no removed peak is higher than
    /// all kept peaks within `distance` of it (the highest-first rule).
    @Test(arguments: [2, 5, 17, 60])
    func distanceRuleOnNoise(distance: Int) {
        var generator = LinearCongruential(seed: UInt64(distance))
        let signal = (0..<2_000).map { _ in generator.nextUnit() }
        let candidates = findPeaks(in: signal)
        let kept = findPeaks(in: signal, distance: distance)
        // 2000 samples with at least `distance` between peaks hold many of them; the spacing check needs two.
        #expect(kept.indices.count >= 2)
        for (a, b) in zip(kept.indices, kept.indices.dropFirst()) {
            #expect(b - a >= distance)
        }
        let keptSet = Set(kept.indices)
        for candidate in candidates.indices where !keptSet.contains(candidate) {
            let suppressor = kept.indices.contains {
                abs($0 - candidate) < distance && signal[$0] >= signal[candidate]
            }
            #expect(suppressor, "peak \(candidate) was removed without a higher kept peak nearby")
        }
        #expect(kept.count < candidates.count || distance == 2)
    }

    /// An impulse train at a known cadence on a low baseline: every impulse is a peak with prominence = amplitude.
    @Test(arguments: [7, 25, 100])
    func impulseTrain(cadence: Int) throws {
        var signal = [Double](repeating: 0.1, count: cadence * 10 + 3)
        for k in 1...10 { signal[k * cadence] = 3.1 }
        let peaks = findPeaks(in: signal, height: 1, distance: cadence - 1, prominence: 2.5, width: .unbounded)
        #expect(peaks.indices == (1...10).map { $0 * cadence })
        let prominences = try #require(peaks.prominence).prominences
        expectClose(prominences, [Double](repeating: 3.0, count: 10))
        let widths = try #require(peaks.width).widths
        expectClose(widths, [Double](repeating: 1.0, count: 10))
    }
}

/// `actual` and `expected` have the same length and agree to 1e-12 relative (1e-12 absolute near zero).
private func expectClose(
    _ actual: [Double], _ expected: [Double], tolerance: Double = 1e-12,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(actual.count == expected.count, sourceLocation: sourceLocation)
    #expect(!expected.isEmpty, "nothing to compare", sourceLocation: sourceLocation)
    for (index, (a, e)) in zip(actual, expected).enumerated() {
        #expect(
            a.isApproximatelyEqual(to: e, absoluteTolerance: tolerance, relativeTolerance: tolerance),
            "element \(index): \(a) vs \(e)", sourceLocation: sourceLocation)
    }
}

/// A tiny deterministic generator (Knuth's MMIX LCG) so noise tests are reproducible.
private struct LinearCongruential {
    var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 }
    mutating func nextUnit() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
}
