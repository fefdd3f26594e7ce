// Walking analysis of a 10-minute, 100 Hz accelerometer recording (60 000 samples), end to end from the
// decoded log: timestamp hygiene (`AccelerometerLog.cleaned()`, which also judges the unit) plus
// `WalkingProcessor.analyze` (magnitude, rate estimate, resampling, band-pass, step and bout detection),
// and `StepDetector.detect` alone on the cleaned timestamps and |a|.
//
// The recording is built once in the suite's setup (never timed) from the Oxford step-counter hand file
// (`../shared/data/oxford-step-counter/user1_hand_*.csv.gz`, ≈ 100 Hz, 19 404 samples of real walking),
// repeated back to back with its timestamps shifted so the clock keeps running at the file's median
// interval, and cut at exactly 60 000 samples. Throughput is reported per iteration; samples per second
// is that × 60 000.
import ActiveTasks
import Benchmark
import BenchmarkSupport
import Foundation
import SensorSignal
import StudyBatch
import StudyInputs
import StudyOutputs

/// Samples in the recording: 10 minutes at 100 Hz.
let sampleCount = 60_000

/// The Oxford hand file, relative to the benchmark package directory (where `swift package benchmark` runs).
let oxfordHandFile = "../../shared/data/oxford-step-counter/user1_hand_1506421989895.csv.gz"

/// The suite's configuration: ``Suite``'s metrics, with a wider malloc-count slack.
///
/// The count is constant within a process but differs by up to 6 between processes (231 or 236 for the
/// detector, 243 or 249 end to end, with or without this suite's optimisations), so the suite-wide ±2 would
/// flag every other run; ±8 still catches any per-sample or per-window allocation (hundreds to thousands).
func configuration() -> Benchmark.Configuration {
    var configuration = Suite.configuration(maxDuration: .seconds(3), maxIterations: 1_000)
    configuration.thresholds = [.mallocCountTotal: .init(absolute: [.p90: 8])]
    return configuration
}

struct SetupFailure: Error, CustomStringConvertible {
    var description: String
}

/// The recording: the decoded log, and its cleaned timestamps and |a| (g) for the detector-only benchmark.
nonisolated(unsafe) var recording: AccelerometerLog?
nonisolated(unsafe) var cleanedTimes: [Double] = []
nonisolated(unsafe) var cleanedMagnitude: [Double] = []

/// Finds the Oxford hand file from the package directory or the repository root.
func oxfordPath() throws -> String {
    for candidate in [oxfordHandFile, "../shared/data/oxford-step-counter/user1_hand_1506421989895.csv.gz"]
    where FileManager.default.fileExists(atPath: candidate) {
        return candidate
    }
    throw SetupFailure(description: "WalkingBenchmarks: \(oxfordHandFile) not found")
}

/// The hand file tiled to `sampleCount` samples on a continuous clock.
func makeRecording() throws -> AccelerometerLog {
    let source = try AccelerometerCSVReader.read(path: oxfordPath(), options: .oxfordStepCounter).log
    let times = source.timestamp
    guard times.count > 1000 else { throw SetupFailure(description: "Oxford hand file: \(times.count) samples") }
    let intervals = zip(times.dropFirst(), times).map { $0 - $1 }.sorted()
    let step = intervals[intervals.count / 2]
    let period = times[times.count - 1] - times[0] + step
    var log = source
    log.timestampSince1970 = nil
    log.timestamp = (0..<sampleCount).map { i in
        times[i % times.count] + Double(i / times.count) * period
    }
    let a = source.acceleration
    log.acceleration = Vector3Series(
        x: (0..<sampleCount).map { a.x[$0 % times.count] }, y: (0..<sampleCount).map { a.y[$0 % times.count] },
        z: (0..<sampleCount).map { a.z[$0 % times.count] })
    return log
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.setup = {
        let log = try makeRecording()
        let cleaned = log.cleaned()
        // Fail loudly rather than time an analysis that finds nothing.
        let result = WalkingProcessor.analyze(cleaned)
        guard cleaned.log.timestamp.count == sampleCount, (result.stepCount ?? 0) > 100 else {
            throw SetupFailure(
                description:
                    "WalkingBenchmarks: \(cleaned.log.timestamp.count) samples, \(result.stepCount ?? -1) steps")
        }
        recording = log
        cleanedTimes = cleaned.log.timestamp
        let unit = cleaned.log.unit
        let acceleration = cleaned.log.acceleration
        cleanedMagnitude = StepDetector.magnitude(
            x: acceleration.x, y: acceleration.y, z: acceleration.z, scale: unit.toG)
    }
    Benchmark.teardown = {
        recording = nil
        cleanedTimes = []
        cleanedMagnitude = []
    }

    Benchmark(
        "WalkingProcessor_endToEnd_10min_100Hz",
        configuration: configuration()
    ) { benchmark in
        guard let log = recording else { fatalError("WalkingBenchmarks: the suite setup did not run") }
        for _ in benchmark.scaledIterations {
            blackHole(WalkingProcessor.analyze(log.cleaned()))
        }
    }

    // The same analysis with the lower-back gait pass (contacts, stance, stride length and speed per bout,
    // `LowerBackGait`), and with turns from a gyroscope (`TurnDetector`; the recording gets a rotation rate of
    // its own acceleration's shape in rad/s, so that the detector works on realistic, non-zero input).
    for (name, withTurns) in [
        ("WalkingProcessor_lowerBack_10min_100Hz", false), ("WalkingProcessor_lowerBackWithTurns_10min_100Hz", true),
    ] {
        Benchmark(name, configuration: configuration()) { benchmark in
            guard var log = recording else { fatalError("WalkingBenchmarks: the suite setup did not run") }
            if withTurns {
                let a = log.acceleration
                log.rotationRate = Vector3Series(
                    x: a.y.map { 0.1 * $0 }, y: a.z.map { 0.1 * $0 }, z: a.x.map { 0.1 * $0 })
            }
            let gait = GaitOptions(placement: .lowerBack, sensorHeight: 0.95)
            for _ in benchmark.scaledIterations {
                blackHole(WalkingProcessor.analyze(log.cleaned(), gait: gait))
            }
        }
    }

    Benchmark(
        "StepDetector_detect_10min_100Hz",
        configuration: configuration()
    ) { benchmark in
        let detector = StepDetector()
        let times = cleanedTimes
        let magnitude = cleanedMagnitude
        for _ in benchmark.scaledIterations {
            blackHole(detector.detect(timestamps: times, magnitude: magnitude))
        }
    }
}
