// The JSON parser every JSON reader shares, and the recogniser's sniffing of a JSON document's dialect.
import ActiveTasks
import Foundation
import StudyBatch
import StudyInputs
import StudyOutputs

/// libFuzzer\'s entry point: one input, `count` bytes at `bytes`; returns 0 (every input is kept).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    if let value = try? JSONParser.parse(data, file: "fuzz.json") {
        _ = value.summary
        // Round trip: what we parsed must encode (numbers are finite: the parser accepts no NaN).
        _ = try? ResultEncoding.json(value)
    }
    switch InputRecognizer.sniffJSON(data) {
    case .notJSON(let error): _ = error("fuzz.json").description
    default: break
    }
    return 0
}
