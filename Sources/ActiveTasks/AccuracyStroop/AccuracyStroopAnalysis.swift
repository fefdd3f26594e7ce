import Foundation
import StudyInputs

extension TaskKind {
    /// The accuracy Stroop step (`ORKAccuracyStroopResult`).
    public static let accuracyStroop = TaskKind("accuracyStroop")
}

/// The accuracy Stroop step (`ORKAccuracyStroopResult`; custom tasks only, one step per trial): whether the tapped
/// circle had the ink colour, how long the tap took and how far it landed from a circle's centre.
///
/// `timeTakenToSelect` is seconds from the step appearing to the tap; `distanceToClosestCenter` is screen points to
/// the tapped circle's centre (to the nearest centre when the tap hit none). Definitions: `docs/active-tasks.md`.
enum AccuracyStroopAnalysis: ScoredTaskAnalysis {
    /// Accuracy Stroop steps.
    public static let kinds: [TaskKind] = [.accuracyStroop]
    /// Why an input gave no result.
    public static let nothingToAnalyse = "no accuracy Stroop result (ORKAccuracyStroopResult) to score"
    /// The result class.
    public static let classNames = ["ORKAccuracyStroopResult"]

    /// The scores of one step (one trial; more than one object is a warning).
    public static func scores(_ objects: [ScoredFields], warnings: inout [String]) -> [TaskScore] {
        let o = objects.first ?? ScoredFields(JSONObject([]), path: "(no result)")
        if objects.count > 1 { warnings.append("\(objects.count) accuracy Stroop results in one step; the first is scored") }
        return [
            TaskScore("correct", o.bool("didSelectCorrectColor", &warnings).map { $0 ? 1 : 0 }, "boolean"),
            TaskScore("timeTakenToSelect", o.number("timeTakenToSelect", &warnings), "s"),
            TaskScore("distanceToClosestCenter", o.number("distanceToClosestCenter", &warnings), "pt"),
        ]
    }
}

extension AccuracyStroopAnalysis {
    /// The study tables' measures: the fraction of steps answered correctly and the time to select.
    public static let studyMeasures: [StudyMeasure] = [
        StudyMeasure("correct", unit: "fraction"),
        StudyMeasure("timeTakenToSelect", unit: "s"),
    ]
}
