// ResearchKit recorder logs (`{"items":[…]}` or a bare array): accelerometer, device motion, pedometer, location, touch, HealthKit quantities.
// The input's first byte picks the file name (the recogniser decides by name, then by content); the rest is
// the file, loaded, analysed and rendered (in the format the first byte also picks) as `taskproc analyze` does.
import Foundation
import FuzzSupport

let names = [
    "accelerometer.json", "deviceMotion.json", "pedometer.json", "location.json", "touch.json",
    "HKQuantityTypeIdentifierHeartRate.json", "recorder_data", "accel_walking.outbound.json",
]

/// libFuzzer\'s entry point: one input, `count` bytes at `bytes`; returns 0 (every input is kept).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecorderLog(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    fuzzNamedFile(bytes, count, names: names)
    return 0
}
