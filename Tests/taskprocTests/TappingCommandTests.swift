import ActiveTasks
import ArgumentParser
import Foundation
import StudyBatch
import StudyInputs
import StudyOutputs
import TestSupport
import Testing

@testable import taskproc

/// `taskproc analyze` on every tapping dialect, end to end through the built binary.
@Suite struct TappingCommandTests {
    let run = CommandLineEndToEndTests().run

    /// `Tests/Fixtures/<relative>`.
    func fixture(_ relative: String) -> String { fixturePath(relative) }

    /// Runs `analyze` and decodes the JSON array of results.
    func analyze(_ arguments: [String], status: Int32 = 0) throws -> [[String: Any]] {
        let r = try run(["analyze"] + arguments)
        #expect(r.status == status, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
        return try #require(json as? [[String: Any]])
    }

    @Test func parsesTheTappingOptions() throws {
        let command = try Analyze.parse(["taps.csv", "--tapping-variant", "mpower2016", "--depress-threshold", "15"])
        #expect(command.tapping.variant == .mpower2016)
        #expect(command.tapping.depressThreshold == 15)
        #expect(try Analyze.parse(["taps.csv"]).tapping.variant == .mhealthtools)
        #expect(throws: (any Error).self) { try Analyze.parse(["taps.csv", "--tapping-variant", "mpowertools"]) }
        #expect(throws: (any Error).self) { try Analyze.parse(["taps.csv", "--depress-threshold", "-1"]) }
    }

    @Test func mhealthtoolsTableMatchesTheReference() throws {
        let results = try analyze([sharedDataPath("mpower-samples/mhealthtools_tap_data.csv")])
        let r = try #require(results.first)
        #expect(results.count == 1)
        #expect(r["variant"] as? String == "mhealthtools")
        #expect(r["numberTaps"] as? Int == 172)
        // reference-outputs/mhealthtools_tapping_features.csv (R 4.2.2)
        let mean = try #require(r["meanTapInter"] as? Double)
        #expect(abs(mean - 0.117664115740729) < 1e-9 * 0.1177)
        #expect(r["error"] is NSNull)
        #expect(r["backwardsTimestamps"] as? Int == 18)
    }

    @Test func mPowerJSONInBothVariants() throws {
        let path = sharedDataPath("mpower-samples/pdkit_mpower_finger_tapping.json")
        let mh = try #require(try analyze([path]).first)
        #expect(mh["numberTaps"] as? Int == 163)
        #expect(mh["dfaTapInter"] == nil)
        let mp = try #require(try analyze([path, "--tapping-variant", "mpower2016"]).first)
        #expect(mp["variant"] as? String == "mpower2016")
        #expect(mp["numberTaps"] as? Int == 162)
        // mpower_sdata_tapping_features.csv: kurTapInter 7.28218054149862 (population, not excess)
        let kur = try #require(mp["kurTapInter"] as? Double)
        #expect(abs(kur - 7.28218054149862) < 1e-9 * 7.28)
        #expect(mp["dfaTapInter"] is Double)
    }

    @Test func mPowerTappingSamplesFileNamesItsHand() throws {
        let r = try #require(try analyze([fixture("mpower/tapping_left.json.TappingSamples")]).first)
        #expect(r["stepIdentifier"] as? String == "tapping.left")
        #expect(r["tapCount"] as? Int == 6)
    }

    @Test func researchKitTaskFolderGivesOneResultPerHandWithTheAccelerometer() throws {
        let results = try analyze([fixture("tapping/task-folder")])
        #expect(results.map { $0["stepIdentifier"] as? String } == ["tapping.left", "tapping.right"])
        #expect(results[0]["accelerometer"] is NSNull)
        let accelerometer = try #require(results[1]["accelerometer"] as? [String: Any])
        // |a| = 1, 1.1, 0.9, 1, 1 g at 100 Hz: mean 1, sd √(0.02/4), range 0.2, 0.04 s.
        #expect(accelerometer["samples"] as? Int == 5)
        #expect(abs((accelerometer["magnitudeMean"] as? Double ?? 0) - 1) < 1e-12)
        #expect(abs((accelerometer["magnitudeSD"] as? Double ?? 0) - 0.005.squareRoot()) < 1e-12)
        #expect(abs((accelerometer["magnitudeRange"] as? Double ?? 0) - 0.2) < 1e-12)
        #expect(abs((accelerometer["samplingRate"] as? Double ?? 0) - 100) < 1e-6)
        for r in results {
            #expect(r["error"] is NSNull)
            #expect(r["tapCount"] as? Int == 9)
            #expect(r["noneTaps"] as? Int == 1 && r["tapsOutsideButtons"] as? Int == 1)
            #expect(r["alternationRate"] as? Double == 1)
        }
    }

    @Test func researchKitResultWithTooFewTapsReportsTheError() throws {
        let r = try #require(try analyze([fixture("researchkit/tapping-task.json")]).first)
        #expect(r["error"] as? String == "tapping data has less than 5 rows")
        #expect(r["meanTapInter"] is NSNull)
        #expect(r["leftTaps"] as? Int == 1)
    }

    @Test func myDataHelpsRowsAndTheBadRow() throws {
        // Row TI-4 has an unknown button: the other rows are still analysed and the exit status is 2.
        let r = try run(["analyze", fixture("mydatahelps/SurveyTappingIntervalResults.csv"), "--format", "csv"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("could not be read"))
        let lines = r.stdout.split(separator: "\n")
        try #require(lines.count == 5)  // header + 4 rows
        let header = lines[0].split(separator: ",").map(String.init)
        for name in ["meanTapInter", "corXY", "numberTaps", "buttonNoneFreq", "error", "tapDurationMean"] {
            #expect(header.contains(name), "\(name)")
        }
        #expect(lines[1].contains("#TI-1"))
    }
}
