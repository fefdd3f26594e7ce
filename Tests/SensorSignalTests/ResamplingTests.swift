import RealModule
import SensorSignal
import Testing

@Suite struct ResamplingTests {
    // MARK: - resample_poly against scipy 1.17.1

    @Test("resample_poly matches scipy 1.17.1", arguments: SignalReference.polyCases)
    func polyphaseMatchesScipy(_ reference: PolyReferenceCase) {
        let resampler = PolyphaseResampler(up: reference.up, down: reference.down)
        let output = resampler.resample(SignalReference.polySignal)
        #expect(resampler.outputCount(forInputCount: SignalReference.polySignal.count) == reference.output.count)
        expectClose(output, reference.output, tolerance: 1e-12)
    }

    @Test func firwinMatchesScipy() {
        let taps = FIRDesign.lowpass(tapCount: 41, cutoff: 0.5, kaiserBeta: 5)
        // The odd taps are sin(πk) ≈ 1e-17 in scipy; compare absolutely at that level.
        expectClose(taps, SignalReference.firwin41, tolerance: 1e-15)
        let resampler = PolyphaseResampler(up: 2, down: 1)
        #expect(resampler.halfLength == 20)
        expectClose(resampler.taps, SignalReference.firwin41.map { 2 * $0 }, tolerance: 1e-15)
    }

    @Test func kaiserWindowAndBesselMatchScipy() {
        expectClose(FIRDesign.kaiserWindow(count: 9, beta: 5), SignalReference.kaiser9, tolerance: 1e-14)
        let values = SignalReference.besselI0Arguments.map(FIRDesign.besselI0)
        expectClose(values, SignalReference.besselI0Values, tolerance: 1e-14)
        #expect(FIRDesign.kaiserWindow(count: 1, beta: 5) == [1])
        #expect(FIRDesign.kaiserWindow(count: 0, beta: 5).isEmpty)
        #expect(FIRDesign.besselI0(-2.5) == FIRDesign.besselI0(2.5))
    }

    /// The polyphase loop equals the textbook definition: zero-stuff, convolve with `h`, keep every `down`-th
    /// sample starting at `halfLength` (a scalar reference kept here only for comparison).
    @Test(arguments: [(1, 2), (2, 1), (3, 2), (2, 3), (5, 4), (7, 3), (1, 7), (160, 147)], [0, 1, 2, 5, 37])
    func polyphaseEqualsZeroStuffedConvolution(factors: (Int, Int), count: Int) {
        let (up, down) = factors
        let resampler = PolyphaseResampler(up: up, down: down)
        let signal = (0..<count).map { Double.sin(0.3 * Double($0)) + 0.1 * Double($0 % 3) }
        let expected = naiveResample(signal, up: resampler.up, down: resampler.down, taps: resampler.taps)
        let output = resampler.resample(signal)
        #expect(output.count == (count * resampler.up + resampler.down - 1) / resampler.down)
        expectClose(output, expected, tolerance: 1e-13)
    }

    @Test func factorsAreReducedByTheirGreatestCommonDivisor() {
        let reduced = PolyphaseResampler(up: 4, down: 2)
        #expect(reduced.up == 2 && reduced.down == 1)
        #expect(reduced == PolyphaseResampler(up: 2, down: 1))
        let identity = PolyphaseResampler(up: 3, down: 3)
        #expect(identity.resample(SignalReference.polySignal) == SignalReference.polySignal)
    }

    @Test(arguments: [(1, 2), (3, 2), (2, 3), (160, 147)])
    func designedFilterHasGainUp(factors: (Int, Int)) {
        let resampler = PolyphaseResampler(up: factors.0, down: factors.1)
        #expect(resampler.taps.count == 20 * max(resampler.up, resampler.down) + 1)
        let dcGain = resampler.taps.reduce(0, +)
        #expect(dcGain.isApproximatelyEqual(to: Double(resampler.up), relativeTolerance: 1e-12))
    }

    @Test func customFilterIsScaledByUp() {
        let filter = [0.25, 0.5, 0.25]
        let resampler = PolyphaseResampler(up: 2, down: 1, filter: filter)
        #expect(resampler.taps == [0.5, 1, 0.5] && resampler.halfLength == 1)
        // Linear interpolation: originals kept, midpoints averaged, last midpoint against the zero padding.
        #expect(resampler.resample([2, 4, 8]) == [2, 3, 4, 6, 8, 4])
    }

    // MARK: - Physics

    /// A tone well inside the passband keeps amplitude and phase: y[m] ≈ sin(2πf·m·down/(up·fs)).
    @Test(arguments: [(1, 2), (3, 2), (2, 3), (4, 5), (160, 147)], [1.0, 3.0])
    func lowFrequencySineKeepsAmplitudeAndPhase(factors: (Int, Int), frequency: Double) {
        let rate = 100.0
        let signal = (0..<2_000).map { Double.sin(2 * .pi * frequency * Double($0) / rate) }
        let resampler = PolyphaseResampler(up: factors.0, down: factors.1)
        let output = resampler.resample(signal)
        let outputRate = rate * Double(resampler.up) / Double(resampler.down)
        // Skip the ends, where the filter runs into zero padding.
        let margin = Int((Double(resampler.halfLength) / Double(resampler.down)).rounded(.up)) + 1
        var worst = 0.0
        for m in margin..<(output.count - margin) {
            let expected = Double.sin(2 * .pi * frequency * Double(m) / outputRate)
            worst = max(worst, abs(output[m] - expected))
        }
        #expect(worst < 2e-3, "largest deviation \(worst)")
    }

    /// A 45 Hz tone (0.9 × input Nyquist) is suppressed by at least 40 dB when downsampling.
    ///
    /// Downsampling by 2 moves Nyquist from 50 Hz to 25 Hz, so without the filter the tone would alias to 5 Hz.
    @Test(arguments: [(1, 2), (2, 5), (1, 3)])
    func toneAboveNewNyquistIsAttenuated(factors: (Int, Int)) {
        let rate = 100.0
        let frequency = 0.9 * rate / 2
        let signal = (0..<4_000).map { Double.sin(2 * .pi * frequency * Double($0) / rate) }
        let resampler = PolyphaseResampler(up: factors.0, down: factors.1)
        let output = resampler.resample(signal)
        let margin = resampler.halfLength / resampler.down + 2
        let middle = output[margin..<(output.count - margin)]
        let rms = (middle.reduce(0) { $0 + $1 * $1 } / Double(middle.count)).squareRoot()
        #expect(rms < 0.01 * (0.5).squareRoot(), "output RMS \(rms)")
    }

    // MARK: - Uniform resampling of irregular timestamps

    /// Resampling uniform samples at their own rate returns every sample unchanged.
    @Test(arguments: [15.0, 50.0, 64.0, 100.0], [0.0, 1_700_000_000.0])
    func uniformInputIsUnchanged(rate: Double, start: Double) throws {
        let count = 300
        let timestamps = (0..<count).map { start + Double($0) / rate }
        let x = (0..<count).map { Double.sin(0.05 * Double($0)) }
        let y = (0..<count).map { Double($0 % 7) }
        let result = try UniformResampling(timestamps: timestamps, channels: [x, y], rate: rate)
        let segment = try #require(result.segments.first)
        #expect(result.segments.count == 1 && result.report.gaps.isEmpty)
        #expect(segment.count == count && segment.gridOffset == 0)
        #expect(result.report.outputCount == count)
        // Epoch-sized timestamps are only resolved to ~2e-7 s, so allow that much time error.
        let tolerance = start == 0 ? 1e-12 : 1e-4
        expectClose(segment.channels[0], x, tolerance: tolerance)
        expectClose(segment.channels[1], y, tolerance: tolerance)
        #expect(result.report.medianRate.isApproximatelyEqual(to: rate, relativeTolerance: start == 0 ? 1e-9 : 1e-4))
        #expect(result.report.backwardSteps == 0 && result.report.duplicatesDropped == 0)
    }

    @Test func dyadicUniformInputIsBitIdentical() throws {
        let timestamps = (0..<256).map { 1_000 + Double($0) / 64 }
        let values = (0..<256).map { Double.cos(Double($0)) }
        let result = try UniformResampling(timestamps: timestamps, channels: [values], rate: 64)
        #expect(result.segments.map(\.channels) == [[values]])
        #expect(result.segments[0].times == timestamps)
    }

    /// Linear interpolation reproduces a linear function exactly, whatever the jitter.
    @Test(arguments: [25.0, 40.0, 100.0, 333.0])
    func irregularLinearFunctionIsInterpolatedExactly(rate: Double) throws {
        let timestamps = (0..<400).map { 5 + Double($0) * 0.02 + 0.006 * Double.sin(1.7 * Double($0)) }
        let a = timestamps.map { 3 + 2 * $0 }
        let b = timestamps.map { -0.5 * $0 }
        let result = try UniformResampling(
            timestamps: timestamps, channels: [a, b], rate: rate, options: ResamplingOptions(gapFactor: nil))
        #expect(result.segments.count == 1)
        let segment = try #require(result.segments.first)
        #expect(segment.count == Int(((timestamps.last! - timestamps[0]) * rate).rounded(.down)) + 1)
        for (i, time) in segment.times.enumerated() {
            #expect(time >= timestamps.first! && time <= timestamps.last!)
            #expect(segment.channels[0][i].isApproximatelyEqual(to: 3 + 2 * time, relativeTolerance: 1e-12))
            #expect(segment.channels[1][i].isApproximatelyEqual(to: -0.5 * time, relativeTolerance: 1e-12))
        }
        #expect(result.report.medianRate > 45 && result.report.medianRate < 55)
    }

    @Test func gapsAreReportedAndNotBridged() throws {
        // 100 Hz from 0 to 1 s, nothing until 1.5 s, then 100 Hz to 2 s.
        let timestamps = (0...100).map { Double($0) / 100 } + (150...200).map { Double($0) / 100 }
        let values = timestamps.map { 10 * $0 }
        let result = try UniformResampling(timestamps: timestamps, channels: [values], rate: 50)
        let report = result.report

        #expect(report.gaps.count == 1)
        let gap = try #require(report.gaps.first)
        #expect(gap.start == 1.0 && gap.end == 1.5 && gap.sampleIndex == 101)
        #expect(gap.duration.isApproximatelyEqual(to: 0.5, relativeTolerance: 1e-12))
        #expect(report.medianRate.isApproximatelyEqual(to: 100, relativeTolerance: 1e-9))
        #expect(report.intervalOutliers == 1)

        try #require(result.segments.count == 2)
        #expect(report.segmentCount == 2)
        let (before, after) = (result.segments[0], result.segments[1])
        #expect(before.count == 51 && after.count == 26)
        #expect(before.inputRange == 0..<101 && after.inputRange == 101..<152)
        #expect(after.gridOffset == 75)
        for segment in result.segments {
            for time in segment.times { #expect(time <= gap.start || time >= gap.end) }
        }
        #expect(report.outputCount == 77)

        let contiguous = result.contiguousChannels()[0]
        #expect(contiguous.count == 101)
        #expect(contiguous[51..<75].allSatisfy { $0.isNaN })
        #expect(contiguous[50] == 10 && contiguous[75] == 15)
    }

    @Test func absoluteGapLimit() throws {
        let timestamps = [0.0, 0.1, 0.2, 0.35, 0.45, 0.55]
        let values = [0.0, 1, 2, 3, 4, 5]
        let relativeOnly = try UniformResampling(timestamps: timestamps, channels: [values], rate: 10)
        #expect(relativeOnly.report.gaps.isEmpty)
        let absolute = try UniformResampling(
            timestamps: timestamps, channels: [values], rate: 10,
            options: ResamplingOptions(gapFactor: nil, maximumInterval: 0.12))
        #expect(absolute.report.gaps.map(\.sampleIndex) == [3])
        #expect(absolute.segments.map(\.inputRange) == [0..<3, 3..<6])
    }

    @Test func duplicatesAndBackwardStepsAreCounted() throws {
        let timestamps = [0.00, 0.01, 0.03, 0.02, 0.04, 0.04, 0.05, 0.03, 0.06]
        let values = [0.0, 1, 3, 2, 4, 99, 5, 77, 6]
        let result = try UniformResampling(timestamps: timestamps, channels: [values], rate: 100)
        let report = result.report
        #expect(report.inputCount == 9)
        #expect(report.backwardSteps == 2 && report.wasReordered)
        #expect(report.duplicatesDropped == 2)
        #expect(report.conflictingDuplicates == 2)
        // The first sample in input order wins: 0.03 → 3 (not 77), 0.04 → 4 (not 99).
        let segment = try #require(result.segments.first)
        expectClose(segment.channels[0], [0, 1, 2, 3, 4, 5, 6], tolerance: 1e-12)
        #expect(report.outputCount == 7 && report.gaps.isEmpty)
    }

    @Test func identicalDuplicatesAreNotConflicting() throws {
        let result = try UniformResampling(
            timestamps: [0, 1, 1, 2], channels: [[5, 6, 6, 7], [.nan, .nan, .nan, 1]], rate: 1)
        #expect(result.report.duplicatesDropped == 1 && result.report.conflictingDuplicates == 0)
        #expect(result.report.nonFiniteValues == 2)
    }

    /// Whole-millisecond timestamps of an 80 Hz stream (stepcount#51): intervals are 12 or 13 ms, so the median
    /// says 83.3 or 76.9 Hz; the mean over inlier intervals recovers 80 Hz.
    @Test func quantisedTimestampsMeanRate() throws {
        let timestamps = (0..<2_400).map { (Double($0) * 12.5).rounded(.down) / 1_000 }
        let result = try UniformResampling(
            timestamps: timestamps, channels: [timestamps.map { _ in 1 }], rate: 80)
        #expect(result.report.meanRate.isApproximatelyEqual(to: 80, relativeTolerance: 1e-3))
        #expect(result.report.gaps.isEmpty && result.report.duplicatesDropped == 0)
    }

    /// Jitter, a few bursts and one long pause do not move the median rate.
    @Test func robustRateEstimate() throws {
        var timestamps: [Double] = []
        var time = 0.0
        for i in 0..<3_000 {
            timestamps.append(time)
            var step = 0.01 + 0.0015 * Double.sin(Double(i) * 2.3)
            if i % 97 == 0 { step = 0.001 }  // burst
            if i == 1_500 { step = 3 }  // app backgrounded
            time += step
        }
        let result = try UniformResampling(timestamps: timestamps, channels: [], rate: 100)
        #expect(abs(result.report.medianRate - 100) < 1)
        #expect(result.report.gaps.count == 1)
        #expect(result.report.intervalOutliers >= 31)
    }

    // MARK: - Errors

    @Test func tooFewSamples() {
        #expect(throws: ResamplingError.tooFewSamples(count: 0)) {
            try UniformResampling(timestamps: [], channels: [], rate: 50)
        }
        #expect(throws: ResamplingError.tooFewSamples(count: 1)) {
            try UniformResampling(timestamps: [0], channels: [[1]], rate: 50)
        }
        #expect(throws: ResamplingError.tooFewDistinctTimestamps(distinct: 1, inputCount: 3)) {
            try UniformResampling(timestamps: [2, 2, 2], channels: [[1, 2, 3]], rate: 50)
        }
    }

    @Test func nonFiniteTimestamps() {
        #expect(throws: ResamplingError.nonFiniteTimestamp(index: 2, count: 2)) {
            try UniformResampling(timestamps: [0, 1, .nan, 3, .infinity], channels: [], rate: 50)
        }
    }

    @Test func mismatchedChannelsNameTheCounts() {
        let error = #expect(throws: ResamplingError.self) {
            try UniformResampling(timestamps: [0, 1, 2, 3], channels: [[1, 2, 3, 4], [1, 2, 3]], rate: 50)
        }
        #expect(error == .channelLengthMismatch(channel: 1, count: 3, timestampCount: 4))
        #expect(error?.description == "channel 1 has 3 values but there are 4 timestamps")
    }

    /// Fuzz finding (FuzzCSV, FuzzRecorderLog): grids are bounded.
    ///
    /// One timestamp far from the rest trapped converting grid indices to Int, and a long span at a high rate
    /// allocated without bound (10¹¹ points for two samples a billion seconds apart).
    @Test func gridsBeyondTheLimitAreErrors() {
        let limit = UniformResampling.minimumGridLimit
        #expect(throws: ResamplingError.gridTooLarge(points: .infinity, limit: limit)) {
            try UniformResampling(timestamps: [0, 0.01, 0.02, 1e300], channels: [[1, 2, 3, 4]], rate: 100)
        }
        let error = #expect(throws: ResamplingError.self) {
            try UniformResampling(timestamps: [0, 1e9], channels: [[1, 2]], rate: 100)
        }
        #expect(error == .gridTooLarge(points: 1e11 + 1, limit: limit))
        #expect(error?.description.contains("span too long a time") == true)
        // The limit grows with the input: 16 points per sample.
        let n = limit / 8
        let timestamps = (0..<n).map { Double($0) / 50 }
        #expect(throws: Never.self) { try UniformResampling(timestamps: timestamps, channels: [], rate: 800) }
        #expect(throws: ResamplingError.self) { try UniformResampling(timestamps: timestamps, channels: [], rate: 801) }
    }

    @Test(arguments: [0.0, -10, .infinity])
    func invalidRates(rate: Double) {
        #expect(throws: ResamplingError.invalidRate(hertz: rate)) {
            try UniformResampling(timestamps: [0, 1], channels: [], rate: rate)
        }
    }

    @Test(arguments: [
        ResamplingOptions(gapFactor: 1), ResamplingOptions(maximumInterval: 0), ResamplingOptions(outlierFactor: 0.5),
    ])
    func invalidOptions(options: ResamplingOptions) {
        #expect(throws: ResamplingError.self) {
            try UniformResampling(timestamps: [0, 1], channels: [], rate: 10, options: options)
        }
    }
}

/// Zero-stuff by `up`, convolve fully with `taps`, then take `y[m] = full[m·down + (taps.count − 1)/2]`.
private func naiveResample(_ x: [Double], up: Int, down: Int, taps: [Double]) -> [Double] {
    var stuffed = [Double](repeating: 0, count: max(0, (x.count - 1) * up + 1))
    for (k, value) in x.enumerated() { stuffed[k * up] = value }
    let outputCount = (x.count * up + down - 1) / down
    let half = (taps.count - 1) / 2
    return (0..<outputCount).map { m in
        let centre = m * down + half
        var sum = 0.0
        for (j, tap) in taps.enumerated() {
            let i = centre - j
            if i >= 0 && i < stuffed.count { sum += tap * stuffed[i] }
        }
        return sum
    }
}

/// `actual` and `expected` have the same length and agree to `tolerance`, relative or (near zero) absolute.
private func expectClose(
    _ actual: [Double], _ expected: [Double], tolerance: Double, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(actual.count == expected.count, sourceLocation: sourceLocation)
    for (index, (a, e)) in zip(actual, expected).enumerated() {
        #expect(
            a.isApproximatelyEqual(to: e, absoluteTolerance: tolerance, relativeTolerance: tolerance),
            "element \(index): \(a) vs \(e)", sourceLocation: sourceLocation)
    }
}
