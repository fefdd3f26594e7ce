import Synchronization

/// How ``SoundLevelMeter`` cuts a signal into fixed pieces, all counted in samples from the start of the
/// signal, so no result depends on how the caller splits the signal into blocks.
///
/// - **buffer** `B = ⌊fs/10⌋`: ResearchKit's SPL-meter tap buffer (100 ms).
/// - **history step** `H`: the divisor of `B` nearest to 10 ms (exactly 10 ms at 8, 16, 32, 44.1, 48, 88.2,
///   96 and 192 kHz): the grid on which the F-weighted level history feeds the exceedance levels.
/// - **cell** `G`: the largest divisor of `H` not above 64: the unit of the per-cell records (energies,
///   F/S contributions, C peak) from which every level is assembled.
/// - **warm-up** `W` (a multiple of `G`): the samples after which the factored weighting filter, started
///   from rest, agrees with the filter that ran from the start to within 2⁻⁵² of the signal level: the
///   homogeneous response of its all-pole stages from any unit state stays below 2⁻⁵² from `W` on
///   (≈ 17 000 samples at 48 kHz, dominated by the 20.6 Hz double pole).
/// - **lane length** `M = 4W` and **chunk** `C = W + 2M`: the meter filters `C` samples at a time, lane 0
///   the first `W + M` (continuing from the previous chunk's state) and lane 1 the last `M` (after a warm-up
///   over the `W` samples before them).
public struct SoundLevelGeometry: Sendable, Hashable, Codable {
    /// Sampling rate, Hz.
    public var sampleRate: Double
    /// ResearchKit buffer length `⌊fs/10⌋`, samples.
    public var bufferFrames: Int
    /// Step of the F-weighted level history used for the exceedance levels, samples.
    public var historyStep: Int
    /// Cell length, samples.
    public var cellSize: Int
    /// Warm-up of the second lane, samples.
    public var warmUp: Int
    /// Lane length, samples.
    public var laneLength: Int

    /// Chunk length, samples: `warmUp + 2·laneLength`.
    public var chunkLength: Int { warmUp + 2 * laneLength }

    /// The history step in seconds.
    public var historyInterval: Double { Double(historyStep) / sampleRate }

    /// The geometry at `sampleRate` (Hz, ≥ 1000).
    init(sampleRate: Double, coefficients: WeightingCoefficients) {
        self.sampleRate = sampleRate
        let buffer = max(1, Int(sampleRate / 10))
        bufferFrames = buffer
        let target = sampleRate / 100
        var best = 1
        for d in 1...buffer where buffer % d == 0 {
            if abs(Double(d) - target) < abs(Double(best) - target) { best = d }
        }
        historyStep = best
        cellSize = (1...min(64, best)).last { best % $0 == 0 } ?? 1
        let settle = Self.cachedSettlingSamples(sampleRate: sampleRate, coefficients)
        warmUp = max(1, (settle + cellSize - 1) / cellSize) * cellSize
        laneLength = 4 * warmUp
    }

    /// Settling lengths already simulated, by sampling rate (the simulation costs ≈ 0.3 ms at 48 kHz).
    private static let settlingCache = Mutex<[Double: Int]>([:])

    static func cachedSettlingSamples(sampleRate: Double, _ c: WeightingCoefficients) -> Int {
        if let known = settlingCache.withLock({ $0[sampleRate] }) { return known }
        let value = settlingSamples(c)
        settlingCache.withLock { $0[sampleRate] = value }
        return value
    }

    /// The first sample count from which the homogeneous response of the all-pole stages, from each unit
    /// state, stays below 2⁻⁵² in both outputs (v and w). Simulated once per geometry: O(W) per state.
    static func settlingSamples(_ c: WeightingCoefficients) -> Int {
        let limit = 0x1p-52
        var last = 0
        for unit in 0..<6 {
            var s = WeightingState(p1: 0, p2: 0, v1: 0, v2: 0, w1: 0, w2: 0)
            switch unit {
            case 0: s.p1 = 1
            case 1: s.p2 = 1
            case 2: s.v1 = 1
            case 3: s.v2 = 1
            case 4: s.w1 = 1
            default: s.w2 = 1
            }
            // Run until the response has stayed below the limit for a long stretch (the stages are stable
            // with real poles, so once the envelope is under the limit it only decreases).
            var below = 0
            var k = 0
            var lastAbove = 0
            while below < 4096 && k < 10_000_000 {
                let (v, w) = weightingStep(0.0, &s, c)
                let m = max(abs(v), abs(w), abs(s.p1))
                if m >= limit {
                    lastAbove = k + 1
                    below = 0
                } else {
                    below += 1
                }
                k += 1
            }
            last = max(last, lastAbove)
        }
        return last
    }
}
