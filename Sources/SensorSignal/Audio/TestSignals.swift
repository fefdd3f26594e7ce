import Foundation

/// A small, fast, seedable pseudo-random generator (SplitMix64) so generated test signals are
/// identical on every machine and run.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed; equal seeds give equal sequences.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1), from the top 53 bits of one draw.
    public mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Standard normal (Box-Muller, from two ``nextUnit()`` draws; the first kept above 1e-300).
    public mutating func nextNormal() -> Double {
        let u = max(nextUnit(), 1e-300)
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * nextUnit())
    }
}

/// Synthetic signals with known analytic properties, for sample data, calibration and tests.
public enum TestSignal: Sendable, Hashable {
    /// `amplitude·sin(2π·frequency·t + phase)`; frequency in Hz, phase in radians. RMS = amplitude/√2.
    case sine(frequency: Double, amplitude: Double, phase: Double = 0)
    /// Gaussian white noise with standard deviation `rms` (full-scale units), seeded.
    case whiteNoise(rms: Double, seed: UInt64)
    /// Digital silence.
    case silence

    /// Generates the signal block by block, in constant memory: the samples equal those of
    /// ``samples(count:sampleRate:)``, however the blocks are cut, as long as every block but the last has an
    /// even length (noise draws its values in pairs).
    public struct Generator: Sendable {
        private let signal: TestSignal
        private let sampleRate: Double
        private var position = 0
        private var rng: SplitMix64

        /// A generator of `signal` at `sampleRate` Hz, from sample 0.
        public init(_ signal: TestSignal, sampleRate: Double) {
            self.signal = signal
            self.sampleRate = sampleRate
            if case .whiteNoise(_, let seed) = signal {
                rng = SplitMix64(seed: seed)
            } else {
                rng = SplitMix64(seed: 0)
            }
        }

        /// Overwrites `buffer` with the next `buffer.count` samples.
        public mutating func next(into buffer: inout [Double]) {
            let count = buffer.count
            switch signal {
            case .sine(let f, let a, let phase):
                let w = 2 * Double.pi * f / sampleRate
                for i in 0..<count { buffer[i] = a * sin(w * Double(position + i) + phase) }
            case .whiteNoise(let rms, _):
                var i = 0
                while i < count {
                    let u1 = (Double(rng.next() >> 11) + 1) / 9_007_199_254_740_992
                    let u2 = Double(rng.next() >> 11) / 9_007_199_254_740_992
                    let r = (-2 * log(u1)).squareRoot()
                    buffer[i] = rms * r * cos(2 * .pi * u2)
                    if i + 1 < count { buffer[i + 1] = rms * r * sin(2 * .pi * u2) }
                    i += 2
                }
            case .silence:
                for i in 0..<count { buffer[i] = 0 }
            }
            position += count
        }
    }

    /// Generates `count` samples at `sampleRate` Hz. Allocates the result once.
    public func samples(count: Int, sampleRate: Double) -> [Double] {
        switch self {
        case .sine(let f, let a, let phase):
            let w = 2 * Double.pi * f / sampleRate
            return (0..<count).map { a * sin(w * Double($0) + phase) }
        case .whiteNoise(let rms, let seed):
            var rng = SplitMix64(seed: seed)
            var out = [Double](repeating: 0, count: count)
            var i = 0
            while i < count {
                // Box–Muller: two independent N(0,1) values per pair of uniforms in (0, 1].
                let u1 = (Double(rng.next() >> 11) + 1) / 9_007_199_254_740_992
                let u2 = Double(rng.next() >> 11) / 9_007_199_254_740_992
                let r = (-2 * log(u1)).squareRoot()
                out[i] = rms * r * cos(2 * .pi * u2)
                if i + 1 < count { out[i + 1] = rms * r * sin(2 * .pi * u2) }
                i += 2
            }
            return out
        case .silence:
            return [Double](repeating: 0, count: count)
        }
    }
}
