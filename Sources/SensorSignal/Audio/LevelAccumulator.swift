/// Running level statistics of a sample stream: count, mean, RMS, peak and clipped-sample count,
/// accumulated block by block so arbitrarily long recordings are summarised in constant memory.
///
/// Sums are kept in `Double`; results do not depend on how the stream is split into blocks
/// beyond floating-point summation order (relative differences of order 1e-15).
public struct LevelAccumulator: Sendable {
    /// Samples seen.
    public private(set) var count = 0
    /// Σx over all samples.
    public private(set) var sum = 0.0
    /// Σx² over all samples.
    public private(set) var sumOfSquares = 0.0
    /// Largest |x| seen (0 before any sample).
    public private(set) var peak = 0.0
    /// Samples with |x| ≥ ``clipThreshold``.
    public private(set) var clippedCount = 0
    /// Absolute value at or above which a sample counts as clipped, full-scale units.
    public let clipThreshold: Double

    /// Creates an empty accumulator.
    /// - Parameter clipThreshold: absolute level counted as clipping (e.g. 32767/32768 for 16-bit PCM).
    public init(clipThreshold: Double = 1.0) { self.clipThreshold = clipThreshold }

    /// Adds a block of samples. O(n), no allocation.
    public mutating func add(_ samples: Span<Double>) {
        guard !samples.isEmpty else { return }
        sum += Reductions.sum(samples)
        sumOfSquares += Reductions.sumOfSquares(samples)
        let blockPeak = Swift.max(abs(Reductions.min(samples)), abs(Reductions.max(samples)))
        peak = Swift.max(peak, blockPeak)
        if blockPeak >= clipThreshold {
            // Rare: only blocks that reach the threshold are scanned sample by sample.
            samples.withUnsafeBufferPointer { x in
                for v in x where abs(v) >= clipThreshold { clippedCount += 1 }
            }
        }
        count += samples.count
    }

    /// Arithmetic mean Σx/n (the DC offset); 0 before any sample.
    public var mean: Double { count > 0 ? sum / Double(count) : 0 }
    /// Root mean square √(Σx²/n); 0 before any sample.
    public var rms: Double { count > 0 ? (sumOfSquares / Double(count)).squareRoot() : 0 }
}
