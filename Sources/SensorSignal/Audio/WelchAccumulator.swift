import ComplexModule
import Foundation

/// Streaming Welch power-spectrum estimate: Hann-windowed (periodic), mean-removed segments of
/// fixed length with 50 % overlap, periodograms averaged over the whole stream.
///
/// Feed samples in blocks of any size with ``add(_:)``; the result is identical however the stream is
/// split. Memory is O(segmentLength); one FFT and its buffers are reused for every segment.
/// Not `Sendable` (owns a ``RealFFT``): one task at a time.
public struct WelchAccumulator<Scalar: FFTScalar> {
    /// Segment length, samples.
    public let segmentLength: Int
    /// Sampling rate, Hz.
    public let sampleRate: Double
    /// Segments averaged so far.
    public private(set) var segmentCount = 0

    private let fft: RealFFT<Scalar>
    private let window: [Scalar]
    private var pending: [Scalar]
    private var filled = 0
    private var powerSum: [Double]

    /// Creates an empty estimator.
    /// - Parameters:
    ///   - segmentLength: samples per segment (≥ 2); hop is `segmentLength / 2`.
    ///   - sampleRate: Hz, for the frequency axis.
    public init(segmentLength: Int, sampleRate: Double) throws(FFTError) {
        precondition(segmentLength >= 1, "WelchAccumulator: segmentLength must be ≥ 1, got \(segmentLength)")
        self.segmentLength = segmentLength
        self.sampleRate = sampleRate
        fft = try RealFFT<Scalar>(count: segmentLength)
        window = (0..<segmentLength).map { n in
            // Periodic Hann: 0.5 − 0.5·cos(2πn/N).
            Scalar(0.5 - 0.5 * cos(2 * Double.pi * Double(n) / Double(segmentLength)))
        }
        pending = [Scalar](repeating: 0, count: segmentLength)
        powerSum = [Double](repeating: 0, count: segmentLength / 2 + 1)
    }

    /// Adds samples to the stream. O(n log segmentLength); no allocation.
    public mutating func add(_ samples: Span<Scalar>) {
        var index = 0
        let hop = max(1, segmentLength / 2)
        while index < samples.count {
            let take = min(segmentLength - filled, samples.count - index)
            for i in 0..<take { pending[filled + i] = samples[index + i] }
            filled += take
            index += take
            if filled == segmentLength {
                processSegment()
                let keep = segmentLength - hop
                for i in 0..<keep { pending[i] = pending[hop + i] }
                filled = keep
            }
        }
    }

    private mutating func processSegment() {
        var mean = 0.0
        for v in pending { mean += Double(v) }
        mean /= Double(segmentLength)
        let m = Scalar(mean)
        fft.withBuffers { real, _ in
            for i in 0..<segmentLength { real[i] = (pending[i] - m) * window[i] }
        }
        fft.executeForward()
        fft.withBuffers { _, spectrum in
            for k in 0..<spectrum.count {
                let c = spectrum[k]
                powerSum[k] += Double(c.real * c.real + c.imaginary * c.imaginary)
            }
        }
        segmentCount += 1
    }

    /// Mean periodogram |X[k]|² over the segments so far (unscaled), bins 0…N/2; empty before
    /// the first full segment.
    public var averagedPower: [Double] {
        guard segmentCount > 0 else { return [] }
        return powerSum.map { $0 / Double(segmentCount) }
    }

    /// Frequency of the strongest bin above DC, Hz, refined by fitting a parabola to the log power of
    /// the peak bin and its two neighbours (accurate to a few hundredths of a bin for a Hann-windowed
    /// sine); `nil` before the first segment or when every bin above DC is zero.
    public func dominantFrequency() -> Double? {
        guard segmentCount > 0, powerSum.count > 1 else { return nil }
        var best = 1
        for k in 1..<powerSum.count where powerSum[k] > powerSum[best] { best = k }
        guard powerSum[best] > 0 else { return nil }
        var offset = 0.0
        if best > 1, best < powerSum.count - 1, powerSum[best - 1] > 0, powerSum[best + 1] > 0 {
            let a = log(powerSum[best - 1]), b = log(powerSum[best]), c = log(powerSum[best + 1])
            let denominator = a - 2 * b + c
            if denominator < 0 { offset = 0.5 * (a - c) / denominator }
        }
        return (Double(best) + offset) * sampleRate / Double(segmentLength)
    }
}
