import ComplexModule
import Foundation

/// Streaming Welch power-spectrum estimate: the same result as ``Welch/psd(_:sampleRate:cache:)`` with
/// mean averaging, no zero padding and a named window, for a signal that arrives in blocks.
///
/// Feed samples in blocks of any size with ``add(_:)``; the result does not depend on how the stream is
/// split (segments are formed from a rolling buffer exactly as the batch estimator slices the whole
/// signal). Memory is O(segmentLength); one FFT and its buffers serve every segment, and nothing is
/// allocated per block or per segment. Not `Sendable` (owns a ``RealFFT``): one task at a time.
public struct WelchAccumulator<Scalar: FFTScalar> {
    /// Segment length `nperseg`, samples.
    public let segmentLength: Int
    /// Overlap `noverlap` between consecutive segments, samples.
    public let overlap: Int
    /// Sampling rate, Hz.
    public let sampleRate: Double
    /// Per-segment trend removal.
    public let detrend: Detrend
    /// Segments averaged so far.
    public private(set) var segmentCount = 0

    private let fft: RealFFT<Scalar>
    private let window: [Scalar]
    private let gains: WindowGains
    private var pending: [Scalar]
    private var filled = 0
    private var powerSum: [Double]

    /// Creates an empty estimator.
    /// - Parameters:
    ///   - segmentLength: samples per segment, ≥ 1.
    ///   - overlap: samples shared by consecutive segments, `0 ≤ overlap < segmentLength`; nil for half a
    ///     segment (scipy's default).
    ///   - sampleRate: fs, Hz.
    ///   - window: the periodic segment taper (Hann by default, as scipy).
    ///   - detrend: per-segment trend removal (`.constant` by default, as scipy).
    public init(
        segmentLength: Int, overlap: Int? = nil, sampleRate: Double, window: Window = .hann,
        detrend: Detrend = .constant
    ) throws(FFTError) {
        precondition(segmentLength >= 1, "WelchAccumulator: segmentLength must be ≥ 1, got \(segmentLength)")
        let overlap = overlap ?? segmentLength / 2
        precondition(
            overlap >= 0 && overlap < segmentLength,
            "WelchAccumulator: overlap must be in 0..<\(segmentLength), got \(overlap)")
        self.segmentLength = segmentLength
        self.overlap = overlap
        self.sampleRate = sampleRate
        self.detrend = detrend
        fft = try RealFFT<Scalar>(count: segmentLength)
        let taper = window.coefficients(count: segmentLength, symmetry: .periodic, as: Scalar.self)
        self.window = taper
        gains = WindowGains(taper.span)
        pending = [Scalar](repeating: 0, count: segmentLength)
        powerSum = [Double](repeating: 0, count: segmentLength / 2 + 1)
    }

    /// Adds samples to the stream. O(n log segmentLength); no allocation.
    ///
    /// Specialised for `Double` and `Float`: called from another module, the generic body would otherwise run
    /// unspecialised (generic float conversions per sample cost 60× the specialised loop).
    @specialized(where Scalar == Double)
    @specialized(where Scalar == Float)
    public mutating func add(_ samples: Span<Scalar>) {
        var index = 0
        let hop = segmentLength - overlap
        while index < samples.count {
            let take = min(segmentLength - filled, samples.count - index)
            samples.withUnsafeBufferPointer { src in
                pending.withUnsafeMutableBufferPointer { dst in
                    _ = UnsafeMutableBufferPointer(rebasing: dst[filled..<(filled + take)])
                        .update(fromContentsOf: UnsafeBufferPointer(rebasing: src[index..<(index + take)]))
                }
            }
            filled += take
            index += take
            if filled == segmentLength {
                processSegment()
                // Keep the overlap for the next segment.
                pending.withUnsafeMutableBufferPointer { p in
                    for i in 0..<overlap { p[i] = p[hop + i] }
                }
                filled = overlap
            }
        }
    }

    private mutating func processSegment() {
        let n = segmentLength
        let detrend = detrend
        pending.withUnsafeBufferPointer { x in
            window.withUnsafeBufferPointer { w in
                powerSum.withUnsafeMutableBufferPointer { acc in
                    fft.withBuffers { real, spectrum in
                        _ = real.update(fromContentsOf: x)
                        detrend.apply(to: real)
                        for i in 0..<n { real[i] *= w[i] }
                        fft.executeForward()
                        for k in 0..<spectrum.count {
                            let re = Double(spectrum[k].real)
                            let im = Double(spectrum[k].imaginary)
                            acc[k] += re * re + im * im
                        }
                    }
                }
            }
        }
        segmentCount += 1
    }

    /// The one-sided averaged spectrum so far, scaled as ``Welch`` scales it (units²/Hz for `.density`,
    /// units² for `.spectrum`); empty before the first full segment.
    public func spectrum(scaling: SpectralScaling = .density) -> Spectrum<Double> {
        guard segmentCount > 0 else { return Spectrum(frequencies: [], values: [], binWidth: 0) }
        let base = scaling == .density ? 1 / (sampleRate * gains.sumOfSquares) : 1 / (gains.sum * gains.sum)
        let n = segmentLength
        let values = powerSum.indices.map { k in
            let paired = k > 0 && !(n % 2 == 0 && k == n / 2)
            return powerSum[k] / Double(segmentCount) * base * (paired ? 2 : 1)
        }
        return Spectrum(
            frequencies: oneSidedFrequencies(fftLength: n, sampleRate: sampleRate), values: values,
            binWidth: sampleRate / Double(n))
    }

    /// Frequency of the strongest spectral peak above DC, Hz, interpolated between bins (see
    /// ``SpectralPeak``); nil before the first segment or when every bin above DC is zero.
    public func dominantFrequency() -> Double? {
        spectrum(scaling: .spectrum).dominantPeak()?.frequency
    }
}

extension Spectrum {
    /// Spectral flatness (Wiener entropy) of the bins above DC: `exp(mean(ln P)) / mean(P)`, 0…1.
    ///
    /// 1 for a perfectly flat spectrum, near 0 for a pure tone. Bins with zero power make the geometric
    /// mean 0. Returns nil when there are no bins above DC or their mean is 0. O(N), no allocation.
    public func flatness() -> Double? {
        guard values.count > 1 else { return nil }
        var logSum = 0.0
        var sum = 0.0
        for k in 1..<values.count {
            let p = Double(values[k])
            sum += p
            logSum += p > 0 ? log(p) : -Double.infinity
        }
        let n = Double(values.count - 1)
        guard sum > 0 else { return nil }
        return exp(logSum / n) / (sum / n)
    }
}
