import Foundation
import StudyInputs

extension TaskKind {
    /// The Stroop test (`ORKStroopResult`).
    public static let stroop = TaskKind("stroop")
}

/// The Stroop test (`ORKStroopResult`, one object per trial): accuracy and response times, overall and for
/// congruent (`text == color`) and incongruent trials, and the interference effect.
///
/// A trial is correct when `colorSelected == color`; its response time is `endTime − startTime` (s; both on the
/// device's uptime clock). A trial without `colorSelected` counts as answered wrongly; a trial whose times are
/// missing or run backwards has no response time (with a warning). Definitions and units: `docs/active-tasks.md`.
enum StroopAnalysis: ScoredTaskAnalysis {
    /// Stroop steps.
    public static let kinds: [TaskKind] = [.stroop]
    /// Why an input gave no result.
    public static let nothingToAnalyse = "no Stroop trial (ORKStroopResult) to score"
    /// The trials' class.
    public static let classNames = ["ORKStroopResult"]
    /// The predefined task's active step(s).
    public static let stepIdentifiers = ["stroop"]

    struct Trial {
        var congruent: Bool?
        var correct: Bool
        var responseTime: Double?
    }

    /// The scores of one step's trials.
    public static func scores(_ objects: [ScoredFields], warnings: inout [String]) -> [TaskScore] {
        var trials: [Trial] = []
        var unanswered = 0
        for o in objects {
            let color = o.string("color", &warnings)
            let text = o.string("text", &warnings)
            let selected = o.string("colorSelected", &warnings)
            if selected == nil { unanswered += 1 }
            var rt: Double?
            if let start = o.number("startTime", &warnings), let end = o.number("endTime", &warnings) {
                if end >= start { rt = end - start } else { warnings.append("\(o.path): endTime is before startTime; no response time") }
            }
            let congruent = color.flatMap { c in text.map { $0 == c } }
            trials.append(Trial(congruent: congruent, correct: selected != nil && selected == color, responseTime: rt))
        }
        if unanswered > 0 { warnings.append("\(unanswered) of \(trials.count) trials have no colorSelected (counted as wrong)") }
        func rts(_ t: [Trial]) -> [Double] { t.compactMap(\.responseTime) }
        func accuracy(_ t: [Trial]) -> Double? { t.isEmpty ? nil : Double(t.filter(\.correct).count) / Double(t.count) }
        let correct = trials.filter(\.correct)
        let congruent = trials.filter { $0.congruent == true }
        let incongruent = trials.filter { $0.congruent == false }
        let congruentRT = ScoreStatistics.mean(rts(congruent.filter(\.correct)))
        let incongruentRT = ScoreStatistics.mean(rts(incongruent.filter(\.correct)))
        return [
            TaskScore("trials", Double(trials.count), "count"),
            TaskScore("correct", Double(correct.count), "count"),
            TaskScore("accuracy", accuracy(trials), "fraction"),
            TaskScore("meanResponseTime", ScoreStatistics.mean(rts(trials)), "s"),
            TaskScore("medianResponseTime", ScoreStatistics.median(rts(trials)), "s"),
            TaskScore("meanCorrectResponseTime", ScoreStatistics.mean(rts(correct)), "s"),
            TaskScore("medianCorrectResponseTime", ScoreStatistics.median(rts(correct)), "s"),
            TaskScore("congruentTrials", Double(congruent.count), "count"),
            TaskScore("incongruentTrials", Double(incongruent.count), "count"),
            TaskScore("congruentAccuracy", accuracy(congruent), "fraction"),
            TaskScore("incongruentAccuracy", accuracy(incongruent), "fraction"),
            TaskScore("congruentMeanCorrectResponseTime", congruentRT, "s"),
            TaskScore("incongruentMeanCorrectResponseTime", incongruentRT, "s"),
            TaskScore("interferenceEffect", incongruentRT.flatMap { i in congruentRT.map { i - $0 } }, "s"),
        ]
    }
}

extension StroopAnalysis {
    /// The study tables' measures: accuracy, mean correct response time and the interference effect.
    public static let studyMeasures: [StudyMeasure] = [
        StudyMeasure("accuracy", unit: "fraction"),
        StudyMeasure("meanCorrectResponseTime", unit: "s"),
        StudyMeasure("interferenceEffect", unit: "s"),
    ]
}
