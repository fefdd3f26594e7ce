// Delimited tables recognised by their header: accelerometer and device-motion CSV (with or without a header), mhealthtools tap tables.
// The input's first byte picks the file name (the recogniser decides by name, then by content); the rest is
// the file, loaded, analysed and rendered (in the format the first byte also picks) as `taskproc analyze` does.
import Foundation
import FuzzSupport

let names = [
    "data.csv", "data.tsv", "data.txt", "mhealthtools_tap_data.csv", "walk.csv",
]

/// libFuzzer\'s entry point: one input, `count` bytes at `bytes`; returns 0 (every input is kept).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    fuzzNamedFile(bytes, count, names: names)
    return 0
}
