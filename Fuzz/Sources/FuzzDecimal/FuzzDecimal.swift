// The decimal parser behind every recorder-log and CSV number, checked against the C library's strtod: it
// promises the very same double for every input it accepts.
import Foundation

@testable import ActiveTasks
@testable import StudyBatch
@testable import StudyInputs
@testable import StudyOutputs

/// libFuzzer\'s entry point: one input, `count` bytes at `bytes`; returns 0 (every input is kept).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecimal(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let buffer = UnsafeBufferPointer(start: bytes, count: count)
    if let value = DecimalParser.parse(buffer) {
        // strtod on a NUL-terminated copy; the grammars agree on the accepted subset (no hex, inf or nan text).
        var text = Array(buffer)
        text.append(0)
        let expected = text.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { strtod($0, nil) }
        }
        if value.bitPattern != expected.bitPattern && !(value.isNaN && expected.isNaN) {
            fatalError(
                "DecimalParser.parse(\(String(decoding: buffer, as: UTF8.self))) = \(value), strtod = \(expected)")
        }
    }
    // scan from every start: the longest number there, never past the end.
    var start = 0
    while start < count {
        if let (_, end) = DecimalParser.scan(buffer, from: start) {
            precondition(end > start && end <= count, "scan returned \(end) from \(start) of \(count)")
            start = end
        } else {
            start += 1
        }
    }
    return 0
}
