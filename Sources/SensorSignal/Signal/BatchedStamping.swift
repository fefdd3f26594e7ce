/// Detects a recorder that stamps its samples in batches whose timestamps overlap the previous batch, and re-stamps
/// them in file order; used by ``TimeSeriesHygiene`` before it would sort.
///
/// Some recorders deliver samples in batches and stamp each batch backwards from its delivery time with an interval
/// that does not match the sensor's, so every batch starts before the previous one ended. The rows are in the right
/// order; the timestamps are not. Sorting such a file interleaves the samples of consecutive batches and destroys the
/// signal; the repair is to keep the file order and spread each batch's samples evenly over the time the batch
/// stands for.
///
/// The rows are split into *batches* at every backward step (`t[i] < t[i−1]`, file order). The pattern is taken as
/// batched stamping only when **all** of these hold:
/// 1. at least ``minimumBackwardSteps`` backward steps (a regular pattern cannot be judged from fewer);
/// 2. regular batches: the batches between the first and the last (the inner batches) have a median size of at least
///    2 samples, and at least 80 % of them are within ±50 % of that median;
/// 3. the batches progress: each batch starts and ends later than the batch before it;
/// 4. sorting would interleave: with `d` the median positive interval inside batches, sorting all timestamps gives at
///    least one interval shorter than `d / 2` per backward step beyond those the batches already have (samples of
///    two batches falling between each other).
///
/// Otherwise (isolated or random backward steps, whose timestamps are right and whose rows are out of place) the
/// caller sorts by time as before.
///
/// Re-stamping: every batch `j ≥ 1` of `n` samples spans from the last timestamp of batch `j − 1` (exclusive) to its
/// own last timestamp (inclusive), its samples at `last(j−1) + k · (last(j) − last(j−1)) / n`, `k = 1 … n`; the first
/// batch ends at its own last timestamp, its samples spaced by the median of those batch intervals (its start is
/// not bounded by an earlier batch). The last timestamp of a batch — the delivery time — is taken as right; the
/// result strictly increases. Internal.
struct BatchedStamping {
    /// Fewest backward steps for the pattern to be judged.
    static let minimumBackwardSteps = 3

    /// The re-stamped time of each row, in the order of the `rows` given (file order).
    let times: [Double]
    /// Number of batches.
    let batches: Int
    /// Median size of the inner batches, samples.
    let medianBatchSize: Int
    /// Rows whose timestamp changed.
    let restamped: Int

    /// Detects the pattern among `rows` (positions into `timestamps`, finite, file order) and re-stamps them; nil
    /// when the rows do not show it (see the type's documentation).
    init?(timestamps: [Double], rows: [Int]) {
        let n = rows.count
        guard n >= 2 * Self.minimumBackwardSteps else { return nil }
        // 1. Batches: start positions (into `rows`) at every backward step (counted first: no allocation for the
        //    usual ordered log).
        var count = 0
        for k in 1..<n where timestamps[rows[k]] < timestamps[rows[k - 1]] { count += 1 }
        guard count >= Self.minimumBackwardSteps else { return nil }
        var starts = [0]
        for k in 1..<n where timestamps[rows[k]] < timestamps[rows[k - 1]] { starts.append(k) }
        let backwardSteps = starts.count - 1
        guard backwardSteps >= Self.minimumBackwardSteps else { return nil }
        let ends = Array(starts.dropFirst()) + [n]  // exclusive
        // 2. Regular batch sizes (inner batches: all but the first and the last, which may be cut by the recording).
        var inner = (1..<(starts.count - 1)).map { ends[$0] - starts[$0] }
        inner.sort()
        let median = inner[inner.count / 2]
        guard median >= 2 else { return nil }
        let regular = inner.filter { 2 * $0 >= median && 2 * $0 <= 3 * median }.count
        guard 5 * regular >= 4 * inner.count else { return nil }
        // 3. Batches progress.
        for j in 1..<starts.count {
            let first = timestamps[rows[starts[j]]]
            let previousFirst = timestamps[rows[starts[j - 1]]]
            let last = timestamps[rows[ends[j] - 1]]
            let previousLast = timestamps[rows[ends[j - 1] - 1]]
            guard first > previousFirst, last > previousLast else { return nil }
        }
        // 4. Sorting would interleave the batches.
        var within: [Double] = []
        within.reserveCapacity(n)
        for j in starts.indices where ends[j] - starts[j] >= 2 {
            for k in (starts[j] + 1)..<ends[j] {
                let d = timestamps[rows[k]] - timestamps[rows[k - 1]]
                if d > 0 { within.append(d) }
            }
        }
        guard !within.isEmpty else { return nil }
        within.sort()
        let d = within[within.count / 2]
        var sorted = rows.map { timestamps[$0] }
        sorted.sort()
        var shortSorted = 0
        for k in 1..<n where sorted[k] - sorted[k - 1] < d / 2 { shortSorted += 1 }
        var shortWithin = 0
        for j in starts.indices where ends[j] - starts[j] >= 2 {
            for k in (starts[j] + 1)..<ends[j] where timestamps[rows[k]] - timestamps[rows[k - 1]] < d / 2 {
                shortWithin += 1
            }
        }
        guard shortSorted - shortWithin >= backwardSteps else { return nil }

        // Re-stamp: later batches between the previous batch's last timestamp and their own; the first batch ends
        // at its own last timestamp, at the median interval of the others.
        var times = [Double](repeating: 0, count: n)
        var intervals: [Double] = []
        intervals.reserveCapacity(starts.count - 1)
        for j in 1..<starts.count {
            let span: Double = timestamps[rows[ends[j] - 1]] - timestamps[rows[ends[j - 1] - 1]]
            intervals.append(span / Double(ends[j] - starts[j]))
        }
        intervals.sort()
        let interval = intervals[intervals.count / 2]
        let firstCount = ends[0]
        let firstEnd = timestamps[rows[firstCount - 1]]
        for k in 0..<firstCount { times[k] = firstEnd - Double(firstCount - 1 - k) * interval }
        for j in 1..<starts.count {
            let from = timestamps[rows[ends[j - 1] - 1]]
            let to = timestamps[rows[ends[j] - 1]]
            let count = ends[j] - starts[j]
            for k in 0..<count { times[starts[j] + k] = from + Double(k + 1) * (to - from) / Double(count) }
            times[ends[j] - 1] = to  // exact, whatever the rounding
        }
        self.times = times
        batches = starts.count
        medianBatchSize = median
        restamped = zip(rows, times).reduce(0) { $0 + (timestamps[$1.0] == $1.1 ? 0 : 1) }
    }
}
