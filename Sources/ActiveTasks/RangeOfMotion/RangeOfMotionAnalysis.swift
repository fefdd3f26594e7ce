import Foundation
import StudyInputs

extension TaskKind {
    /// Range of motion.
    public static let rangeOfMotion = TaskKind("rangeOfMotion")
}

/// Range of motion (`ORKRangeOfMotionResult`, knee and shoulder tasks: one object per step): the angles as recorded.
///
/// All angles are degrees as ResearchKit computes them from the device attitude: `start` is 90° minus the phone's
/// starting pitch, `finish`, `minimum` and `maximum` are `start` minus the angle moved, and `range` is
/// `|maximum − minimum|` (a warning when the recorded range disagrees by more than 10⁻⁶°). Definitions:
/// `docs/active-tasks.md`.
enum RangeOfMotionAnalysis: ScoredTaskAnalysis {
    /// Range-of-motion steps.
    public static let kinds: [TaskKind] = [.rangeOfMotion]

    /// Range of motion, for `ORKRangeOfMotionResult`s.
    public static func claims(_ input: LoadedInput) -> [TaskKind] {
        input.researchKit?.result?.rangeOfMotionResults.isEmpty == false ? [.rangeOfMotion] : []
    }
    /// Why an input gave no result.
    public static let nothingToAnalyse = "no range-of-motion result (ORKRangeOfMotionResult) to score"
    /// None read as raw JSON: the decoder models `ORKRangeOfMotionResult` (``ResearchKit/RangeOfMotionResult``).
    public static let classNames: [String] = []

    /// One result per range-of-motion object, with its step.
    public static func analyze(_ input: LoadedInput, options: AnalysisOptions) -> [ScoredTaskResult] {
        guard let document = input.researchKit, let root = document.result else { return [] }
        let steps = ExportContext(input: input).steps
        return root.rangeOfMotionResults.map { item in
            let r = item.result
            var warnings: [String] = []
            if abs(r.range - abs(r.maximum - r.minimum)) > 1e-6 {
                warnings.append(
                    "range \(ResultEncoding.exact(r.range))° is not |maximum − minimum| = "
                        + "\(ResultEncoding.exact(abs(r.maximum - r.minimum)))°")
            }
            return ScoredTaskResult(
                kind: kinds[0].rawValue, source: document.file, taskRunUUID: document.taskResult?.taskRunUUID?.uuidString,
                stepIdentifier: item.stepIdentifier,
                startDate: steps[item.stepIdentifier]?.start ?? r.header.startDate,
                endDate: steps[item.stepIdentifier]?.end ?? r.header.endDate,
                scores: scores(r), warnings: warnings)
        }
    }

    static func scores(_ r: ResearchKit.RangeOfMotionResult) -> [TaskScore] {
        [
            TaskScore("start", r.start, "deg"), TaskScore("finish", r.finish, "deg"),
            TaskScore("minimum", r.minimum, "deg"), TaskScore("maximum", r.maximum, "deg"),
            TaskScore("range", r.range, "deg"),
        ]
    }

    /// Not used: ``analyze(_:options:)`` reads the modelled results.
    public static func scores(_ objects: [ScoredFields], warnings: inout [String]) -> [TaskScore] { [] }
}

extension RangeOfMotionAnalysis {
    /// The study tables' measures: the range of motion.
    public static let studyMeasures: [StudyMeasure] = [StudyMeasure("range", unit: "deg")]
}
