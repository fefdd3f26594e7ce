// CompareHarness: the taskproc side of Tools/peers/compare.py. Release build only:
//
//     swift build -c release --product CompareHarness
//     .build/release/CompareHarness <operation> [--option value ...]
//
// Each operation reads its inputs from the files the script wrote (so every library sees identical
// data), times the operation alone (no process start, no file loading, no planning; the recorder-log
// decode reads its file inside the timing because json.load, its peer, does too) and prints one
// JSON object: {"harness": "taskproc", "results": [{"op", "ns", "min_ns", "samples", "inner", "check"}]}.
import Foundation

let usageText = """
    usage: CompareHarness <operation> [options]
      fft      --input-f64 PATH --input-f32 PATH --sizes 256,4096,... --effort estimate|measure
      wav      --mono PATH --stereo PATH [--block 65536]
      sosfilt  --input PATH --sos PATH[,PATH...]      (rows of b0 b1 b2 a0 a1 a2, raw f64)
      welch    --input PATH --sample-rate 48000 --segments 1024,4096
      recorder --files PATH[,PATH...]                (ResearchKit / mPower recorder logs, JSON)
      recorder-once --file PATH [--decode 1|0]       (decode once and exit: for peak-RSS readings)
      recorder-generate --directory PATH [--items 60000]
      sound    --input PATH                          (sound level summary of one audio file)
      common:  --samples 31 --sample-ms 2 --warmup-ms 100 --clock thread|wall
    """

struct HarnessOutput: Codable {
    var harness = "taskproc"
    var results: [Measurement]
}

/// `--key value` pairs after the operation name.
struct Arguments {
    var values: [String: String] = [:]

    init(_ arguments: ArraySlice<String>) throws {
        var rest = arguments[...]
        while let key = rest.popFirst() {
            guard key.hasPrefix("--"), let value = rest.popFirst() else {
                throw HarnessError.usage("expected --option value, got \(key)")
            }
            values[String(key.dropFirst(2))] = value
        }
    }

    func string(_ key: String) throws -> String {
        guard let value = values[key] else { throw HarnessError.usage("missing --\(key)") }
        return value
    }

    func int(_ key: String, default fallback: Int) throws -> Int {
        guard let text = values[key] else { return fallback }
        guard let value = Int(text) else { throw HarnessError.usage("--\(key) needs an integer, got \(text)") }
        return value
    }

    func double(_ key: String, default fallback: Double) throws -> Double {
        guard let text = values[key] else { return fallback }
        guard let value = Double(text) else { throw HarnessError.usage("--\(key) needs a number, got \(text)") }
        return value
    }

    func ints(_ key: String) throws -> [Int] {
        try string(key).split(separator: ",").map {
            guard let value = Int($0) else { throw HarnessError.usage("--\(key) needs integers, got \($0)") }
            return value
        }
    }

    var timing: TimingOptions {
        get throws {
            let clock: clockid_t
            switch values["clock"] ?? "thread" {
            case "thread": clock = CLOCK_THREAD_CPUTIME_ID
            case "wall": clock = CLOCK_MONOTONIC
            case let other: throw HarnessError.usage("--clock must be thread or wall, got \(other)")
            }
            return TimingOptions(
                samples: max(1, try int("samples", default: 31)),
                sampleMilliseconds: try double("sample-ms", default: 2),
                warmupMilliseconds: try double("warmup-ms", default: 100), clock: clock)
        }
    }
}

enum HarnessError: Error, CustomStringConvertible {
    case usage(String)
    case input(String)

    var description: String {
        switch self {
        case .usage(let message): "\(message)\n\(usageText)"
        case .input(let message): message
        }
    }
}

/// Reads a raw little-endian array of `Element` (the script writes `.f64` / `.f32` files with numpy's `tofile`).
func readRaw<Element: BinaryFloatingPoint>(_ path: String, as: Element.Type) throws -> [Element] {
    guard let data = FileManager.default.contents(atPath: path) else { throw HarnessError.input("cannot read \(path)") }
    let count = data.count / MemoryLayout<Element>.size
    return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
        _ = data.withUnsafeBytes { raw in raw.copyBytes(to: UnsafeMutableRawBufferPointer(buffer)) }
        initialized = count
    }
}

func run() throws {
    let commandLine = CommandLine.arguments
    guard commandLine.count >= 2 else { throw HarnessError.usage("missing operation") }
    let arguments = try Arguments(commandLine.dropFirst(2))
    let results: [Measurement]
    switch commandLine[1] {
    case "recorder-once": return try recorderOnce(arguments)
    case "recorder-generate": return try recorderGenerate(arguments)
    case "fft": results = try fftOperations(arguments)
    case "wav": results = try wavOperations(arguments)
    case "sosfilt": results = try filterOperations(arguments)
    case "welch": results = try welchOperations(arguments)
    case "recorder": results = try recorderOperations(arguments)
    case "sound": results = try soundOperations(arguments)
    default: throw HarnessError.usage("unknown operation \(commandLine[1])")
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    print(String(decoding: try encoder.encode(HarnessOutput(results: results)), as: UTF8.self))
}

do {
    try run()
} catch {
    FileHandle.standardError.write(Data("CompareHarness: \(error)\n".utf8))
    exit(2)
}
