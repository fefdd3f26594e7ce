// Recorder-log JSON decoding through RecorderLogDecoder, against Python's json.load (and orjson) on the
// same files:
//
//   recorder           times `RecorderLogDecoder.decode(path:)` per file: reading the file is included,
//                      as it is in `json.load(open(path))`
//   recorder-once      decodes one file once (or, with --decode 0, does nothing), prints its memory
//                      figures and exits: compare.py runs it as a fresh child process per reading
//   recorder-generate  writes RecorderLogFixtures' logs, so compare.py can check they are byte-identical
//                      to make_recorder_logs.py's (the ordo-one suite decodes the Swift-generated ones)
import ActiveTasks
import Foundation
import RecorderLogFixtures
import StudyBatch
import StudyInputs
import StudyOutputs

func recorderOperations(_ arguments: Arguments) throws -> [Measurement] {
    let timing = try arguments.timing
    var results: [Measurement] = []
    for path in try arguments.string("files").split(separator: ",").map(String.init) {
        let op = "recorder/\(URL(fileURLWithPath: path).lastPathComponent)"
        var failure: (any Error)?
        var result = measure(op, options: timing) { calls in
            for _ in 0..<calls {
                do {
                    let decoded = try RecorderLogDecoder.decode(path: path)
                    if decoded.log.count == 0 { failure = HarnessError.input("\(path) decoded to no items") }
                } catch {
                    failure = error
                }
            }
        }
        if let failure { throw failure }
        result.check = normalizedAbsoluteSum(try RecorderLogDecoder.decode(path: path).log)
        results.append(result)
    }
    return results
}

/// Decodes `--file` once (unless `--decode 0`), then prints the item count and the process's memory
/// figures from /proc/self/status while the decoded log is still alive: one fresh process per reading.
func recorderOnce(_ arguments: Arguments) throws {
    let path = try arguments.string("file")
    var items = 0
    var memory: [String: Int] = [:]
    if try arguments.int("decode", default: 1) != 0 {
        let decoded = try RecorderLogDecoder.decode(path: path)
        withExtendedLifetime(decoded) { memory = processMemory() }
        items = decoded.log.count
    } else {
        memory = processMemory()
    }
    memory["items"] = items
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    print(String(decoding: try encoder.encode(memory), as: UTF8.self))
}

/// VmHWM (peak resident set), RssAnon and RssFile of this process, KiB, keyed as in /proc/self/status.
private func processMemory() -> [String: Int] {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return [:] }
    var values: [String: Int] = [:]
    for line in status.split(separator: "\n") {
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, ["VmHWM", "RssAnon", "RssFile"].contains(String(parts[0])) else { continue }
        let number = parts[1].split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }
        if let number { values[String(parts[0])] = number }
    }
    return values
}

/// Writes RecorderLogFixtures' logs into `--directory` (`--items`, default 60 000) and prints their paths.
func recorderGenerate(_ arguments: Arguments) throws {
    let directory = try arguments.string("directory")
    let items = try arguments.int("items", default: RecorderLogFixtures.defaultItems)
    for path in try RecorderLogFixtures.write(to: directory, items: items) { print(path) }
}

/// Σ over the columns of Σ|v| ÷ max|v|: each column weighs the same, so the Unix timestamps do not
/// drown the others. compare.py computes the same over the columns of json.load's items.
private func normalizedAbsoluteSum(_ log: RecorderLog) -> Double {
    func sum(_ columns: [[Double]?]) -> Double {
        columns.reduce(0.0) { total, column in
            guard let column, let peak = column.lazy.map(abs).max(), peak > 0 else { return total }
            return total + column.reduce(0.0) { $0 + abs($1) } / peak
        }
    }
    func axes(_ v: Vector3Series?) -> [[Double]?] { [v?.x, v?.y, v?.z] }
    switch log {
    case .accelerometer(let a):
        return sum([a.timestamp, a.timestampSince1970] + axes(a.acceleration))
    case .deviceMotion(let d):
        return sum(
            [d.timestamp, d.timestampSince1970] + axes(d.userAcceleration) + axes(d.gravity) + axes(d.rotationRate)
                + axes(d.attitude) + [d.attitudeW] + axes(d.magneticField) + [d.magneticFieldAccuracy])
    case .items:
        return 0
    }
}
