// The audiometry processor fed decoded-but-hostile results: dB HL steps (one to three ears, frequencies,
// thresholds, presentation levels and times NaN, ±infinity, ±1e308 or the DBL_MAX sentinel; any output volume and
// headphone type; ResearchKit versions old and new) and legacy tone-audiometry presentations; the staircase
// re-derivation, calibration, summaries and a rendering (a trailing byte picks the format, FHIR included).
import Foundation
import FuzzSupport

@testable import ActiveTasks
@testable import StudyBatch
@testable import StudyInputs
@testable import StudyOutputs

let headphones: [String?] = [nil, "AIRPODSPROV2", "AIRPODSV1", "AIRPODSMAX", "EARPODS", "airpodsv3", "UNKNOWN", ""]
let versions = [
    ResearchKitVersion(2, 0), ResearchKitVersion(2, 1), ResearchKitVersion(3, 0), ResearchKitVersion(3, 1, 1),
]

/// libFuzzer\'s entry point: one input, `count` bytes at `bytes`; returns 0 (every input is kept).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAudiometry(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzBytes(bytes, count)
    var options = AudiometryAnalysisOptions()
    options.researchKitVersion = versions[Int(input.byte()) % versions.count]
    var steps: [ResearchKit.StepItem<ResearchKit.DBHLToneAudiometryResult>] = []
    for k in 0..<input.count(max: 3) {
        let samples = (0..<input.count(max: 12)).map { _ in
            ResearchKit.DBHLToneAudiometryFrequencySample(
                frequency: input.byte() % 2 == 0
                    ? [250, 500, 1000, 2000, 4000, 8000][Int(input.byte() % 6)] : input.hostileDouble(),
                calculatedThreshold: input.byte() % 4 == 0 ? nil : input.hostileDouble(),
                channel: input.byte() % 2 == 0 ? .left : .right,
                units: (0..<input.count(max: 24)).map { _ in
                    ResearchKit.DBHLToneAudiometryUnit(
                        dBHLValue: input.hostileDouble(), startOfUnitTimeStamp: input.hostileDouble(),
                        preStimulusDelay: input.hostileDouble(), userTapTimeStamp: input.hostileDouble(),
                        timeoutTimeStamp: input.hostileDouble())
                })
        }
        let result = ResearchKit.DBHLToneAudiometryResult(
            header: ResearchKit.ResultHeader(className: "ORKdBHLToneAudiometryResult", identifier: "dBHL\(k + 1)"),
            outputVolume: input.hostileDouble(), tonePlaybackDuration: input.hostileDouble(),
            postStimulusDelay: input.hostileDouble(), headphoneType: headphones[Int(input.byte()) % headphones.count],
            samples: samples)
        steps.append(ResearchKit.StepItem(stepIdentifier: "dBHL\(k + 1).tone.audiometry", result: result))
    }
    var results: [AudiometryResult] = []
    if !steps.isEmpty {
        results.append(.dBHL(AudiometryProcessor.analyze(steps, source: "fuzz.json", options: options)))
    }
    let legacy = (0..<input.count(max: 16)).map { _ in
        ToneAudiometrySample(
            frequency: input.hostileDouble(), channel: Int(Int8(truncatingIfNeeded: input.byte())),
            channelSelected: Int(Int8(truncatingIfNeeded: input.byte())), amplitude: input.hostileDouble())
    }
    if !legacy.isEmpty || input.byte() % 2 == 0 {
        let volume = input.byte() % 2 == 0 ? nil : input.hostileDouble()
        results.append(
            .legacy(AudiometryProcessor.legacy(legacy, outputVolume: volume, stepIdentifier: nil, source: nil)))
    }
    // One byte after the rest picks the output format (JSON, table, CSV, researchkit, mork, fhir).
    let format = input.byte()
    for result in results {
        renderOneFormat(result, format: format)
    }
    return 0
}
