/// The timestamp clean-up steps shared by ``UniformResampling`` and ``TimeSeriesHygiene``, written once.
///
/// 1. Order: count backward steps (`t[i] < t[i−1]` between consecutive rows in input order) and, if any, stably
///    sort the rows by time (equal times keep input order).
/// 2. De-duplicate: of the rows sharing one timestamp, keep the first in input order and drop the rest. A dropped
///    row whose values equal the kept row's in every channel (NaN equal to NaN) is an *exact* duplicate; one that
///    differs in at least one channel is a *conflicting* duplicate.
///
/// Rows are input positions (0-based). Internal: the public types report what it found.
struct SampleTimeline {
    /// Input positions of the kept rows in time order; their timestamps strictly increase.
    var kept: [Int]
    /// Number of consecutive row pairs (in input order) whose timestamp goes backwards.
    var backwardSteps = 0
    /// Input positions of the first rows that went backwards (at most the example limit).
    var backwardStepRows: [Int] = []
    /// Largest backward step, s (0 when none).
    var largestBackwardStep = 0.0
    /// Number of dropped rows equal to their kept row in every channel.
    var exactDuplicates = 0
    /// Input positions of the first exact duplicates dropped (at most the example limit).
    var exactDuplicateRows: [Int] = []
    /// Number of dropped rows that differ from their kept row in at least one channel.
    var conflictingDuplicates = 0
    /// Input positions of the first conflicting duplicates dropped (at most the example limit).
    var conflictingDuplicateRows: [Int] = []

    /// Orders and de-duplicates `rows`.
    ///
    /// - Parameters:
    ///   - timestamps: Times in seconds; only the positions listed in `rows` are read, and they must be finite.
    ///   - channels: Value channels indexed like `timestamps`; compared to tell exact from conflicting duplicates.
    ///   - rows: The input positions to consider, in input order.
    ///   - exampleLimit: How many example positions to keep per finding.
    init(timestamps: [Double], channels: [[Double]], rows: [Int], exampleLimit: Int) {
        // 1. Order.
        (backwardSteps, backwardStepRows, largestBackwardStep) = Self.backwardSteps(
            timestamps: timestamps, rows: rows, exampleLimit: exampleLimit)
        let order =
            backwardSteps == 0
            ? rows
            : rows.sorted { a, b in timestamps[a] < timestamps[b] || (timestamps[a] == timestamps[b] && a < b) }
        if backwardSteps > 0 { reordered = zip(order, rows).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) } }

        // 2. Duplicates.
        kept = []
        kept.reserveCapacity(order.count)
        for row in order {
            guard let last = kept.last, timestamps[last] == timestamps[row] else {
                kept.append(row)
                continue
            }
            if channels.contains(where: { !Self.sameValue($0[last], $0[row]) }) {
                conflictingDuplicates += 1
                if conflictingDuplicateRows.count < exampleLimit { conflictingDuplicateRows.append(row) }
            } else {
                exactDuplicates += 1
                if exactDuplicateRows.count < exampleLimit { exactDuplicateRows.append(row) }
            }
        }
    }

    /// Rows whose position changed when sorting (0 when nothing went backwards).
    var reordered = 0

    /// The backward steps among `rows` (input order): how many, the first rows that went back (at most
    /// `exampleLimit`), and the largest step back, s.
    static func backwardSteps(timestamps: [Double], rows: [Int], exampleLimit: Int) -> (Int, [Int], Double) {
        var count = 0
        var examples: [Int] = []
        var largest = 0.0
        var previous: Int?
        for row in rows {
            defer { previous = row }
            guard let previous, timestamps[row] < timestamps[previous] else { continue }
            count += 1
            if examples.count < exampleLimit { examples.append(row) }
            largest = max(largest, timestamps[previous] - timestamps[row])
        }
        return (count, examples, largest)
    }

    /// Number of rows dropped as duplicates of either kind.
    var duplicatesDropped: Int { exactDuplicates + conflictingDuplicates }

    /// Equal values, treating NaN as equal to NaN.
    static func sameValue(_ a: Double, _ b: Double) -> Bool {
        a == b || (a.isNaN && b.isNaN)
    }

    /// The kept timestamps relative to the first one, in seconds.
    ///
    /// Exact for nearby doubles, so epoch times lose nothing.
    func relativeTimes(_ timestamps: [Double]) -> [Double] {
        guard let first = kept.first else { return [] }
        let origin = timestamps[first]
        return kept.map { timestamps[$0] - origin }
    }

    /// Successive differences of strictly increasing times: all positive.
    static func intervals(_ relative: [Double]) -> [Double] {
        guard relative.count > 1 else { return [] }
        var intervals = [Double](repeating: 0, count: relative.count - 1)
        for j in intervals.indices { intervals[j] = relative[j + 1] - relative[j] }
        return intervals
    }

    /// Every interval longer than the gap limits, as a gap between kept rows `j` and `j + 1`.
    ///
    /// - Parameters:
    ///   - intervals: The kept rows' intervals, s (`intervals[j]` between kept rows `j` and `j + 1`).
    ///   - timestamps: The input timestamps, s, read through ``kept`` for the gap bounds.
    ///   - relativeLimit: Gap threshold from the relative rule, s (`.infinity` to disable).
    ///   - absoluteLimit: Gap threshold from the absolute rule, s (`.infinity` to disable).
    func gaps(intervals: [Double], timestamps: [Double], relativeLimit: Double, absoluteLimit: Double)
        -> [TimestampGap]
    {
        var gaps: [TimestampGap] = []
        for (j, interval) in intervals.enumerated() where interval > relativeLimit || interval > absoluteLimit {
            gaps.append(TimestampGap(start: timestamps[kept[j]], end: timestamps[kept[j + 1]], sampleIndex: j + 1))
        }
        return gaps
    }
}

/// The robust nominal sampling interval of a series (shared by ``UniformResampling`` and ``TimeSeriesHygiene``).
///
/// With `m` the median of all intervals, the inliers are the intervals in `[m / outlierFactor, m × outlierFactor]`;
/// the nominal interval is their median and the mean rate is `inliers / Σ inlier intervals` (Hz).
struct IntervalEstimate {
    /// Median of the inlier intervals, s.
    let nominal: Double
    /// Inlier count over the inlier total, Hz.
    let meanRate: Double
    /// Intervals outside the band (gaps, bursts).
    let outliers: Int

    /// Estimates from positive intervals (at least one).
    ///
    /// - Parameters:
    ///   - intervals: Positive intervals, s, any order.
    ///   - outlierFactor: Band half-width as a factor (> 1).
    init(intervals: [Double], outlierFactor: Double) {
        self.init(sortedIntervals: NonNegativeSort.sorted(intervals), outlierFactor: outlierFactor)
    }

    /// Estimates from positive intervals already in ascending order (at least one).
    ///
    /// - Parameters:
    ///   - sorted: Positive intervals, s, ascending (e.g. ``sortedIntervals(_:)``).
    ///   - outlierFactor: Band half-width as a factor (> 1).
    init(sortedIntervals sorted: [Double], outlierFactor: Double) {
        let overall = Self.median(ofSorted: sorted[...])
        let low = overall / outlierFactor
        let high = overall * outlierFactor
        let lowerIndex = Self.partitioningIndex(sorted) { $0 >= low }
        let upperIndex = Self.partitioningIndex(sorted) { $0 > high }
        // Empty only for a band narrower than 2× around an even-count median; then nothing is rejected.
        let inliers = lowerIndex < upperIndex ? sorted[lowerIndex..<upperIndex] : sorted[...]
        nominal = Self.median(ofSorted: inliers)
        meanRate = Double(inliers.count) / inliers.reduce(0, +)
        outliers = sorted.count - inliers.count
    }

    /// `intervals.sorted()` in linear time (the intervals are positive, so a radix sort gives the same order).
    static func sortedIntervals(_ intervals: [Double]) -> [Double] {
        NonNegativeSort.sorted(intervals)
    }

    /// numpy-style median of a sorted, non-empty slice: the middle value, or the mean of the two middle values.
    static func median(ofSorted values: ArraySlice<Double>) -> Double {
        let middle = values.startIndex + values.count / 2
        if values.count % 2 == 1 { return values[middle] }
        return (values[middle - 1] + values[middle]) / 2
    }

    /// The first index whose element satisfies `predicate`, for a predicate that is false then true (binary search).
    static func partitioningIndex(_ values: [Double], where predicate: (Double) -> Bool) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) / 2
            if predicate(values[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
