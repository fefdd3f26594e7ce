// Order statistics by selection (linear expected time) instead of a full sort.

/// In-place selection of order statistics (internal to the statistics and signal code).
enum Selection {
    /// Rearranges `values` so that `values[rank]` holds the value of that rank in ascending order, everything before
    /// it is ≤ it and everything after it is ≥ it, and returns that value.
    ///
    /// Hoare partitioning around a median-of-three pivot (quickselect); after 2·⌈log₂ n⌉ + 8 rounds without
    /// converging it sorts what is left, so the worst case stays O(n log n) (introselect). The values must not
    /// contain NaN (it has no place in the order). Allocates nothing.
    ///
    /// - Parameters:
    ///   - values: The values; reordered.
    ///   - rank: The 0-based rank wanted, in `values.indices`.
    /// - Returns: The value of rank `rank`: the same value `values.sorted()[rank]` has.
    static func select(_ values: inout [Double], rank: Int) -> Double {
        values.withUnsafeMutableBufferPointer { select($0, rank: rank) }
    }

    /// ``select(_:rank:)`` on a buffer (e.g. a slice of a larger accumulator), reordering it in place.
    static func select(_ v: UnsafeMutableBufferPointer<Double>, rank: Int) -> Double {
        precondition(v.indices.contains(rank), "rank \(rank) outside 0..<\(v.count)")
        do {
            var low = 0
            var high = v.count - 1
            var budget = 2 * (Int.bitWidth - v.count.leadingZeroBitCount) + 8
            while low < high {
                if budget == 0 {
                    var rest = UnsafeMutableBufferPointer(rebasing: v[low...high])
                    rest.sort()
                    break
                }
                budget -= 1
                let mid = low + (high - low) / 2
                if v[mid] < v[low] { v.swapAt(mid, low) }
                if v[high] < v[low] { v.swapAt(high, low) }
                if v[high] < v[mid] { v.swapAt(high, mid) }
                let pivot = v[mid]
                var i = low
                var j = high
                while i <= j {
                    while v[i] < pivot { i += 1 }
                    while v[j] > pivot { j -= 1 }
                    if i <= j {
                        v.swapAt(i, j)
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
            return v[rank]
        }
    }

    /// The two middle order statistics of a non-empty, NaN-free array, by selection (reordering it).
    ///
    /// For an odd count both are the middle value; for an even count they are the values of ranks n/2 − 1 and
    /// n/2, exactly those a sorted copy holds there.
    ///
    /// - Parameter values: The values; reordered.
    /// - Returns: `(lower, upper)` middle values.
    static func middlePair(_ values: inout [Double]) -> (lower: Double, upper: Double) {
        let middle = values.count / 2
        let upper = select(&values, rank: middle)
        guard values.count % 2 == 0 else { return (upper, upper) }
        // Everything before `middle` is ≤ the selected value, so the lower middle is their maximum.
        var lower = values[0]
        for i in 1..<middle where values[i] > lower { lower = values[i] }
        return (lower, upper)
    }
}
