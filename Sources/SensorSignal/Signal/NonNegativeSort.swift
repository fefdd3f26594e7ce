/// Ascending sort of doubles by radix on their bit patterns, in linear time (internal to the interval statistics).
///
/// For values whose sign bit is clear (+0, positive numbers, +∞) the IEEE 754 bit patterns, read as unsigned
/// integers, are ordered exactly like the values, so a least-significant-digit radix sort over the 8 bytes gives
/// the same sequence `sorted()` does (equal values have equal bits, so stability cannot show). Any other input
/// (a negative value, −0 or NaN) is handed to `sorted()` unchanged.
enum NonNegativeSort {
    /// Below this count the standard sort is faster than eight histograms.
    static let radixThreshold = 256

    /// `values.sorted()`, computed by radix sort when every value has its sign bit clear.
    ///
    /// O(n) time; allocates the result, one key scratch array and a 2048-entry histogram.
    ///
    /// - Parameter values: Any doubles.
    /// - Returns: The values in ascending order, identical to `values.sorted()`.
    static func sorted(_ values: [Double]) -> [Double] {
        let n = values.count
        guard n >= radixThreshold, values.allSatisfy({ $0.sign == .plus && !$0.isNaN }) else {
            return values.sorted()
        }
        var keys = [UInt64](unsafeUninitializedCapacity: n) { buffer, initialized in
            for i in 0..<n { buffer[i] = values[i].bitPattern }
            initialized = n
        }
        var scratch = [UInt64](repeating: 0, count: n)
        var counts = [Int](repeating: 0, count: 8 * 256)
        counts.withUnsafeMutableBufferPointer { count in
            keys.withUnsafeMutableBufferPointer { source in
                scratch.withUnsafeMutableBufferPointer { target in
                    for key in source {
                        for digit in 0..<8 { count[digit &* 256 &+ Int(truncatingIfNeeded: key >> (8 &* digit)) & 0xFF] += 1 }
                    }
                    var from = source
                    var to = target
                    for digit in 0..<8 {
                        let base = digit * 256
                        let shift = UInt64(8 * digit)
                        // A byte every key shares leaves the order unchanged: skip the pass.
                        if count[base + Int(truncatingIfNeeded: from[0] >> shift) & 0xFF] == n { continue }
                        var offset = 0
                        for bucket in base..<(base + 256) {
                            let c = count[bucket]
                            count[bucket] = offset
                            offset += c
                        }
                        for key in from {
                            let bucket = base &+ Int(truncatingIfNeeded: key >> shift) & 0xFF
                            to[count[bucket]] = key
                            count[bucket] &+= 1
                        }
                        swap(&from, &to)
                    }
                    if from.baseAddress != source.baseAddress {
                        _ = source.update(fromContentsOf: from)
                    }
                }
            }
        }
        return [Double](unsafeUninitializedCapacity: n) { buffer, initialized in
            for i in 0..<n { buffer[i] = Double(bitPattern: keys[i]) }
            initialized = n
        }
    }
}
