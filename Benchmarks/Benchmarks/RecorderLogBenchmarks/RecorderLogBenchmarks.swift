// Decoding 10-minute, 100 Hz ResearchKit recorder logs (60 000 items) with taskproc's columnar
// `RecorderLogDecoder`: accelerometer and device motion in ORKDataLogger's `{"items":[…]}`, and the
// accelerometer as an mPower bare array. `decode(path:)` includes reading the file, as Python's
// `json.load` does (Tools/peers/compare.py times the two side by side); `decode(_:file:)` times parsing
// alone on bytes already in memory. The logs are generated once, in the suite's setup, by
// RecorderLogFixtures (byte-identical to Tools/peers/make_recorder_logs.py) into a private temporary
// directory.
import ActiveTasks
import Benchmark
import BenchmarkSupport
import Foundation
import RecorderLogFixtures
import StudyBatch
import StudyInputs
import StudyOutputs

typealias Layout = RecorderLogFixtures.Layout

let items = RecorderLogFixtures.defaultItems

/// The generated files and their bytes, created by the suite-wide setup hook.
nonisolated(unsafe) var directory: TemporaryDirectory?
nonisolated(unsafe) var contents: [Layout: Data] = [:]

func logPath(_ layout: Layout) -> String {
    guard let directory else { fatalError("RecorderLogBenchmarks: the suite setup did not run") }
    return directory.file(layout.fileName(items: items))
}

struct SetupFailure: Error, CustomStringConvertible {
    var description: String
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.setup = {
        let dir = try TemporaryDirectory(prefix: "taskproc-recorder-bench")
        directory = dir
        try RecorderLogFixtures.write(to: dir.path, items: items)
        for layout in Layout.allCases {
            let data = try Data(contentsOf: URL(fileURLWithPath: logPath(layout)))
            // Fail loudly rather than time a decoder that rejects or misreads the fixture.
            let decoded = try RecorderLogDecoder.decode(data, file: logPath(layout))
            guard decoded.log.count == items, decoded.log.kind == (layout == .deviceMotion ? .deviceMotion : .accelerometer)
            else {
                throw SetupFailure(description: "\(layout.fileName()): decoded \(decoded.log.count) \(decoded.log.kind) items")
            }
            contents[layout] = data
        }
    }
    Benchmark.teardown = {
        contents = [:]
        directory?.remove()
        directory = nil
    }

    registerDecodePath(.accelerometer, name: "accelerometer_60k")
    registerDecodePath(.deviceMotion, name: "deviceMotion_60k")
    registerDecodePath(.accelerometerMPower, name: "accelerometer_60k_mPowerBareArray")
    registerDecodeData(.accelerometer, name: "accelerometer_60k")
    registerDecodeData(.deviceMotion, name: "deviceMotion_60k")
}

private func registerDecodePath(_ layout: Layout, name: String) {
    Benchmark(
        "RecorderLogDecoder.decode(path)_\(name)",
        configuration: Suite.configuration(maxDuration: .seconds(2), maxIterations: 1_000)
    ) { benchmark in
        let path = logPath(layout)
        for _ in benchmark.scaledIterations {
            let decoded = try RecorderLogDecoder.decode(path: path)
            blackHole(decoded.log.count)
        }
    }
}

private func registerDecodeData(_ layout: Layout, name: String) {
    Benchmark(
        "RecorderLogDecoder.decode(data)_\(name)",
        configuration: Suite.configuration(maxDuration: .seconds(2), maxIterations: 1_000)
    ) { benchmark in
        guard let data = contents[layout] else { fatalError("RecorderLogBenchmarks: the suite setup did not run") }
        let path = logPath(layout)
        for _ in benchmark.scaledIterations {
            let decoded = try RecorderLogDecoder.decode(data, file: path)
            blackHole(decoded.log.count)
        }
    }
}
