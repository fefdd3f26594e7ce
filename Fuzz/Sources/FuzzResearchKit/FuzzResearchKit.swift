// ResearchKit result JSON (`_class` trees: task, step, file, tapping, timed walk, dB HL and legacy tone
// audiometry, SPL meter, range of motion, the scored cognitive and motor tasks), alone or as a task folder with a
// recorder file it names.
// First byte: even = one result file; odd = a task folder, the rest split at the first NUL byte into the task
// result (`taskResult.json`) and one recorder file, named by the first `"fileName"` the task mentions (so that
// the task's ORKFileResult finds it) or `accel_walking.outbound.json`.
import Foundation
import FuzzSupport

/// libFuzzer\'s entry point: one input, `count` bytes at `bytes`; returns 0 (every input is kept).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResearchKit(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzBytes(bytes, count)
    let mode = input.byte()
    let rest = input.rest()
    let format = mode / 2  // the output format (mod 6)
    guard mode % 2 == 1 else {
        withFuzzFile(rest, named: "result.json") { loadAnalyzeAndRender($0, format: format) }
        return 0
    }
    let split = rest.firstIndex(of: 0) ?? rest.endIndex
    let recorder = split < rest.endIndex ? Array(rest[(split + 1)...]) : []
    let task = Array(rest[..<split])
    withFuzzFile(task, named: "task/taskResult.json") { path in
        let folder = (path as NSString).deletingLastPathComponent
        writeFile((folder as NSString).appendingPathComponent(recorderName(task)), recorder)
        loadAnalyzeAndRender(folder, format: format)
    }
    return 0
}

/// The first `"fileName":"…"` value in `task` when it is a plain file name, else a default.
func recorderName(_ task: [UInt8]) -> String {
    let text = String(decoding: task, as: UTF8.self)
    guard let key = text.range(of: "\"fileName\"") else { return "accel_walking.outbound.json" }
    let after = text[key.upperBound...].drop { $0 == ":" || $0 == " " }
    guard after.first == "\"" else { return "accel_walking.outbound.json" }
    let name = after.dropFirst().prefix { $0 != "\"" }
    guard !name.isEmpty, name.count < 200, !name.contains("/"), name != ".", name != ".." else {
        return "accel_walking.outbound.json"
    }
    return String(name)
}
