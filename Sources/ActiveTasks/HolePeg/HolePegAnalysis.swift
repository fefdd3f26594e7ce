import Foundation
import StudyInputs

extension TaskKind {
    /// The 9-hole peg test (`ORKHolePegTestResult`).
    public static let holePeg = TaskKind("holePeg")
}

/// The 9-hole peg test (`ORKHolePegTestResult`, one object per step: place and remove, dominant and non-dominant
/// hand): pegs moved, failures, time and distance.
///
/// `totalTime` is the step's timer in seconds, `totalDistance` and a sample's `distance` are screen points, a
/// sample's `time` is seconds since the previous successful peg; a failure is a drag that did not end in the target.
/// `movingDirection` is 0 left, 1 right. Definitions and units: `docs/active-tasks.md`.
enum HolePegAnalysis: ScoredTaskAnalysis {
    /// Hole peg steps.
    public static let kinds: [TaskKind] = [.holePeg]
    /// Why an input gave no result.
    public static let nothingToAnalyse = "no hole peg result (ORKHolePegTestResult) to score"
    /// The result class.
    public static let classNames = ["ORKHolePegTestResult"]
    /// The predefined task's active step(s).
    public static let stepIdentifiers = [
        "hole.peg.test.dominant.place", "hole.peg.test.dominant.remove", "hole.peg.test.non.dominant.place",
        "hole.peg.test.non.dominant.remove",
    ]

    /// The scores of one step (the first object; more than one is a warning).
    public static func scores(_ objects: [ScoredFields], warnings: inout [String]) -> [TaskScore] {
        let o = objects.first ?? ScoredFields(JSONObject([]), path: "(no result)")
        if objects.count > 1 { warnings.append("\(objects.count) hole peg results in one step; the first is scored") }
        let pegs = o.number("numberOfPegs", &warnings)
        let successes = o.number("totalSuccesses", &warnings)
        let time = o.number("totalTime", &warnings)
        let samples = o.objects("samples", &warnings)
        if let pegs, let successes, successes < pegs {
            warnings.append("\(ResultEncoding.exact(successes)) of \(ResultEncoding.exact(pegs)) pegs moved")
        }
        if !objects.isEmpty, let pegs, pegs <= 0 {
            warnings.append("numberOfPegs is \(ResultEncoding.exact(pegs)): no pegs to move, so completed is undefined")
        }
        return [
            TaskScore("dominantHand", o.bool("dominantHandTested", &warnings).map { $0 ? 1 : 0 }, "boolean"),
            TaskScore("movingDirection", o.number("movingDirection", &warnings), "code"),
            TaskScore("numberOfPegs", pegs, "count"),
            TaskScore("successes", successes, "count"),
            TaskScore("failures", o.number("totalFailures", &warnings), "count"),
            TaskScore("totalTime", time, "s"),
            TaskScore("totalDistance", o.number("totalDistance", &warnings), "pt"),
            TaskScore("timePerPeg", successes.flatMap { s in s > 0 ? time.map { $0 / s } : nil }, "s"),
            TaskScore("meanPegTime", ScoreStatistics.mean(samples.compactMap { $0.number("time", &warnings) }), "s"),
            TaskScore("completed", successes.flatMap { s in pegs.flatMap { $0 > 0 ? (s >= $0 ? 1 : 0) : nil } }, "boolean"),
        ]
    }
}

extension HolePegAnalysis {
    /// The study tables' measures: total and mean peg time, per hand and direction.
    public static let studyMeasures: [StudyMeasure] = [
        StudyMeasure("totalTime", unit: "s", by: ["dominantHand", "movingDirection"]),
        StudyMeasure("meanPegTime", unit: "s", by: ["dominantHand", "movingDirection"]),
    ]
}
