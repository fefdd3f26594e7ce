import Foundation
import SensorSignal
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs

/// Issue 17, item 4: no bout outside the recording.
@Suite(.tags(.taskAwareness)) struct WalkingBoutBoundsTests {
    /// A bout reaches half a step period beyond its first and last step, which can be before the first sample: on
    /// the real kinetic-tremor recording (run through the detector directly, as a bare log) a bout once started
    /// 0.44 s before the recording. The detector clips every bout to its segment, so no result has one outside the
    /// recording; synthetic walks that start and end mid-stride too.
    @Test func boutsStayInsideTheRecording() throws {
        let input = try AnalysisRegistry.load(
            path: sharedDataPath("mhealthtools-motion/kinetic_tremor_data_deviceMotion.json"))
        guard case .deviceMotion(let tremor) = try #require(input.recordings.first).data else {
            Issue.record("not a device-motion log")
            return
        }
        var results = [WalkingProcessor.analyze(tremor)]
        for seed in UInt64(1)...6 {
            let log = SyntheticWalk.accelerometer(
                stepFrequency: 1.5 + 0.1 * Double(seed), duration: 20, rate: 50, unit: .g, seed: seed)
            results.append(WalkingProcessor.analyze(log.cleaned()))
        }
        for result in results {
            let span = try #require(result.quality.hygiene).timeSpan
            for bout in result.bouts {
                #expect(bout.start >= 0 && bout.end <= span && bout.start < bout.end, "\(bout) in 0…\(span) s")
            }
        }
        print("kinetic tremor, detector alone: bouts \(results[0].bouts)")
    }
}
