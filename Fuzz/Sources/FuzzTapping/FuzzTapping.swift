// The tapping processor fed decoded-but-hostile taps: timestamps, durations, locations, button rectangles and
// view sizes that are NaN, ±infinity, ±1e308, repeated or out of order; both R variants, with the default or a
// hostile (finite, ≥ 0, as the CLI accepts) depress threshold; a rendering (a trailing byte picks the format).
import Foundation
import FuzzSupport

@testable import ActiveTasks
@testable import StudyBatch
@testable import StudyInputs
@testable import StudyOutputs

/// libFuzzer\'s entry point: one input, `count` bytes at `bytes`; returns 0 (every input is kept).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTapping(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzBytes(bytes, count)
    var recordings: [TappingRecording] = []
    for _ in 0..<(1 + input.count(max: 2)) {
        let samples = (0..<input.count(max: 600)).map { _ in
            TapSample(
                timestamp: input.hostileDouble(), duration: input.byte() % 2 == 0 ? nil : input.hostileDouble(),
                button: [TapButton.none, .left, .right][Int(input.byte() % 3)],
                location: ViewPoint(x: input.hostileDouble(), y: input.hostileDouble()))
        }
        func rect() -> ViewRect? {
            guard input.byte() % 2 == 1 else { return nil }
            return ViewRect(
                origin: ViewPoint(x: input.hostileDouble(), y: input.hostileDouble()),
                size: ViewSize(width: input.hostileDouble(), height: input.hostileDouble()))
        }
        let left = rect()
        let right = rect()
        let size = input.byte() % 2 == 1 ? ViewSize(width: input.hostileDouble(), height: input.hostileDouble()) : nil
        recordings.append(
            TappingRecording(
                samples: samples, leftButton: left, rightButton: right, viewSize: size,
                stepIdentifier: input.byte() % 2 == 0 ? "tapping.right" : nil))
    }
    var options = fuzzAnalysisOptions()
    options.tappingVariant = input.byte() % 2 == 0 ? .mhealthtools : .mpower2016
    let threshold = input.hostileDouble()
    if threshold.isFinite, threshold >= 0 { options.depressThreshold = threshold }
    for variant in TappingVariant.allCases {
        for recording in recordings {
            _ = TappingFeatureExtractor.features(
                of: recording.samples, variant: variant, depressThreshold: options.depressThreshold)
        }
    }
    var loaded = LoadedInput(path: "tapping_results.json", dialect: .mPower, taskKind: .tapping)
    loaded.tapping = recordings
    // One byte after the rest picks the output format (JSON, table, CSV, researchkit, mork, fhir).
    analyzeAndRender(loaded, options: options, format: input.byte())
    return 0
}
