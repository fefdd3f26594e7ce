import Archives
import Foundation
import RealModule
import SensorSignal
import TestSupport
import Testing

@Suite struct TimeSeriesHygieneTests {
    // MARK: - Known series

    /// `count` samples at `rate` Hz from `start` s, each time displaced by a uniform jitter in ±`jitter` s, with two
    /// channels that are functions of the sample number (so any row can be recognised after cleaning).
    static func series(count: Int, rate: Double, jitter: Double = 0, start: Double = 100, seed: UInt64 = 1)
        -> (timestamps: [Double], x: [Double], y: [Double])
    {
        var rng = SplitMix64(seed: seed)
        let timestamps = (0..<count).map { k in
            start + Double(k) / rate + (jitter > 0 ? Double.random(in: -jitter...jitter, using: &rng) : 0)
        }
        return (timestamps, (0..<count).map { Double.sin(0.1 * Double($0)) }, (0..<count).map { Double($0) })
    }

    /// Jittered intervals have a known interquartile range, and the robust rate recovers the true one.
    ///
    /// Intervals `1/rate + e[k+1] − e[k]`, with `e` uniform in ±j, are triangular on ±2j around the period, whose
    /// interquartile range is `4j(1 − 1/√2)`.
    @Test(arguments: [(50.0, 0.002), (100.0, 0.001), (100.0, 0.0), (50.0, 0.0)])
    func measuresRateAndJitterOfAKnownSeries(rate: Double, jitter: Double) throws {
        let s = Self.series(count: 6_000, rate: rate, jitter: jitter)
        let hygiene = TimeSeriesHygiene(timestamps: s.timestamps, channels: [s.x, s.y], channelNames: ["x", "y"])
        let report = hygiene.report
        let sampling = try #require(report.sampling)
        #expect(sampling.medianRate.isApproximatelyEqual(to: rate, relativeTolerance: 0.005))
        #expect(sampling.meanRate.isApproximatelyEqual(to: rate, relativeTolerance: 0.001))
        #expect(sampling.overallRate.isApproximatelyEqual(to: rate, relativeTolerance: 0.001))
        #expect(sampling.nominalInterval.isApproximatelyEqual(to: 1 / rate, relativeTolerance: 0.005))
        let expectedIQR = 4 * jitter * (1 - 1 / 2.0.squareRoot()) * 1000
        #expect(
            abs(sampling.jitterMilliseconds - expectedIQR) <= 0.05 * expectedIQR + 1e-6,
            "IQR \(sampling.jitterMilliseconds) ms")
        #expect(sampling.minimumInterval >= 1 / rate - 2 * jitter - 1e-9)
        #expect(sampling.maximumInterval <= 1 / rate + 2 * jitter + 1e-9)
        #expect(sampling.intervalOutliers == 0)
        #expect(report.timeSpan.isApproximatelyEqual(to: 5_999 / rate, absoluteTolerance: 2 * jitter + 1e-9))
        // Clean input: nothing repaired, nothing to warn about, the arrays are handed back as they were.
        #expect(report.repairs.isEmpty && report.warnings.isEmpty && !report.wasRepaired)
        #expect(report.inputCount == 6_000 && report.outputCount == 6_000)
        #expect(report.gaps.isEmpty && report.backwardSteps == 0 && report.duplicatesDropped == 0)
        #expect(hygiene.timestamps == s.timestamps && hygiene.channels == [s.x, s.y])
        #expect(hygiene.sourceRows == Array(0..<6_000))
    }

    // MARK: - Inserted defects, checked against the truth

    @Test(arguments: [[10], [3, 4, 5], [0, 250, 999]])
    func exactDuplicatesAreDroppedAndListed(after rows: [Int]) throws {
        let truth = Self.series(count: 1_000, rate: 100, jitter: 0.001)
        var t = truth.timestamps
        var x = truth.x
        var y = truth.y
        // Insert a copy of row r right after it (walking backwards so earlier positions stay valid).
        var insertedAt: [Int] = []
        for r in rows.reversed() {
            t.insert(t[r], at: r + 1)
            x.insert(x[r], at: r + 1)
            y.insert(y[r], at: r + 1)
        }
        for (n, r) in rows.enumerated() { insertedAt.append(r + 1 + n) }
        let hygiene = TimeSeriesHygiene(timestamps: t, channels: [x, y])
        let report = hygiene.report
        #expect(report.duplicatesDropped == rows.count && report.conflictingDuplicates == 0)
        #expect(report.duplicateRows == insertedAt)
        #expect(report.backwardSteps == 0)
        #expect(hygiene.timestamps == truth.timestamps && hygiene.channels == [truth.x, truth.y])
        #expect(report.repairs.count == 1)
        #expect(report.repairs.first?.contains("dropped \(rows.count) exact duplicate sample") == true)
        #expect(report.outputCount == 1_000 && report.inputCount == 1_000 + rows.count)
    }

    @Test func conflictingDuplicatesKeepTheFirstAndAreCountedApart() throws {
        let truth = Self.series(count: 500, rate: 50)
        var t = truth.timestamps
        var x = truth.x
        var y = truth.y
        // Row 100 gets a conflicting twin; row 200 an exact twin and a conflicting one.
        t.insert(t[200], at: 201)
        x.insert(x[200], at: 201)
        y.insert(y[200], at: 201)
        t.insert(t[200], at: 202)
        x.insert(x[200], at: 202)
        y.insert(-1, at: 202)
        t.insert(t[100], at: 101)
        x.insert(99, at: 101)
        y.insert(y[100], at: 101)
        let hygiene = TimeSeriesHygiene(timestamps: t, channels: [x, y], channelNames: ["x", "y"])
        let report = hygiene.report
        #expect(report.duplicatesDropped == 1 && report.duplicateRows == [202])
        #expect(report.conflictingDuplicates == 2 && report.conflictingDuplicateRows == [101, 203])
        #expect(hygiene.channels == [truth.x, truth.y] && hygiene.timestamps == truth.timestamps)
        let repair = try #require(report.repairs.first { $0.contains("conflicting") })
        #expect(repair.contains("the earliest in input order was kept") && repair.contains("input rows 101, 203"))
    }

    /// Reversing rows `a..<b` makes `b − a − 1` backward steps, at rows `a+1 …`; sorting restores the truth.
    @Test(arguments: [(10, 12), (100, 110), (0, 50), (990, 1_000)])
    func reversedSegmentsAreSortedBack(segment: (Int, Int)) throws {
        let (a, b) = segment
        let truth = Self.series(count: 1_000, rate: 100, jitter: 0.002)
        var order = Array(0..<1_000)
        order[a..<b].reverse()
        let t = order.map { truth.timestamps[$0] }
        let hygiene = TimeSeriesHygiene(
            timestamps: t, channels: [order.map { truth.x[$0] }, order.map { truth.y[$0] }],
            options: TimeSeriesHygieneOptions(exampleLimit: 3))
        let report = hygiene.report
        #expect(report.backwardSteps == b - a - 1)
        #expect(report.backwardStepRows == Array((a + 1)..<min(b, a + 4)))
        let largest = (a..<(b - 1)).map { truth.timestamps[$0 + 1] - truth.timestamps[$0] }.max() ?? 0
        #expect(report.largestBackwardStep == largest)
        #expect(hygiene.timestamps == truth.timestamps && hygiene.channels == [truth.x, truth.y])
        #expect(hygiene.sourceRows == order.indices.sorted { order[$0] < order[$1] })
        let repair = try #require(report.repairs.first)
        #expect(repair.hasPrefix("sorted the samples by time") && repair.contains("backwards"))
        #expect(report.gaps.isEmpty && report.duplicatesDropped == 0)
    }

    /// 100 Hz with stretches removed: a missing sample (20 ms, 2× the period) is not a gap under the 2.5× rule;
    /// 30 ms and 220 ms holes are, with their exact bounds and positions in the cleaned series.
    @Test func gapsAreFoundWithExactBounds() throws {
        let truth = Self.series(count: 2_000, rate: 100, start: 0)
        let removed = Set([500]).union(1_000..<1_002).union(1_500..<1_521)
        let kept = (0..<2_000).filter { !removed.contains($0) }
        let t = kept.map { truth.timestamps[$0] }
        let hygiene = TimeSeriesHygiene(timestamps: t, channels: [kept.map { truth.x[$0] }])
        let report = hygiene.report
        #expect(report.gaps.count == 2)
        let (first, second) = (try #require(report.gaps.first), try #require(report.gaps.last))
        #expect(first.start == truth.timestamps[999] && first.end == truth.timestamps[1_002])
        #expect(first.duration.isApproximatelyEqual(to: 0.03, relativeTolerance: 1e-9))
        #expect(first.sampleIndex == 1_000 - 1)  // one sample (500) missing before it
        #expect(second.start == truth.timestamps[1_499] && second.end == truth.timestamps[1_521])
        #expect(second.duration.isApproximatelyEqual(to: 0.22, relativeTolerance: 1e-9))
        #expect(second.sampleIndex == 1_500 - 3)
        #expect(report.totalGapDuration.isApproximatelyEqual(to: 0.25, relativeTolerance: 1e-9))
        // The rate ignores the holes; gaps are findings, not repairs.
        let sampling = try #require(report.sampling)
        #expect(sampling.medianRate.isApproximatelyEqual(to: 100, relativeTolerance: 1e-9))
        #expect(sampling.intervalOutliers == 2)
        #expect(sampling.maximumInterval.isApproximatelyEqual(to: 0.22, relativeTolerance: 1e-9))
        #expect(report.repairs.isEmpty)
        #expect(report.warnings.contains { $0.hasPrefix("2 gaps longer than 2.5 × the nominal interval") })
        #expect(hygiene.timestamps == t)
    }

    @Test(arguments: [(2.5, nil, 2), (1.5, nil, 3), (2.5, 0.015, 3), (10.0, nil, 1)] as [(Double, Double?, Int)])
    func gapRulesAreConfigurable(factor: Double, maximum: Double?, gaps: Int) {
        // Holes of 20 ms (2×), 30 ms (3×) and 220 ms (22×) at 100 Hz.
        let truth = Self.series(count: 1_000, rate: 100, start: 0)
        let removed = Set([200]).union(400..<402).union(600..<621)
        let kept = (0..<1_000).filter { !removed.contains($0) }
        let hygiene = TimeSeriesHygiene(
            timestamps: kept.map { truth.timestamps[$0] }, channels: [],
            options: TimeSeriesHygieneOptions(gapFactor: factor, maximumInterval: maximum))
        #expect(hygiene.report.gaps.count == gaps)
        #expect(hygiene.report.gapFactor == factor && hygiene.report.maximumInterval == maximum)
    }

    @Test func nonFiniteValuesAreCountedAndLeftInPlace() throws {
        var s = Self.series(count: 300, rate: 50)
        s.x[7] = .nan
        s.x[8] = .infinity
        s.y[100] = -.infinity
        let hygiene = TimeSeriesHygiene(timestamps: s.timestamps, channels: [s.x, s.y], channelNames: ["x", "y"])
        let report = hygiene.report
        #expect(report.nonFiniteValues == 3)
        #expect(
            report.nonFiniteValuesByChannel == [
                QualityReport.ChannelCount(channel: "x", count: 2), QualityReport.ChannelCount(channel: "y", count: 1),
            ])
        #expect(report.repairs.isEmpty)
        #expect(report.warnings == ["3 NaN or infinite values left in place (x: 2, y: 1)"])
        #expect(hygiene.channels[0][7].isNaN && hygiene.channels[0][8] == .infinity)
    }

    @Test func nonFiniteTimestampsAreDroppedAndReported() throws {
        let truth = Self.series(count: 200, rate: 100)
        var t = truth.timestamps
        t.insert(.nan, at: 50)
        t.insert(.infinity, at: 120)
        var x = truth.x
        x.insert(5, at: 50)
        x.insert(6, at: 120)
        let hygiene = TimeSeriesHygiene(timestamps: t, channels: [x])
        let report = hygiene.report
        #expect(report.nonFiniteTimestamps == 2 && report.nonFiniteTimestampRows == [50, 120])
        #expect(hygiene.timestamps == truth.timestamps && hygiene.channels == [truth.x])
        #expect(report.repairs == ["dropped 2 samples whose timestamp is NaN or infinite (input rows 50, 120)"])
        #expect(report.backwardSteps == 0)
    }

    /// Rows equal in every channel, NaN included, are exact duplicates; NaN against a number is a conflict.
    @Test func nanEqualsNanWhenComparingDuplicates() {
        let hygiene = TimeSeriesHygiene(
            timestamps: [0, 0.01, 0.01, 0.02, 0.02, 0.03], channels: [[1, .nan, .nan, 3, .nan, 4]])
        #expect(hygiene.report.duplicatesDropped == 1 && hygiene.report.duplicateRows == [2])
        #expect(hygiene.report.conflictingDuplicates == 1 && hygiene.report.conflictingDuplicateRows == [4])
        #expect(hygiene.timestamps == [0, 0.01, 0.02, 0.03])
    }

    /// Every defect at once: the output is the truth, and each change has its own repair sentence.
    @Test func everyDefectAtOnceGivesBackTheTruth() throws {
        let truth = Self.series(count: 3_000, rate: 100, jitter: 0.001, start: 1_700_000_000)
        var rows: [(t: Double, x: Double, y: Double)] = (0..<3_000).map {
            (truth.timestamps[$0], truth.x[$0], truth.y[$0])
        }
        rows[1_000..<1_010].reverse()  // 9 backward steps
        rows.swapAt(2_000, 2_001)  // 1 more
        rows.insert(rows[300], at: 301)  // exact duplicate
        rows.insert((rows[600].t, 42, 42), at: 601)  // conflict
        rows.insert((.nan, 0, 0), at: 5)  // unplaceable
        let hygiene = TimeSeriesHygiene(
            timestamps: rows.map(\.t), channels: [rows.map(\.x), rows.map(\.y)], channelNames: ["x", "y"])
        let report = hygiene.report
        #expect(hygiene.timestamps == truth.timestamps)
        #expect(hygiene.channels == [truth.x, truth.y])
        #expect(report.inputCount == 3_003 && report.outputCount == 3_000)
        #expect(report.backwardSteps == 10 && report.duplicatesDropped == 1 && report.conflictingDuplicates == 1)
        #expect(report.nonFiniteTimestamps == 1)
        #expect(report.repairs.count == 4 && report.wasRepaired)
        let sampling = try #require(report.sampling)
        #expect(sampling.medianRate.isApproximatelyEqual(to: 100, relativeTolerance: 0.005))
        // A companion column follows the same selection.
        let companion = rows.indices.map(Double.init)
        let selected = hygiene.selectingRows(of: companion)
        #expect(selected == hygiene.sourceRows.map(Double.init))
        #expect(selected.count == 3_000)
    }

    // MARK: - Degenerate input never stops it

    @Test(arguments: [[Double](), [5.0], [2.0, 2.0, 2.0], [.nan, .nan]])
    func degenerateSeriesGiveAReportWithoutARate(timestamps: [Double]) {
        let hygiene = TimeSeriesHygiene(timestamps: timestamps, channels: [timestamps.map { _ in 1 }])
        let report = hygiene.report
        #expect(report.sampling == nil && report.gaps.isEmpty && report.timeSpan == 0)
        #expect(report.warnings.contains { $0.hasPrefix("fewer than 2 samples with distinct finite timestamps") })
        #expect(report.outputCount == hygiene.timestamps.count)
        #expect(report.outputCount <= 1)
    }

    // MARK: - Reporting

    @Test func reportRoundTripsThroughJSONWithGapDurations() throws {
        let truth = Self.series(count: 400, rate: 100, start: 0)
        var t = truth.timestamps
        t.removeSubrange(200..<230)
        t.swapAt(10, 11)
        let hygiene = TimeSeriesHygiene(timestamps: t, channels: [])
        var report = hygiene.report
        report.units = UnitDetection(quantity: "|a|", x: [0, 0], y: [0, 0], z: [1, 1.02])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(report)
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.contains("\"duration\":0.3"))
        #expect(text.contains("\"jitterMilliseconds\"") && text.contains("\"repairs\":[\"sorted the samples by time"))
        let decoded = try JSONDecoder().decode(QualityReport.self, from: data)
        #expect(decoded == report)
    }

    @Test func hygieneAndResamplingMeasureTheSameRate() throws {
        let s = Self.series(count: 1_500, rate: 100, jitter: 0.002)
        let options = TimeSeriesHygieneOptions(gapFactor: 3, outlierFactor: 2)
        let hygiene = TimeSeriesHygiene(timestamps: s.timestamps, channels: [s.x], options: options)
        let resampled = try UniformResampling(
            timestamps: s.timestamps, channels: [s.x], rate: 100, options: options.resamplingOptions)
        let sampling = try #require(hygiene.report.sampling)
        #expect(sampling.medianRate == resampled.report.medianRate)
        #expect(sampling.meanRate == resampled.report.meanRate)
        #expect(hygiene.report.gaps == resampled.report.gaps)
    }

    // MARK: - Units

    @Test(arguments: [
        (1.0, UnitDetection.Unit.g), (0.98, .g), (1.45, .g), (9.81, .metersPerSecondSquared),
        (7.0, .metersPerSecondSquared),
        (14.5, .metersPerSecondSquared), (0.1, .unknown), (3.0, .unknown), (20.0, .unknown), (0.0, .unknown),
        (1.95, .g), (0.52, .g), (0.45, .unknown), (5.0, .metersPerSecondSquared), (19.5, .metersPerSecondSquared),
        (2.2, .unknown), (4.8, .unknown),
    ])
    func unitsAreClassifiedFromTheMedianMagnitude(magnitude: Double, unit: UnitDetection.Unit) {
        #expect(UnitDetection.classify(medianMagnitude: magnitude) == unit)
        // A vector of that length along a tilted axis, with a few wild samples that the median ignores.
        let n = 101
        let c = magnitude / 3.0.squareRoot()
        var x = [Double](repeating: c, count: n)
        x[0] = 1_000
        x[1] = .nan
        let detection = UnitDetection(
            quantity: "|a|", x: x, y: [Double](repeating: c, count: n), z: [Double](repeating: -c, count: n))
        #expect(detection.unit == unit && detection.samplesUsed == n - 1)
        #expect(detection.medianMagnitude?.isApproximatelyEqual(to: magnitude, absoluteTolerance: 1e-12) == true)
    }

    @Test func noFiniteVectorsMeansUnknown() {
        let detection = UnitDetection(quantity: "|a|", x: [.nan], y: [0], z: [0])
        #expect(detection.unit == .unknown && detection.medianMagnitude == nil && detection.samplesUsed == 0)
        #expect(detection.summary == "no finite |a| samples: unit unknown")
    }

    // MARK: - Real data: Oxford neck-pouch walk (Android, m/s², two timestamp glitches)

    /// The file repeats a timestamp twice (rows 714 and 6714, identical values), each followed by a ~0.22 s hole.
    @Test func oxfordNeckPouchFile() throws {
        let path = sharedDataPath("oxford-step-counter/user1_neckpouch_1506422851785.csv.gz")
        try #require(
            FileManager.default.fileExists(atPath: path), "the shared reference data must sit beside the repository")
        let text = try #require(String(data: try FileBytes.read(path: path), encoding: .utf8))
        var t: [Double] = []
        var axes: [[Double]] = [[], [], []]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ",")
            t.append(try #require(Double(fields[0])) / 1e9)
            for a in 0..<3 { axes[a].append(try #require(Double(fields[a + 1]))) }
        }
        let hygiene = TimeSeriesHygiene(timestamps: t, channels: axes, channelNames: ["x", "y", "z"])
        let report = hygiene.report
        #expect(report.inputCount == 19_965 && report.outputCount == 19_963)
        #expect(report.duplicatesDropped == 2 && report.duplicateRows == [714, 6_714])
        #expect(report.conflictingDuplicates == 0 && report.backwardSteps == 0)
        try #require(report.gaps.count == 2)
        #expect(report.gaps.map(\.sampleIndex) == [714, 6_713])
        #expect(report.gaps[0].duration.isApproximatelyEqual(to: 0.219546, absoluteTolerance: 1e-6))
        #expect(report.gaps[1].duration.isApproximatelyEqual(to: 0.209518, absoluteTolerance: 1e-6))
        let sampling = try #require(report.sampling)
        #expect(abs(sampling.medianRate - 100) < 0.5)
        let units = UnitDetection(
            quantity: "|a|", x: hygiene.channels[0], y: hygiene.channels[1], z: hygiene.channels[2])
        #expect(units.unit == .metersPerSecondSquared)
        #expect(units.medianMagnitude.map { abs($0 - 10.06) < 0.01 } == true)
    }
}
