import Foundation

/// One third-octave band (IEC 61260-1, base-10 system).
public struct ThirdOctaveBand: Sendable, Hashable, Codable {
    /// The nominal mid-band frequency used as its name, Hz (25, 31.5, 40, …, 20 000).
    public var nominal: Double
    /// The exact mid-band frequency `1000 · 10^(x/10)`, Hz.
    public var centre: Double
    /// Lower band edge `centre · 10^(−1/20)`, Hz.
    public var lower: Double
    /// Upper band edge `centre · 10^(1/20)`, Hz.
    public var upper: Double

    /// The IEC 61260-1 nominal mid-band frequencies, 25 Hz – 20 kHz (band numbers x = −16 … 13).
    public static let nominalFrequencies: [Double] = [
        25, 31.5, 40, 50, 63, 80, 100, 125, 160, 200, 250, 315, 400, 500, 630, 800, 1000, 1250, 1600, 2000, 2500, 3150,
        4000, 5000, 6300, 8000, 10_000, 12_500, 16_000, 20_000,
    ]

    /// The bands 25 Hz – 20 kHz whose upper edge lies below 0.45 · `sampleRate` (so the band filter is well
    /// inside the Nyquist band): at 48 kHz, 25 Hz – 16 kHz; at 44.1 kHz, 25 Hz – 16 kHz; at 96 kHz, all 30.
    public static func bands(sampleRate: Double) -> [ThirdOctaveBand] {
        nominalFrequencies.enumerated().compactMap { i, nominal in
            let x = Double(i - 16)
            let centre = 1000 * pow(10, x / 10)
            let band = ThirdOctaveBand(
                nominal: nominal, centre: centre, lower: centre * pow(10, -1.0 / 20), upper: centre * pow(10, 1.0 / 20))
            return band.upper < 0.45 * sampleRate ? band : nil
        }
    }
}

/// Streaming third-octave band levels: each band is a 6th-order Butterworth band-pass (order 3 per edge, the usual
/// IEC 61260-1 class 1 realisation) with −3.01 dB exactly at the band edges, run over the signal block by block;
/// the result is each band's mean square.
///
/// Filters and the scratch buffers are made once; `add` reallocates them only when the block size changes.
/// Block sizes do not change the filtered samples (the filters keep their state across blocks, bit for bit);
/// the energy sums are added per block, so mean squares agree across block sizes to rounding (~1e-15).
public final class ThirdOctaveBandMeter {
    /// The bands measured, low to high.
    public let bands: [ThirdOctaveBand]
    private var filters: [SOSFilter]
    private var sums: [Double]
    private var scratch: [Double] = []
    private var count = 0

    /// Creates a meter for every band that fits `sampleRate` (see ``ThirdOctaveBand/bands(sampleRate:)``).
    ///
    /// - Throws: ``FilterError`` when a band filter cannot be designed (a rate too low for any band).
    public init(sampleRate: Double) throws(FilterError) {
        bands = ThirdOctaveBand.bands(sampleRate: sampleRate)
        var filters: [SOSFilter] = []
        for band in bands {
            let sections = try Butterworth.design(
                order: 3, band: .bandpass(low: band.lower, high: band.upper), sampleRate: sampleRate)
            filters.append(SOSFilter(sections))
        }
        self.filters = filters
        sums = [Double](repeating: 0, count: bands.count)
    }

    /// Adds samples (full scale = 1).
    public func add(_ samples: Span<Double>) {
        samples.withUnsafeBufferPointer { run($0) }
    }

    /// Adds samples (full scale = 1), widened to `Double`.
    public func add(_ samples: Span<Float>) {
        prepare(samples.count)
        scratchInput.withUnsafeMutableBufferPointer { widened in
            samples.withUnsafeBufferPointer { source in
                for i in source.indices { widened[i] = Double(source[i]) }
            }
        }
        scratchInput.withUnsafeBufferPointer { run($0) }
    }

    /// Adds 16-bit PCM samples, scaled by 1/32 768.
    public func add(pcm16 samples: Span<Int16>) {
        prepare(samples.count)
        scratchInput.withUnsafeMutableBufferPointer { scaled in
            samples.withUnsafeBufferPointer { source in
                for i in source.indices { scaled[i] = Double(source[i]) / 32_768 }
            }
        }
        scratchInput.withUnsafeBufferPointer { run($0) }
    }

    /// The `Float` and PCM samples of the current block, widened to `Double` (unused for `Double` input).
    private var scratchInput: [Double] = []

    /// Sizes the conversion buffer to the block (reallocating only when the block size changes, e.g. for a last,
    /// shorter block).
    private func prepare(_ n: Int) {
        if scratchInput.count != n { scratchInput = [Double](repeating: 0, count: n) }
    }

    /// Runs every band filter over `input` (one block) and adds each output's energy to its band's sum.
    ///
    /// Each band copies the block into `scratch` at once (a `memcpy`, not a per-element copy) and filters it in
    /// place; until 2026-11-27 the copy was an indexed loop over two class-owned arrays, about a fifth of the
    /// sanitizer-built sound-level fuzz target's time.
    private func run(_ input: UnsafeBufferPointer<Double>) {
        let n = input.count
        guard n > 0 else { return }
        if scratch.count != n { scratch = [Double](repeating: 0, count: n) }
        for b in bands.indices {
            scratch.withUnsafeMutableBufferPointer { _ = $0.update(fromContentsOf: input) }
            filters[b].process(&scratch)
            sums[b] += Reductions.sumOfSquares(scratch.span)
        }
        count += n
    }

    /// Mean square of each band's output over everything added (full scale = 1); nil before any sample.
    public var meanSquares: [Double]? {
        count == 0 ? nil : sums.map { $0 / Double(count) }
    }
}
