// Two-finger tapping features of one 180-tap record (the issue's throughput unit; mhealthtools takes about 32 ms
// per record in R): the Sage Bionetworks features alone in both variants (`TappingFeatureExtractor.features`), and
// the whole per-recording analysis with the ResearchKit-native extras (`TappingProcessor.analyze`).
//
// The record is the first 180 taps of mhealthtools' own `tap_data` sample
// (`../shared/data/mpower-samples/mhealthtools_tap_data.csv`: real taps with backwards and repeated timestamps and
// `none` taps, so the cleaning and sorting paths run), read once in the suite's setup (never timed). Throughput is
// records per second.
import ActiveTasks
import Benchmark
import BenchmarkSupport
import Foundation
import SensorSignal
import StudyBatch
import StudyInputs
import StudyOutputs

/// Taps per record.
let tapCount = 180

/// The mhealthtools tap table, relative to the benchmark package directory (where `swift package benchmark` runs)
/// and to the repository root.
let tapTableCandidates = [
    "../../shared/data/mpower-samples/mhealthtools_tap_data.csv",
    "../shared/data/mpower-samples/mhealthtools_tap_data.csv",
]

struct SetupFailure: Error, CustomStringConvertible {
    var description: String
}

/// The record analysed by every benchmark.
nonisolated(unsafe) var record: TappingRecording?

/// The suite's configuration: ``Suite``'s metrics and malloc-count threshold, a 2 s budget.
func configuration() -> Benchmark.Configuration {
    Suite.configuration(maxDuration: .seconds(2), maxIterations: 100_000)
}

/// The first `tapCount` taps of the mhealthtools sample.
func makeRecord() throws -> TappingRecording {
    guard let path = tapTableCandidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
        throw SetupFailure(description: "TappingBenchmarks: \(tapTableCandidates[0]) not found")
    }
    var recording = try MHealthToolsTapTable.read(path: path)
    guard recording.samples.count >= tapCount else {
        throw SetupFailure(description: "TappingBenchmarks: \(recording.samples.count) taps in \(path)")
    }
    recording.samples = Array(recording.samples.prefix(tapCount))
    return recording
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.setup = {
        let r = try makeRecord()
        // Fail loudly rather than time a gate failure.
        for variant in TappingVariant.allCases {
            let f = TappingFeatureExtractor.features(of: r.samples, variant: variant)
            guard f.error == nil, (f.numberTaps ?? 0) > 150 else {
                throw SetupFailure(description: "TappingBenchmarks: \(variant) gave \(f.error ?? "too few taps")")
            }
        }
        record = r
    }
    Benchmark.teardown = { record = nil }

    for variant in TappingVariant.allCases {
        Benchmark("TappingFeatures_\(variant.rawValue)_180taps", configuration: configuration()) { benchmark in
            guard let samples = record?.samples else { fatalError("TappingBenchmarks: the suite setup did not run") }
            for _ in benchmark.scaledIterations {
                blackHole(TappingFeatureExtractor.features(of: samples, variant: variant))
            }
        }
    }

    Benchmark("TappingProcessor_analyze_180taps", configuration: configuration()) { benchmark in
        guard let r = record else { fatalError("TappingBenchmarks: the suite setup did not run") }
        for _ in benchmark.scaledIterations {
            blackHole(TappingProcessor.analyze(r))
        }
    }
}
