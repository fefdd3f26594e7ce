// The HTML report renderer fed hostile result JSON: a results file (one result or an array) and the same bytes
// as batch `results.jsonl` lines, numbers replaced by hostile values (see hostileResults); histograms, plots,
// tables and escaping. Source files are not re-read (`readSources: false`): a fuzz input must not read the disk.
import Foundation
import FuzzSupport

@testable import ActiveTasks
@testable import StudyBatch
@testable import StudyInputs
@testable import StudyOutputs

/// libFuzzer\'s entry point: one input, `count` bytes at `bytes`; returns 0 (every input is kept).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReport(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let (text, objects) = hostileResults(Array(UnsafeBufferPointer(start: bytes, count: count)))
    if !objects.isEmpty {
        let record = ReportRecord(
            source: objects.first?["source"]?.stringValue ?? "results.json", kind: objects.first?["kind"]?.stringValue,
            status: "ok", results: objects)
        _ = HTMLReport.render([record], readSources: false)
    }
    if let records = try? HTMLReport.jsonLines(Data(text), file: "results.jsonl") {
        _ = HTMLReport.render(records, title: "fuzz <report>", readSources: false)
    }
    return 0
}
