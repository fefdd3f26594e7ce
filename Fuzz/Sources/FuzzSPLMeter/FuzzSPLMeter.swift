// The SPL meters fed hostile values: SensorSignal's SoundLevelMeter (any sampling rate, interval and full scale
// the API accepts; samples that are NaN, ±infinity, ±1e308, denormal, in Double, Float and 16-bit blocks of any
// size), and ResearchKit's environment SPL-meter result (hostile dB samples, sensitivity offset and threshold
// rule) through SPLMeterProcessor and a rendering (a trailing byte picks the format).
import Foundation
import FuzzSupport
import SensorSignal

@testable import ActiveTasks
@testable import StudyBatch
@testable import StudyInputs
@testable import StudyOutputs

/// libFuzzer\'s entry point: one input, `count` bytes at `bytes`; returns 0 (every input is kept).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSPLMeter(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzBytes(bytes, count)
    if input.byte() % 2 == 0 {
        meter(&input)
    } else {
        researchKitResult(&input)
    }
    return 0
}

func pick(_ input: inout FuzzBytes, _ plausible: [Double]) -> Double {
    let b = Int(input.byte())
    return b < plausible.count * 32 ? plausible[b % plausible.count] : input.hostileDouble()
}

func meter(_ input: inout FuzzBytes) {
    var configuration = SoundLevelMeter.Configuration()
    let rate = pick(&input, [1000, 8000, 44_100, 48_000, 192_000])
    configuration.samplingInterval = pick(&input, [0.1, 0.125, 1, 3.7])
    configuration.fullScale = pick(&input, [1, 32_768])
    guard let meter = try? SoundLevelMeter(sampleRate: rate, configuration: configuration) else { return }
    let pattern = input.hostileDoubles(max: 64)
    // Up to 64 blocks of up to 5 000 samples, 20 000 in all (20 s at 1 kHz, 2.5 s at 8 kHz, 0.4 s at 48 kHz):
    // several intervals at the low rates, while one input costs about a millisecond under ASan (until 2026-11-26
    // 100 000 samples, five times the time per input for the same code).
    var blocks = 0
    var total = 0
    while !input.isAtEnd && blocks < 64 && total < 20_000 {
        blocks += 1
        let n = min(input.count(max: 5_000), 20_000 - total)
        total += n
        let values = (0..<n).map { pattern.isEmpty ? 0 : pattern[$0 % pattern.count] }
        switch input.byte() % 3 {
        case 0: values.withUnsafeBufferPointer { meter.add($0.span) }
        case 1: values.map(Float.init).withUnsafeBufferPointer { meter.add($0.span) }
        default:
            values.map { Int16(truncatingIfNeeded: Int($0.isFinite ? max(-1e9, min(1e9, $0)) : 0)) }
                .withUnsafeBufferPointer { meter.add(pcm16: $0.span) }
        }
    }
    let measurement = meter.finish()
    // Every stored value read (hashing); `String(describing:)` spent a fifth of the time in the runtime's reflection.
    _ = measurement.hashValue
    _ = measurement.duration
}

func researchKitResult(_ input: inout FuzzBytes) {
    let header = ResearchKit.ResultHeader(className: "ORKEnvironmentSPLMeterResult", identifier: input.string())
    let result = ResearchKit.EnvironmentSPLMeterResult(
        header: header, sensitivityOffset: input.hostileDouble(),
        recordedSPLMeterSamples: input.hostileDoubles(max: 2000))
    let rule: SPLThresholdRule? =
        input.byte() % 2 == 0
        ? nil
        : SPLThresholdRule(
            threshold: input.hostileDouble(),
            requiredContiguousSamples: Int(truncatingIfNeeded: Int64(bitPattern: input.word())))
    let summary = SPLMeterProcessor.analyze(result, stepIdentifier: input.string(), file: "spl.json", rule: rule)
    renderOneFormat(summary, format: input.byte())
}
