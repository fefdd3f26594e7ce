import Foundation
import SensorSignal
import StudyInputs
import TestSupport
import Testing

@testable import ActiveTasks

/// Stride length, walking speed and cadence of a lower-back sensor against the INDIP reference bouts of the
/// Mobilise-D development trials (`../shared/data/mobilise-d-lab/reference-bouts.csv`), each participant's measured
/// sensor height given (`participants.csv`), as `taskproc analyze FILE --sensor-height H` does.
///
/// Each reference bout is matched to the taskproc bout that overlaps it most (one to one, greatest overlap first),
/// as `Benchmarks/compare/walking.py` does. The errors are pinned at what was measured on 2026-12-03 (steps from the Mobilise-D chain, the default) (±0.01 m,
/// ±0.01 m/s, ±1 step/min), so a change for the better or the worse shows here; the issue's targets (speed MAE
/// ≤ 0.10 m/s, stride length ≤ 0.10 m per reference bout) are met on the straight walks, not yet on the daily-activity
/// trial.
@Suite struct WalkingGaitRealDataTests {
    struct Bout {
        var start: Double
        var end: Double
        var cadence: Double?
        var strideLength: Double?
        var walkingSpeed: Double?
    }

    struct Matched {
        var daily: Bool
        var reference: Bout
        var found: Bout
    }

    static func matched() throws -> (pairs: [Matched], references: Int, found: [WalkingResult]) {
        let participants = try RealData.truthRows("mobilise-d-lab/participants.csv")
        let references = try RealData.truthRows("mobilise-d-lab/reference-bouts.csv")
        let trials = try RealData.truthRows("mobilise-d-lab/truth.csv")
        var pairs: [Matched] = []
        var results: [WalkingResult] = []
        for trial in trials {
            let file = try #require(trial["file"])
            let participant = try #require(participants.first { file.hasPrefix($0["participant"] ?? "?") })
            let height = try #require(participant["sensor_height_m"].flatMap(Double.init))
            let input = try AnalysisRegistry.load(path: sharedDataPath("mobilise-d-lab/" + file))
            let found = WalkingProcessor.analyze(input, gait: GaitOptions(placement: .lowerBack, sensorHeight: height))
            try #require(found.count == 1)
            results.append(found[0])
            let bouts = found[0].bouts.map {
                Bout(
                    start: $0.start, end: $0.end, cadence: $0.cadence, strideLength: $0.strideLength,
                    walkingSpeed: $0.walkingSpeed)
            }
            let reference = try references.filter { $0["file"] == file }.map { row in
                func value(_ key: String) throws -> Double { try #require(row[key].flatMap(Double.init), "\(key)") }
                return Bout(
                    start: try value("start_s"), end: try value("end_s"), cadence: try value("cadence_spm"),
                    strideLength: try value("stride_length_m"), walkingSpeed: try value("walking_speed_mps"))
            }
            var candidates: [(overlap: Double, r: Int, f: Int)] = []
            for (i, r) in reference.enumerated() {
                for (j, f) in bouts.enumerated() {
                    let overlap = min(r.end, f.end) - max(r.start, f.start)
                    if overlap > 0 { candidates.append((overlap, i, j)) }
                }
            }
            var usedR = Set<Int>()
            var usedF = Set<Int>()
            for c in candidates.sorted(by: { $0.overlap > $1.overlap })
            where !usedR.contains(c.r) && !usedF.contains(c.f) {
                usedR.insert(c.r)
                usedF.insert(c.f)
                pairs.append(Matched(daily: trial["test"] == "Test11", reference: reference[c.r], found: bouts[c.f]))
            }
        }
        return (pairs, references.count, results)
    }

    static func mae(_ pairs: [Matched], _ key: KeyPath<Bout, Double?>) -> (value: Double, count: Int) {
        let errors = pairs.compactMap { p -> Double? in
            guard let a = p.found[keyPath: key], let b = p.reference[keyPath: key] else { return nil }
            return abs(a - b)
        }
        return (errors.reduce(0, +) / Double(max(errors.count, 1)), errors.count)
    }

    @Test func strideLengthSpeedAndCadenceAgainstINDIP() throws {
        let (pairs, references, _) = try Self.matched()
        // 9 of the 10 reference bouts are found (HA 001's slow 28.7–33.3 s bout is not).
        #expect(pairs.count == 9, "\(pairs.count) of \(references) reference bouts matched")
        let straight = pairs.filter { !$0.daily }
        let measured: [(String, [Matched], KeyPath<Bout, Double?>, Double, Double)] = [
            ("straight walks, stride length (m)", straight, \.strideLength, 0.046, 0.01),
            ("straight walks, walking speed (m/s)", straight, \.walkingSpeed, 0.038, 0.01),
            ("straight walks, cadence (steps/min)", straight, \.cadence, 1.6, 1),
            ("all matched bouts, stride length (m)", pairs, \.strideLength, 0.120, 0.01),
            ("all matched bouts, walking speed (m/s)", pairs, \.walkingSpeed, 0.078, 0.01),
            ("all matched bouts, cadence (steps/min)", pairs, \.cadence, 1.7, 1),
            // Bout cadence from the initial contacts of the gait sequences (11.7 steps/min from the step detector's
            // peaks of |a|, 3.1 from its bouts' contacts).
            ("daily activities, cadence (steps/min)", pairs.filter(\.daily), \.cadence, 1.7, 1),
        ]
        for (label, group, key, value, tolerance) in measured {
            let (error, count) = Self.mae(group, key)
            print("Mobilise-D \(label): MAE \(error) over \(count) bouts")
            #expect(count == group.count, "\(label): \(count) of \(group.count) bouts have a value")
            #expect(abs(error - value) <= tolerance, "\(label): MAE \(error), measured \(value)")
        }
        // The issue's targets, met on the straight walks; cadence also over all bouts.
        #expect(Self.mae(straight, \.walkingSpeed).value <= 0.10)
        #expect(Self.mae(straight, \.strideLength).value <= 0.10)
        #expect(Self.mae(straight, \.cadence).value <= 3)
        #expect(Self.mae(pairs, \.cadence).value <= 3)
    }

    /// Stance and double support as shares of the stride on the four straight walks.
    ///
    /// Pinned at the measured 61.4–62.6 % and 24.4–24.6 % (±2 points). The shared data hold no stance reference; healthy adults at comfortable
    /// speed stand about 60–62 % of the stride with about 20–25 % double support (Perry & Burnfield, Gait Analysis,
    /// 2010), which these agree with.
    @Test func stanceAndDoubleSupportOfStraightWalks() throws {
        let (_, _, results) = try Self.matched()
        let straight = results.filter { ($0.source ?? "").contains("Test5") }
        try #require(straight.count == 4)
        for result in straight {
            let stride = try #require(result.strideTime)
            let stance = try #require(result.stanceTime)
            let swing = try #require(result.swingTime)
            let doubleSupport = try #require(result.doubleSupportTime)
            print(
                "\(result.source ?? ""): stance \(100 * stance / stride) %, double support \(100 * doubleSupport / stride) %"
            )
            #expect((59.4...64.6).contains(100 * stance / stride), "stance \(stance) s of \(stride) s")
            #expect(
                (22.4...26.6).contains(100 * doubleSupport / stride), "double support \(doubleSupport) s of \(stride) s"
            )
            #expect(abs(stance + swing - stride) < 0.05 * stride)
            #expect(result.turns == nil)
            #expect(result.placement == "lower-back")
        }
    }

    /// Without a placement the gait keys are null (encoded as null), and the result says nothing about them.
    @Test func unknownPlacementGivesNullGaitKeys() throws {
        let input = try AnalysisRegistry.load(path: sharedDataPath("mobilise-d-lab/HA_001_Test5_Trial1.csv.gz"))
        let result = try #require(WalkingProcessor.analyze(input).first)
        #expect(result.placement == "unknown")
        #expect(result.strideLength == nil && result.walkingSpeed == nil && result.stanceTime == nil)
        #expect(result.strideTime != nil)
        let json = try #require(String(data: try JSONEncoder().encode(result), encoding: .utf8))
        for key in ["strideLength", "walkingSpeed", "stanceTime", "swingTime", "doubleSupportTime", "turns"] {
            #expect(json.contains("\"\(key)\":null"), "\(key) not encoded as null")
        }
        #expect(!result.quality.warnings.contains { $0.contains("sensor height") })
        // Lower back without a height: timing, no lengths, and a warning saying why.
        let noHeight = try #require(WalkingProcessor.analyze(input, gait: GaitOptions(placement: .lowerBack)).first)
        #expect(noHeight.stanceTime != nil && noHeight.strideLength == nil)
        #expect(noHeight.quality.warnings.contains { $0.contains("without a sensor height") })
    }
}
