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
        let (lower, upper) = Selection.middlePair(&intervals)
        return intervals.count % 2 == 1 ? upper : (lower + upper) / 2
    }
}
