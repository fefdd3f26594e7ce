// The walking processor fed decoded-but-hostile values: accelerometer, device-motion and pedometer logs whose
// timestamps and samples are NaN, ±infinity, ±1e308, subnormal, huge or zero counts, out of order, mixed with
// plausible values (a short pattern from the input, cycled to up to 2000 samples, 20 s at 100 Hz, so that step detection runs),
// as walking, tremor or rest steps (the mhealthtools features; one input in eight with the IMF = 2 sets);
// through hygiene, the step detector and a rendering (a trailing byte picks the format), as `analyze` does.
import Foundation
import FuzzSupport

@testable import ActiveTasks
@testable import StudyBatch
@testable import StudyInputs
@testable import StudyOutputs

/// libFuzzer\'s entry point: one input, `count` bytes at `bytes`; returns 0 (every input is kept).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWalking(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzBytes(bytes, count)
    // One input in eight asks for mhealthtools' IMF = 2 sets (an EMD per axis, then features per 256-sample
    // window): those logs are kept to 600 samples (two windows), as 2000 took 1.3 s per input under ASan.
    let imfFeatures = input.byte() % 8 == 0
    // 2000 samples hold three 6 s analysis windows at 100 Hz; 4000 (until 2026-11-26) only doubled the time spent
    // in hygiene and rendering per input.
    let n = input.count(max: imfFeatures ? 600 : 2000)
    let timestamps = hostileTimestamps(&input, count: n)
    let unit: AccelerationUnit = input.byte() % 2 == 0 ? .g : .metersPerSecondSquared
    let acceleration = Vector3Series(
        x: cycled(&input, count: n), y: cycled(&input, count: n), z: cycled(&input, count: n))
    let accelerometer = AccelerometerLog(
        timestamp: timestamps, timestampSince1970: input.byte() % 4 == 0 ? timestamps.map { $0 + 1.5e9 } : nil,
        acceleration: acceleration, unit: unit)
    // The step decides the analysis: walking, an unnamed log (walking), a tremor step (the mhealthtools tremor
    // features) or a rest step (the balance features).
    let step: String? = ["walking.outbound", nil, "tremor.handInLap.right", "walking.rest"][Int(input.byte() % 4)]
    var loaded = LoadedInput(path: "fuzz.json", dialect: .recorderLog, taskKind: .walking)
    let which = input.byte()
    if which % 3 != 1 {
        loaded.recordings.append(
            LoadedRecording(
                file: "accelerometer.json", stepIdentifier: step, recorderIdentifier: "accelerometer",
                data: .accelerometer(accelerometer.cleaned()), ignoredKeys: []))
    }
    if which % 3 != 0 {
        let m = input.count(max: imfFeatures ? 600 : 1000)
        let motion = DeviceMotionLog(
            timestamp: hostileTimestamps(&input, count: m), timestampSince1970: nil,
            userAcceleration: Vector3Series(
                x: cycled(&input, count: m), y: cycled(&input, count: m), z: cycled(&input, count: m)),
            gravity: Vector3Series(
                x: cycled(&input, count: m), y: cycled(&input, count: m), z: cycled(&input, count: m)),
            rotationRate: Vector3Series(
                x: cycled(&input, count: m), y: cycled(&input, count: m), z: cycled(&input, count: m)),
            attitude: Vector3Series(
                x: cycled(&input, count: m), y: cycled(&input, count: m), z: cycled(&input, count: m)),
            attitudeW: cycled(&input, count: m), magneticField: nil, magneticFieldAccuracy: nil)
        loaded.recordings.append(
            LoadedRecording(
                file: "deviceMotion.json", stepIdentifier: step, recorderIdentifier: "deviceMotion",
                data: .deviceMotion(motion.cleaned()), ignoredKeys: []))
    }
    if which & 4 != 0 {
        let samples = (0..<input.count(max: 16)).map { _ in
            PedometerSample(
                startDate: hostileDate(&input), endDate: hostileDate(&input),
                numberOfSteps: Int(truncatingIfNeeded: Int64(bitPattern: input.word())),
                distance: input.hostileDouble(),
                floorsAscended: input.byte() % 2 == 0 ? nil : Int(Int8(truncatingIfNeeded: input.byte())),
                floorsDescended: nil)
        }
        loaded.recordings.append(
            LoadedRecording(
                file: "pedometer.json", stepIdentifier: step, recorderIdentifier: "pedometer",
                data: .pedometer(PedometerLog(samples: samples)), ignoredKeys: []))
    }
    // One byte after the rest picks the output format (JSON, table, CSV, researchkit, mork, fhir).
    let format = input.byte()
    var options = fuzzAnalysisOptions()
    if imfFeatures { options.featureSet = .mhealthtools }
    analyzeAndRender(loaded, options: options, format: format)
    return 0
}

/// Timestamps: a hostile start and step, or a cycled hostile pattern (unordered, repeated, non-finite).
func hostileTimestamps(_ input: inout FuzzBytes, count n: Int) -> [Double] {
    if input.byte() % 2 == 0 {
        let start = input.hostileDouble()
        let step = input.byte() % 2 == 0 ? 0.01 : input.hostileDouble()
        return (0..<n).map { start + Double($0) * step }
    }
    return cycled(&input, count: n)
}

/// `n` values: a pattern of up to 64 hostile values read from the input, repeated; a smooth wave when empty.
func cycled(_ input: inout FuzzBytes, count n: Int) -> [Double] {
    let pattern = input.hostileDoubles(max: 64)
    guard !pattern.isEmpty else { return (0..<n).map { sin(Double($0) / 8) } }
    return (0..<n).map { pattern[$0 % pattern.count] + sin(Double($0) / 8) }
}

/// A date within ±68 years of 1970 with a UTC offset of up to ±28 hours.
func hostileDate(_ input: inout FuzzBytes) -> ResultDate {
    let seconds = Double(Int32(truncatingIfNeeded: input.word()))
    return ResultDate(
        date: Date(timeIntervalSince1970: seconds), utcOffset: Int(Int32(truncatingIfNeeded: input.word()) % 100_000))
}
