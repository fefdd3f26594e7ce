// Every exporter (researchkit, mork, fhir) fed hostile result JSON: taskproc results of every kind, their numbers
// replaced by NaN, ±infinity, ±1e308 and other hostile values (see hostileResults), one record per result object,
// as batch `--format` and `export` build them; then the export document encoded as JSON.
import Foundation
import FuzzSupport

@testable import ActiveTasks
@testable import StudyBatch
@testable import StudyInputs
@testable import StudyOutputs

/// libFuzzer\'s entry point: one input, `count` bytes at `bytes`; returns 0 (every input is kept).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExport(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let (_, objects) = hostileResults(Array(UnsafeBufferPointer(start: bytes, count: count)))
    guard !objects.isEmpty else { return 0 }
    let records = objects.map(ExportRecord.init(json:))
    let options = fuzzExportOptions()
    for format in [OutputFormat.researchkit, .mork, .fhir] {
        if let document = try? Export.render(records, as: format, options: options) {
            _ = try? ResultEncoding.json(document)
        }
    }
    return 0
}
