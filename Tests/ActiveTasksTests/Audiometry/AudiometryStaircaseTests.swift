import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs

/// The dB HL staircase against ResearchKit's own conformance data and the spec's worked examples.
@Suite struct AudiometryStaircaseTests {
    /// The frequencies of ResearchKit's conformance test and their audiogram keys (first 1 kHz run).
    static let keys1: [Double: String] = [
        500: "AUXU500", 1000: "AUXU1K1", 2000: "AUXU2K", 3000: "AUXU3K", 4000: "AUXU4K", 6000: "AUXU6K", 8000: "AUXU8K",
    ]

    static func audiograms() throws -> [[String: Double]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: sharedDataPath("audiometry/reference-audiograms-300.json")))
        return try JSONDecoder().decode([[String: Double]].self, from: data)
    }

    @Test func allReferenceAudiogramsAreReproducedExactly() throws {
        let audiograms = try Self.audiograms()
        #expect(audiograms.count == 300)
        var parameters = DBHLStaircaseParameters()
        parameters.frequencies = [500, 1000, 2000, 3000, 4000, 6000, 8000]
        var presentations: [Int] = []
        var checked = 0
        for retestKey in ["AUXU1K1", "AUXU1K2"] {
            var keys = Self.keys1
            keys[1000] = retestKey
            for (index, audiogram) in audiograms.enumerated() {
                let samples = DBHLStaircase.run(parameters: parameters) { s in
                    s.level >= audiogram[keys[s.frequency]!]!
                }
                #expect(samples.count == 7)
                for sample in samples {
                    let expected = audiogram[keys[sample.frequency]!]!
                    #expect(
                        sample.calculatedThreshold == expected,
                        "audiogram \(index) (\(retestKey)) at \(sample.frequency) Hz")
                    checked += 1
                }
                presentations.append(samples.reduce(0) { $0 + $1.units.count })
            }
        }
        #expect(checked == 2 * 300 * 7)
        // Spec §4.3.7: 45–98 presentations per audiogram on the full set.
        #expect(presentations.min()! >= 45 && presentations.max()! <= 98)
    }

    /// §4.3.6 worked examples: (true threshold, levels presented, expected threshold).
    static let examples: [(Double?, [Double], Double?)] = [
        (15, [30, 20, 10, 15, 5, 10, 15], 15),
        (35, [30, 50, 40, 30, 35, 25, 30, 35], 35),
        (60, [30, 50, 60, 50, 55, 60, 50, 55, 60], 60),
        (0, [30, 20, 10, 0, -10, -5, 0, -10, -5, 0], 0),
        (-10, [30, 20, 10, 0, -10, -10, -10], -10),
        (-20, [30, 20, 10, 0, -10, -10, -10], -10),
        (nil, [30, 50, 60, 70, 75, 80, 85, 90, 95, 100, 105, 110, 115, 120, 125, 130, 135, 140, 145, 150], nil),
    ]

    @Test(arguments: 0..<7) func workedExample(_ k: Int) {
        let (truth, levels, expected) = Self.examples[k]
        var parameters = DBHLStaircaseParameters()
        parameters.frequencies = [1000]
        let samples = DBHLStaircase.run(parameters: parameters) { s in truth.map { s.level >= $0 } ?? false }
        #expect(samples.count == 1)
        #expect(samples[0].units.map(\.dBHLValue) == levels)
        #expect(samples[0].calculatedThreshold == expected)
    }

    @Test func defaultListTestsOneThousandHertzTwice() {
        let samples = DBHLStaircase.run { s in s.level >= 20 }
        #expect(samples.map(\.frequency) == [1000, 2000, 3000, 4000, 8000, 1000, 500, 250])
        #expect(samples.allSatisfy { $0.calculatedThreshold == 20 && $0.channel == .right })
    }

    @Test func consecutiveDuplicateFrequenciesContinueOneTest() {
        var parameters = DBHLStaircaseParameters()
        parameters.frequencies = [1000, 1000, 2000]
        let samples = DBHLStaircase.run(parameters: parameters) { s in s.level >= 15 }
        #expect(samples.map(\.frequency) == [1000, 2000])
    }

    @Test func falseAlarmRepeatsTheLevelAndCountsAsNotHeard() {
        var parameters = DBHLStaircaseParameters()
        parameters.frequencies = [1000]
        var e = DBHLStaircase(parameters: parameters)
        // 30 heard, 20 heard, 10 missed (ends the initial descent), 15: a tap before onset.
        for heard in [true, true, false] {
            e.registerStimulusPlayback()
            e.registerResponse(heard: heard, at: 0)
        }
        #expect(e.nextStimulus.level == 15)
        e.registerResponse(heard: true, at: 1)  // before registerStimulusPlayback: a false alarm
        #expect(e.nextStimulus.level == 15)
        #expect(e.samples[0].units.count == 5)
        #expect(e.samples[0].units[3].userTapTimeStamp == 1)
        // 15 heard: table at 15 is (1 − 1 + 1, 2) = 50 % of 2 → not accepted (2 presentations need 100 %).
        e.registerStimulusPlayback()
        e.registerResponse(heard: true, at: 2)
        #expect(!e.isFinished)
        #expect(e.nextStimulus.level == 5)
    }

    @Test func clippingDuringTheMissListFallsBackToStepUp() {
        var parameters = DBHLStaircaseParameters()
        parameters.frequencies = [1000, 2000]
        var e = DBHLStaircase(parameters: parameters)
        e.registerStimulusPlayback()
        e.registerResponse(heard: false, at: 1)  // 30 missed → 50
        #expect(e.nextStimulus.level == 50)
        e.registerStimulusPlayback()
        e.signalClipped(at: 2)  // 50 − 20 + 5 = 35
        #expect(e.nextStimulus.level == 35)
        #expect(e.samples[0].units[1].userTapTimeStamp == 0 && e.samples[0].units[1].timeoutTimeStamp == 0)
        e.registerStimulusPlayback()
        e.signalClipped(at: 3)  // no longer on the miss list: the frequency is abandoned
        #expect(e.nextStimulus.frequency == 2000)
        #expect(e.samples[0].calculatedThreshold == nil)
        #expect(e.samples[1].units.first?.dBHLValue == 30)
    }

    @Test func neverHearingStopsAtTwentyPresentations() {
        var parameters = DBHLStaircaseParameters()
        parameters.frequencies = [1000, 2000]
        let samples = DBHLStaircase.run(parameters: parameters) { _ in false }
        #expect(samples.map(\.units.count) == [20, 20])
        #expect(samples.allSatisfy { $0.calculatedThreshold == nil })
    }
}
