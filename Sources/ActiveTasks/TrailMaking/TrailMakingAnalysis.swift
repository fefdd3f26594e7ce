import Foundation
import StudyInputs

extension TaskKind {
    /// Trail making (`ORKTrailmakingResult`).
    public static let trailMaking = TaskKind("trailMaking")
}

/// Trail making (`ORKTrailmakingResult`, one object per step; 13 targets, trail A `1…13` or B `1,A,2,B,…`): errors
/// and completion time.
///
/// A tap's `index` is the position of the button in the correct order (0-based) and `timestamp` is seconds since the
/// step appeared; a tap is an error when it is not the next expected target (`incorrect`). The trail is completed
/// when the last target (index 12) is tapped correctly, and its time is that tap's timestamp. Definitions and units:
/// `docs/active-tasks.md`.
enum TrailMakingAnalysis: ScoredTaskAnalysis {
    /// Trail making steps.
    public static let kinds: [TaskKind] = [.trailMaking]
    /// Why an input gave no result.
    public static let nothingToAnalyse = "no trail making result (ORKTrailmakingResult) to score"
    /// The result class.
    public static let classNames = ["ORKTrailmakingResult"]
    /// The predefined task's active step(s).
    public static let stepIdentifiers = ["trailmaking"]
    /// Targets of ResearchKit's trail (13 for trail A and B).
    public static let targets = 13

    /// The scores of one step (its taps from every object, in order).
    public static func scores(_ objects: [ScoredFields], warnings: inout [String]) -> [TaskScore] {
        var taps: [(time: Double?, index: Double?, incorrect: Bool)] = []
        var recordedErrors: Double?
        for o in objects {
            if let e = o.number("numberOfErrors", &warnings) { recordedErrors = (recordedErrors ?? 0) + e }
            for tap in o.objects("taps", &warnings) {
                taps.append(
                    (tap.number("timestamp", &warnings), tap.number("index", &warnings),
                        tap.bool("incorrect", &warnings) ?? false))
            }
        }
        let correct = taps.filter { !$0.incorrect }
        let errors = Double(taps.count - correct.count)
        if let recordedErrors, recordedErrors != errors {
            warnings.append(
                "numberOfErrors says \(ResultEncoding.exact(recordedErrors)) but \(ResultEncoding.exact(errors)) taps are "
                    + "marked incorrect; errors are the recorded numberOfErrors")
        }
        let last = correct.last { $0.index == Double(targets - 1) }
        let completion = last?.time
        if last == nil { warnings.append("the trail was not completed (no correct tap on the last target)") }
        return [
            TaskScore("taps", Double(taps.count), "count"),
            TaskScore("correctTaps", Double(correct.count), "count"),
            TaskScore("errors", recordedErrors ?? errors, "count"),
            TaskScore("completed", last == nil ? 0 : 1, "boolean"),
            TaskScore("completionTime", completion, "s"),
            TaskScore("timePerTarget", completion.map { $0 / Double(targets) }, "s"),
        ]
    }
}

extension TrailMakingAnalysis {
    /// The study tables' measures: completion time and errors.
    public static let studyMeasures: [StudyMeasure] = [
        StudyMeasure("completionTime", unit: "s"),
        StudyMeasure("errors", unit: "count"),
    ]
}
