// Shared by every suite: the metric set, the malloc-count threshold policy, deterministic inputs,
// and a holder for state built in a benchmark's `setup` closure (so setup is never timed).
public import Benchmark
import Foundation

/// The measurement policy every suite uses.
///
/// Benchmark names must contain no spaces and no slashes: `thresholds update` writes
/// `Thresholds/<Target>.<name>.p90.json` with those characters replaced by `_`, but `thresholds check`
/// looks the file up by the unchanged name, so a name with either would never find its threshold.
public enum Suite {
    /// Wall clock and throughput for reading; mallocCountTotal is the only metric with a threshold,
    /// because timings on a shared 2-core machine are far too noisy to gate anything on.
    public static var metrics: [BenchmarkMetric] { [.wallClock, .throughput, .mallocCountTotal] }

    /// Allocation counts are deterministic, so the tolerance is a small absolute slack only
    /// (no relative tolerance: 0 → 1 allocation would be an infinite relative change).
    public static var thresholds: [BenchmarkMetric: BenchmarkThresholds] {
        [.mallocCountTotal: .init(absolute: [.p90: 2])]
    }

    /// A configuration for one benchmark.
    /// - Parameters:
    ///   - scaling: logical operations per measured iteration (`.kilo` for sub-10 µs operations, so the
    ///     clock's resolution and overhead vanish); metrics are reported per operation.
    ///   - maxDuration: time budget of the measured iterations.
    public static func configuration(
        scaling: BenchmarkScalingFactor = .one, maxDuration: Duration = .seconds(1), maxIterations: Int = 10_000
    ) -> Benchmark.Configuration {
        .init(
            metrics: metrics, warmupIterations: 3, scalingFactor: scaling, maxDuration: maxDuration,
            maxIterations: maxIterations, thresholds: thresholds)
    }
}

/// State built by a benchmark's `setup` closure and used by its measured closure.
///
/// Benchmarks of one suite run one after another on one thread, so the holder needs no lock.
public final class Fixture<Value> {
    /// The state; nil before `setup` and after `teardown`.
    public var value: Value?

    /// An empty holder.
    public init() {}

    /// The prepared value; stops the process with a clear message if `setup` did not run or failed.
    public var prepared: Value {
        guard let value else { fatalError("benchmark fixture used before its setup closure ran") }
        return value
    }
}

/// A reproducible uniform noise source (SplitMix64), so every run measures the same inputs.
public struct NoiseSource {
    private var state: UInt64

    /// A source whose sequence is fixed by `seed`.
    public init(seed: UInt64 = 0x5EED_1234_ABCD_0001) { state = seed }

    /// The next value, uniform in [-1, 1).
    public mutating func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) * 0x1p-52 - 1
    }

    /// `count` samples of noise scaled by `amplitude`.
    public mutating func samples<Sample: BinaryFloatingPoint>(
        _ count: Int, amplitude: Double = 1, as: Sample.Type = Sample.self
    ) -> [Sample] {
        (0..<count).map { _ in Sample(next() * amplitude) }
    }
}

/// A fresh, private temporary directory (removed by ``remove()``).
public struct TemporaryDirectory: Sendable {
    /// The directory's absolute path.
    public let path: String

    /// Creates a new directory named `<prefix>-<pid>-<random>` in the system's temporary directory.
    public init(prefix: String) throws {
        let base = FileManager.default.temporaryDirectory.path
        path = "\(base)/\(prefix)-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The path of a file called `name` inside the directory.
    public func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Deletes the directory and everything in it.
    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
