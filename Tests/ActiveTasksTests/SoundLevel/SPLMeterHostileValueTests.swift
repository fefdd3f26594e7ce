import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs

/// Issue 16 in the SPL-meter processor: NaN, ±∞ and ±1e308 are counted, excluded and named, never a failed record,
/// and the result still encodes as JSON.
@Suite(.tags(.hostileInput)) struct SPLMeterHostileValueTests {
    @Test func splSamplesOutsideTheLevelRangeAreLeftOutOfTheAverages() throws {
        let header = ResearchKit.ResultHeader(className: "ORKEnvironmentSPLMeterResult", identifier: "splMeter")
        let result = ResearchKit.EnvironmentSPLMeterResult(
            header: header, sensitivityOffset: -23.3, recordedSPLMeterSamples: [50, 1e308, 50, -1e308, 301])
        let analysed = SPLMeterProcessor.analyze(result, stepIdentifier: "splMeter", file: "spl.json")
        #expect(analysed.energyAverage == 50)
        #expect(analysed.maximum == 50)
        #expect(analysed.warnings.contains { $0.hasPrefix("3 sample(s) not finite or outside -200…300 dB") })
        _ = try ResultEncoding.json(analysed)
    }
}
