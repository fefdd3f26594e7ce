import ActiveTasks
import Foundation
import StudyBatch
import StudyInputs
import StudyOutputs

/// What `taskproc analyze` does after loading.
///
/// Every analysis of the input, then every result rendered in one of the six formats (JSON, table, CSV and the
/// three exports), which `format` picks (see ``renderOneFormat(_:format:)``). Errors are expected on hostile input;
/// only crashes count.
public func analyzeAndRender(
    _ input: LoadedInput, options: AnalysisOptions = AnalysisOptions(), format: UInt8
) {
    for analysis in AnalysisRegistry.analyze(input, options: options) {
        _ = analysis.failure?.count
        _ = analysis.problems.map(\.description)
        for analysed in analysis.results {
            renderOneFormat(analysed.result, format: format)
        }
    }
}

/// Analysis options for fuzzing: as `taskproc analyze` (audio headers not read while loading), with a smaller
/// decompression limit (a fuzz input is a few KiB; a bomb must not dominate the run) and no FFmpeg: the handoff is
/// fuzzed at its boundary (FuzzFFprobe), a subprocess per input would make the run hundreds of times slower.
public func fuzzAnalysisOptions() -> AnalysisOptions {
    var options = AnalysisOptions()
    options.loader.readsAudioHeaders = false
    options.loader.maxDecompressedBytes = 8 << 20
    options.audio.soundLevel.ffmpegDirectory = noFFmpegFolder
    // Buffers are sized per channel for a whole block (issue 16: a 1024-channel WAV of one frame takes GBs at the
    // default 65 536); a smaller block keeps the audio targets about the parsers, not that known finding.
    options.audio.blockFrames = 4096
    options.audio.soundLevel.blockFrames = 4096
    return options
}

/// An empty folder given as the FFmpeg location, so that audio FFmpeg would decode fails at once with
/// "decoder unavailable".
public let noFFmpegFolder: String = {
    let path = (fuzzScratch as NSString).appendingPathComponent("no-ffmpeg")
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}()

/// Loads `path` as `taskproc analyze` does, then analyses it and renders the results in the format `format` picks.
public func loadAnalyzeAndRender(_ path: String, options: AnalysisOptions = fuzzAnalysisOptions(), format: UInt8) {
    guard let input = try? AnalysisRegistry.load(path: path, options: options.loader) else { return }
    _ = input.errors.count
    analyzeAndRender(input, options: options, format: format)
    InputLoader.removeExtractedArchives()
}

/// Export options whose MORK envelope is complete, so that the MORK export runs to the end. New each time: an
/// export records its notes in them.
public func fuzzExportOptions() -> ExportOptions {
    var mork = MORKExport.Configuration()
    for field in MORKExport.requiredFields { mork.envelope[field] = "fuzz" }
    return ExportOptions(context: ExportContext(exportedAt: Date(timeIntervalSince1970: 1_700_000_000)), mork: mork)
}

/// Renders `result` in one format, `OutputFormat.allCases[format % 6]` (errors ignored: only crashes count).
///
/// One format per input, picked by a fuzz byte, instead of all six every time: the targets that analyse spent most
/// of their time rendering the same result six ways; this way each format still gets every kind of result (the
/// byte is the fuzzer's to mutate) at several times the executions per second.
public func renderOneFormat(_ result: some RenderableResult, format: UInt8) {
    let formats = OutputFormat.allCases
    _ = try? ResultEncoding.render(result, as: formats[Int(format) % formats.count], export: fuzzExportOptions())
}

/// Hostile result JSON from one fuzz input.
///
/// The input is JSON text (taskproc results, as `analyze --format json` or a batch `results.jsonl` line writes
/// them), then optionally a NUL byte and bytes from which every number in the parsed text is replaced by a hostile
/// value (NaN, ±infinity, ±1e308, …), in document order, while they last. The parser never yields a non-finite
/// number, but results built in memory can hold them.
public func hostileResults(_ bytes: [UInt8]) -> (text: [UInt8], objects: [JSONObject]) {
    let split = bytes.firstIndex(of: 0) ?? bytes.endIndex
    let text = Array(bytes[..<split])
    guard let parsed = try? JSONParser.parse(Data(text), file: "results.json") else { return (text, []) }
    var value = parsed
    if split < bytes.endIndex {
        var replacements = FuzzBytes(Array(bytes[(split + 1)...]))
        value = replacingNumbers(parsed, from: &replacements)
    }
    switch value {
    case .object(let object): return (text, [object])
    case .array(let items): return (text, items.compactMap(\.objectValue))
    default: return (text, [])
    }
}

func replacingNumbers(_ value: JSONValue, from input: inout FuzzBytes) -> JSONValue {
    switch value {
    case .number: return input.isAtEnd ? value : .number(input.hostileDouble())
    case .array(let items): return .array(items.map { replacingNumbers($0, from: &input) })
    case .object(let object):
        return .object(JSONObject(object.entries.map { ($0.key, replacingNumbers($0.value, from: &input)) }))
    default: return value
    }
}

/// The body of the file targets: the input's first byte picks one of `names` (the recogniser decides by name, then
/// by content) and, divided by the number of names, the output format; the rest is that file, loaded, analysed and
/// rendered as `taskproc analyze` does.
public func fuzzNamedFile(_ bytes: UnsafePointer<UInt8>, _ count: Int, names: [String]) {
    var input = FuzzBytes(bytes, count)
    let selector = Int(input.byte())
    let format = UInt8(selector / names.count % OutputFormat.allCases.count)
    withFuzzFile(input.rest(), named: names[selector % names.count]) { loadAnalyzeAndRender($0, format: format) }
}
