/// The nominal sampling interval of a timestamp series, in linear time (internal to ``StepDetector``).
enum SamplingInterval {
    /// The median of the positive intervals between consecutive timestamps in time order, s (numpy median: the
    /// mean of the two middle values for an even count); nil when there is none.
    ///
    /// O(n) by selection for ordered input; sorts a copy (O(n log n)) when the timestamps go backwards.
    /// Allocates one array of n − 1 intervals (plus the sorted copy for unordered input).
    static func medianPositiveInterval(_ timestamps: [Double]) -> Double? {
        let n = timestamps.count
        guard n >= 2 else { return nil }
        var ordered = true
        for i in 1..<n where timestamps[i] < timestamps[i - 1] {
            ordered = false
            break
        }
        let times = ordered ? timestamps : timestamps.sorted()
        var intervals: [Double] = []
        intervals.reserveCapacity(n - 1)
        for i in 1..<n {
            let d = times[i] - times[i - 1]
            if d > 0 { intervals.append(d) }
        }
        guard !intervals.isEmpty else { return nil }
        let middle = intervals.count / 2
        let upper = select(&intervals, rank: middle)
        if intervals.count % 2 == 1 { return upper }
        // After selection everything before `middle` is ≤ the selected value: the lower middle is their maximum.
        var lower = intervals[0]
        for i in 1..<middle { lower = max(lower, intervals[i]) }
        return (lower + upper) / 2
    }

    /// Rearranges `values` so that `values[rank]` holds the value of that rank in ascending order, everything
    /// before it is ≤ and everything after it is ≥ (Hoare selection with a median-of-three pivot).
    static func select(_ values: inout [Double], rank: Int) -> Double {
        var low = 0
        var high = values.count - 1
        while low < high {
            let mid = low + (high - low) / 2
            // Median of three to the middle.
            if values[mid] < values[low] { values.swapAt(mid, low) }
            if values[high] < values[low] { values.swapAt(high, low) }
            if values[high] < values[mid] { values.swapAt(high, mid) }
            let pivot = values[mid]
            var i = low
            var j = high
            while i <= j {
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
                if i <= j {
                    values.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if rank <= j {
                high = j
            } else if rank >= i {
                low = i
            } else {
                break
            }
        }
        return values[rank]
    }
}
