// Bridge/mPower column files, recognised by name: walking recorder items and tapping samples.
// The input's first byte picks the file name (the recogniser decides by name, then by content); the rest is
// the file, loaded, analysed and rendered (in the format the first byte also picks) as `taskproc analyze` does.
import Foundation
import FuzzSupport

let names = [
    "accel_walking_outbound.json.items", "deviceMotion_walking_return.json.items",
    "pedometer_walking_outbound.json.items", "accel_walking_rest.json.items", "tapping_results.json",
    "tapping_left.json.TappingSamples", "tapping_right.json.TappingSamples", "accel_tapping_right.json.items",
]

/// libFuzzer\'s entry point: one input, `count` bytes at `bytes`; returns 0 (every input is kept).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMPower(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    fuzzNamedFile(bytes, count, names: names)
    return 0
}
