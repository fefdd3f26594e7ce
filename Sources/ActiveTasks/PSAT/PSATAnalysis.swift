import Foundation
import StudyInputs

extension TaskKind {
    /// The paced serial addition test (`ORKPSATResult`).
    public static let psat = TaskKind("psat")
}

/// The paced serial addition test (`ORKPSATResult`, one object per step): correct sums, dyads, response times and
/// fatigue (accuracy of the second half of the digits against the first).
///
/// Each sample is one digit: `correct` when the answer equals the sum of this digit and the previous one, `answer` −1
/// when nothing was pressed, `time` the seconds from the digit's onset to the last key press (the inter-stimulus
/// interval when unanswered). The recorded totals are reported as written; the derived scores are computed from the
/// samples. Definitions and units: `docs/active-tasks.md`.
enum PSATAnalysis: ScoredTaskAnalysis {
    /// PSAT steps.
    public static let kinds: [TaskKind] = [.psat]
    /// Why an input gave no result.
    public static let nothingToAnalyse = "no PSAT result (ORKPSATResult) to score"
    /// The result class.
    public static let classNames = ["ORKPSATResult"]
    /// The predefined task's active step(s).
    public static let stepIdentifiers = ["psat"]

    /// The scores of one step (the first PSAT object; more than one is a warning).
    public static func scores(_ objects: [ScoredFields], warnings: inout [String]) -> [TaskScore] {
        let o = objects.first ?? ScoredFields(JSONObject([]), path: "(no result)")
        if objects.count > 1 { warnings.append("\(objects.count) PSAT results in one step; the first is scored") }
        let samples = o.objects("samples", &warnings).map {
            (correct: $0.bool("correct", &warnings) ?? false, answer: $0.number("answer", &warnings),
                time: $0.number("time", &warnings))
        }
        let correct = samples.filter(\.correct)
        let answered = samples.filter { ($0.answer ?? -1) != -1 }
        var dyads = 0
        for i in samples.indices.dropFirst() where samples[i].correct && samples[i - 1].correct { dyads += 1 }
        let recordedCorrect = o.number("totalCorrect", &warnings)
        if let recordedCorrect, recordedCorrect != Double(correct.count) {
            warnings.append("totalCorrect says \(ResultEncoding.exact(recordedCorrect)) but \(correct.count) samples are correct")
        }
        let half = samples.count / 2
        func accuracy(_ s: ArraySlice<(correct: Bool, answer: Double?, time: Double?)>) -> Double? {
            s.isEmpty ? nil : Double(s.filter(\.correct).count) / Double(s.count)
        }
        let first = samples.count >= 2 ? accuracy(samples[..<half]) : nil
        let second = samples.count >= 2 ? accuracy(samples[half...]) : nil
        if samples.isEmpty { warnings.append("the PSAT result has no samples") }
        return [
            TaskScore("presentationMode", o.number("presentationMode", &warnings), "code"),
            TaskScore("interStimulusInterval", o.number("interStimulusInterval", &warnings), "s"),
            TaskScore("stimulusDuration", o.number("stimulusDuration", &warnings), "s"),
            TaskScore("digits", Double(samples.count), "count"),
            TaskScore("totalCorrect", recordedCorrect ?? Double(correct.count), "count"),
            TaskScore("totalDyad", o.number("totalDyad", &warnings) ?? Double(dyads), "count"),
            TaskScore("totalTime", o.number("totalTime", &warnings), "s"),
            TaskScore("accuracy", samples.isEmpty ? nil : Double(correct.count) / Double(samples.count), "fraction"),
            TaskScore("unanswered", Double(samples.count - answered.count), "count"),
            TaskScore("meanResponseTime", ScoreStatistics.mean(answered.compactMap(\.time)), "s"),
            TaskScore("meanCorrectResponseTime", ScoreStatistics.mean(correct.compactMap(\.time)), "s"),
            TaskScore("firstHalfAccuracy", first, "fraction"),
            TaskScore("secondHalfAccuracy", second, "fraction"),
            TaskScore("fatigue", second.flatMap { s in first.map { s - $0 } }, "fraction"),
        ]
    }
}

extension PSATAnalysis {
    /// The study tables' measures: accuracy and mean correct response time.
    public static let studyMeasures: [StudyMeasure] = [
        StudyMeasure("accuracy", unit: "fraction"),
        StudyMeasure("meanCorrectResponseTime", unit: "s"),
    ]
}
