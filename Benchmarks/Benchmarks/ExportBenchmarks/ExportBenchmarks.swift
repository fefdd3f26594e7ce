// Rendering analysed results, as `taskproc analyze --format …` and every `batch` record do: the JSON output and
// the MORK and FHIR exports (which see a typed result through JSONTreeEncoder, then write JSON text), for three
// results of different shapes — an audio-file summary (10 s of stereo noise at 48 kHz: per-channel levels and a
// spectrum), the tapping result of mhealthtools' `tap_data` sample, and the walking result of an Oxford Step Counter
// recording. Parsing is timed on the JSON text of the walking result's ResearchKit export (JSONParser, as every
// ResearchKit input is read). The results are analysed, and the text to parse is rendered, once in the suite's
// setup (never timed). Throughput is renderings (or parses) per second; malloc counts are per operation.
import ActiveTasks
import Benchmark
import BenchmarkSupport
import Foundation
import SensorSignal
import StudyBatch
import StudyInputs
import StudyOutputs

struct SetupFailure: Error, CustomStringConvertible {
    var description: String
}

/// The shared data folder, relative to the benchmark package directory (where `swift package benchmark` runs) and
/// to the repository root.
func sharedData(_ relative: String) throws -> String {
    let candidates = ["../../shared/data/" + relative, "../shared/data/" + relative]
    guard let path = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
        throw SetupFailure(description: "ExportBenchmarks: \(candidates[0]) not found")
    }
    return path
}

/// The results rendered, by name, and the JSON text parsed; built by the suite's setup.
nonisolated(unsafe) var results: [String: any RenderableResult & Sendable] = [:]
nonisolated(unsafe) var exportText = Data()
nonisolated(unsafe) var directory: TemporaryDirectory?

/// The only result of `path`'s analysis whose kind is `kind`.
func analysed(_ path: String, kind: String) throws -> any RenderableResult & Sendable {
    let found = AnalysisRegistry.analyze(try AnalysisRegistry.load(path: path)).flatMap(\.results)
        .filter { $0.kind.rawValue == kind }
    guard found.count == 1, let first = found.first else {
        throw SetupFailure(description: "ExportBenchmarks: \(found.count) \(kind) results in \(path)")
    }
    return first.result
}

/// Export options with a complete MORK envelope, so that the MORK export runs to the end.
func exportOptions() -> ExportOptions {
    var mork = MORKExport.Configuration()
    for field in MORKExport.requiredFields { mork.envelope[field] = "bench" }
    return ExportOptions(context: ExportContext(exportedAt: Date(timeIntervalSince1970: 1_700_000_000)), mork: mork)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.setup = {
        let dir = try TemporaryDirectory(prefix: "taskproc-export-bench")
        directory = dir
        var noise = NoiseSource()
        let wav = dir.file("noise.wav")
        let left = noise.samples(480_000, amplitude: 0.3, as: Double.self)
        let right = noise.samples(480_000, amplitude: 0.1, as: Double.self)
        try AudioFileWriter.write([left, right], sampleRate: 48_000, to: wav, format: .wav24)
        results["audio10s"] = try analysed(wav, kind: "audio")
        results["tapping"] = try analysed(sharedData("mpower-samples/mhealthtools_tap_data.csv"), kind: "tapping")
        results["walking"] = try analysed(
            sharedData("oxford-step-counter/user1_hand_1506421989895.csv.gz"), kind: "walking")
        // Fail loudly rather than time an export that throws.
        for (name, result) in results {
            for format in [OutputFormat.json, .mork, .fhir] {
                do { _ = try ResultEncoding.render(result, as: format, export: exportOptions()) } catch {
                    throw SetupFailure(description: "ExportBenchmarks: \(name) as \(format): \(error)")
                }
            }
        }
        let walking = try ResultEncoding.render(results["walking"]!, as: .researchkit, export: exportOptions())
        exportText = Data(walking.utf8)
        _ = try JSONParser.parse(exportText, file: "walking-researchkit.json")
    }
    Benchmark.teardown = {
        results = [:]
        directory?.remove()
        directory = nil
    }

    for name in ["audio10s", "tapping", "walking"] {
        for format in [OutputFormat.json, .mork, .fhir] {
            Benchmark(
                "ResultEncoding.render_\(format.rawValue)_\(name)",
                configuration: Suite.configuration(maxDuration: .seconds(1), maxIterations: 10_000)
            ) { benchmark in
                guard let result = results[name] else { fatalError("ExportBenchmarks: the suite setup did not run") }
                for _ in benchmark.scaledIterations {
                    blackHole(try ResultEncoding.render(result, as: format, export: exportOptions()).utf8.count)
                }
            }
        }
    }
    Benchmark(
        "JSONParser.parse_walkingResearchKitExport",
        configuration: Suite.configuration(maxDuration: .seconds(1), maxIterations: 10_000)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try JSONParser.parse(exportText, file: "walking-researchkit.json"))
        }
    }
}
