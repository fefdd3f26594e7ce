/// Rational-factor resampling by `up/down` with an anti-aliasing FIR filter, applied polyphase
/// (`scipy.signal.resample_poly(x, up, down)` with its defaults: `window=("kaiser", 5.0)`, `padtype="constant"`).
///
/// The factors are reduced by their greatest common divisor. The filter is
/// `h = up · firwin(2·L + 1, 1/max(up, down), window=("kaiser", 5.0))` with half-length `L = 10·max(up, down)`,
/// and output sample `m` (at input time `m·down/up` samples) is
/// `y[m] = Σₖ x[k] · h[m·down + L − k·up]`, summing only taps inside `0 ..< h.count` and samples inside
/// `0 ..< x.count` (zero padding outside, scipy's `padtype="constant"`, `cval=0`). That is exactly scipy's
/// `upfirdn` of the zero-stuffed signal with the output trimmed to `⌈n·up/down⌉` samples, but no zero-stuffed
/// signal is ever built: only the taps of the one phase that lands on real samples are multiplied, about
/// `h.count/up` per output sample.
///
/// Design once, reuse for every channel and recording with the same factors. The value is immutable and
/// `Sendable`; sharing it across tasks is safe. If the reduced factors are `1/1` the input is returned unchanged.
public struct PolyphaseResampler: Sendable, Hashable {
    /// Upsampling factor after reduction by `gcd(up, down)`.
    public let up: Int
    /// Downsampling factor after reduction by `gcd(up, down)`.
    public let down: Int
    /// The filter taps including the gain `up` (scipy's `h` before zero padding); `[1]` when `up == down == 1`.
    public let taps: [Double]
    /// Tap offset of the filter's centre, in upsampled samples: `L = 10·max(up, down)` for the designed filter,
    /// `(taps.count − 1)/2` for custom taps (scipy's `half_len`).
    public let halfLength: Int

    /// Taps of each phase, reversed so they multiply input samples in ascending order; phase `φ` holds
    /// `h[φ + (c−1)·up], …, h[φ + up], h[φ]` at `phaseStart[φ] ..< phaseStart[φ + 1]`.
    private let phaseTaps: [Double]
    private let phaseStart: [Int]

    /// Designs the resampler scipy's `resample_poly(x, up, down)` uses by default.
    ///
    /// Costs one `FIRDesign.lowpass` of `20·max(up, down) + 1` taps (after gcd reduction); allocates the taps
    /// twice (plain and polyphase order). For 160/147 that is 3 201 taps, about 20 per phase.
    ///
    /// - Parameters:
    ///   - up: Upsampling factor, ≥ 1.
    ///   - down: Downsampling factor, ≥ 1. The output rate is `fs · up / down` (Hz).
    /// - Precondition: `up ≥ 1` and `down ≥ 1`.
    public init(up: Int, down: Int) {
        precondition(up >= 1 && down >= 1, "PolyphaseResampler: up and down must be >= 1, were \(up) and \(down)")
        let divisor = Self.greatestCommonDivisor(up, down)
        let (up, down) = (up / divisor, down / divisor)
        if up == 1 && down == 1 {
            self.init(reducedUp: 1, down: 1, taps: [1], halfLength: 0)
            return
        }
        let maximum = max(up, down)
        let halfLength = 10 * maximum
        var taps = FIRDesign.lowpass(tapCount: 2 * halfLength + 1, cutoff: 1 / Double(maximum), kaiserBeta: 5)
        for n in taps.indices { taps[n] *= Double(up) }
        self.init(reducedUp: up, down: down, taps: taps, halfLength: halfLength)
    }

    /// Creates a resampler with a custom filter (scipy's `resample_poly(x, up, down, window=filter)`).
    ///
    /// As in scipy, the filter is multiplied by the reduced `up` and centred at `(filter.count − 1)/2`.
    /// Allocates the taps twice.
    ///
    /// - Parameters:
    ///   - up: Upsampling factor, ≥ 1.
    ///   - down: Downsampling factor, ≥ 1.
    ///   - filter: FIR coefficients designed for the upsampled rate, non-empty.
    /// - Precondition: `up ≥ 1`, `down ≥ 1`, `filter` non-empty.
    public init(up: Int, down: Int, filter: [Double]) {
        precondition(up >= 1 && down >= 1, "PolyphaseResampler: up and down must be >= 1, were \(up) and \(down)")
        precondition(!filter.isEmpty, "PolyphaseResampler: the filter must have at least one tap")
        let divisor = Self.greatestCommonDivisor(up, down)
        let (up, down) = (up / divisor, down / divisor)
        self.init(reducedUp: up, down: down, taps: filter.map { $0 * Double(up) }, halfLength: (filter.count - 1) / 2)
    }

    private init(reducedUp up: Int, down: Int, taps: [Double], halfLength: Int) {
        self.up = up
        self.down = down
        self.taps = taps
        self.halfLength = halfLength
        var phaseTaps: [Double] = []
        phaseTaps.reserveCapacity(taps.count)
        var phaseStart = [0]
        for phase in 0..<up {
            let phaseCount = phase < taps.count ? (taps.count - phase + up - 1) / up : 0
            for i in stride(from: phaseCount - 1, through: 0, by: -1) {
                phaseTaps.append(taps[phase + i * up])
            }
            phaseStart.append(phaseTaps.count)
        }
        self.phaseTaps = phaseTaps
        self.phaseStart = phaseStart
    }

    /// The output length for `inputCount` samples: `⌈inputCount · up / down⌉` (scipy's `n_out`).
    ///
    /// - Parameter inputCount: Number of input samples.
    /// - Returns: Number of output samples.
    public func outputCount(forInputCount inputCount: Int) -> Int {
        let product = inputCount * up
        return product / down + (product % down == 0 ? 0 : 1)
    }

    /// Resamples one channel by `up/down` (`scipy.signal.resample_poly(x, up, down)`).
    ///
    /// `y[m] = Σₖ x[k] · h[m·down + L − k·up]` for `m = 0 ..< ⌈n·up/down⌉`; the output rate is
    /// `fs · up / down` Hz and `y[m]` lies at input time `m·down/up` samples (no delay: the filter is centred).
    /// Near both ends the missing input is taken as zero, so the first and last ~`L/up` input samples' worth of
    /// output roll off, as in scipy.
    ///
    /// Complexity: O(n·up/down · taps/up). Allocates once: the result array.
    ///
    /// - Parameter signal: Input samples at the original rate.
    /// - Returns: The resampled signal, `outputCount(forInputCount: signal.count)` samples.
    public func resample(_ signal: Span<Double>) -> [Double] {
        let inputCount = signal.count
        let outputCount = outputCount(forInputCount: inputCount)
        if up == 1 && down == 1 {
            return Array(unsafeUninitializedCapacity: inputCount) { buffer, initialized in
                for i in 0..<inputCount { buffer.initializeElement(at: i, to: signal[i]) }
                initialized = inputCount
            }
        }
        let taps = phaseTaps.span
        let starts = phaseStart.span
        return Array(unsafeUninitializedCapacity: outputCount) { buffer, initialized in
            for m in 0..<outputCount {
                let position = m * down + halfLength  // in upsampled samples
                let phase = position % up
                let newest = position / up  // input sample multiplied by h[phase]
                let tapStart = starts[phase]
                let tapCount = starts[phase + 1] - tapStart
                let oldest = newest - tapCount + 1  // input sample multiplied by the last tap of this phase
                let first = max(0, -oldest)
                let end = min(tapCount, inputCount - oldest)
                guard first < end else {
                    buffer.initializeElement(at: m, to: 0)
                    continue
                }
                // Equal-length views: one bounds check each, then a plain two-accumulator dot product.
                let h = taps.extracting((tapStart + first)..<(tapStart + end))
                let x = signal.extracting((oldest + first)..<(oldest + end))
                var sum0 = 0.0
                var sum1 = 0.0
                var r = 0
                while r + 1 < h.count {
                    sum0 += h[r] * x[r]
                    sum1 += h[r + 1] * x[r + 1]
                    r += 2
                }
                if r < h.count { sum0 += h[r] * x[r] }
                buffer.initializeElement(at: m, to: sum0 + sum1)
            }
            initialized = outputCount
        }
    }

    /// Resamples one channel held in an array; see the `Span` overload.
    ///
    /// - Parameter signal: Input samples at the original rate.
    /// - Returns: `⌈n·up/down⌉` output samples at `fs·up/down` Hz. Allocates once: the result array.
    public func resample(_ signal: [Double]) -> [Double] {
        resample(signal.span)
    }

    private static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
