// MyDataHelps exports: SurveyData/<participant>/<result>/<step>/ motion files, the tapping, tone-audiometry,
// question and consent-signature CSVs, the JSON export's SurveyResults.json and the survey answers API's JSON.
// The input's first byte picks the file name (the recogniser decides by name, then by content); the rest is
// the file, loaded, analysed and rendered (in the format the first byte also picks) as `taskproc analyze` does.
import Foundation
import FuzzSupport

let names = [
    "SurveyData/P-0001/SR-77/walking.outbound/Accelerometer.json",
    "SurveyData/P-0001/SR-77/walking.outbound/DeviceMotion.json",
    "SurveyData/P-0001/SR-77/walking.return/Pedometer.json",
    "SurveyTappingIntervalResults.csv", "SurveyToneAudiometryResults.csv",
    "SurveyQuestionResults.csv", "SurveyConsentSignatureResults.csv", "SurveyResults.json", "survey-answers.json",
]

/// libFuzzer\'s entry point: one input, `count` bytes at `bytes`; returns 0 (every input is kept).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMyDataHelps(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    fuzzNamedFile(bytes, count, names: names)
    return 0
}
