import Foundation
import StudyInputs

extension TaskKind {
    /// Spatial span memory (`ORKSpatialSpanMemoryResult`).
    public static let spatialSpanMemory = TaskKind("spatialSpanMemory")
}

/// Spatial span memory (`ORKSpatialSpanMemoryResult`, one object per step): the recorded score, games and failures,
/// and the maximum span reached.
///
/// A game's span is the length of its `sequence` (not `gameSize`, the number of tiles on the board); the maximum
/// span is the longest sequence among games whose `gameStatus` is `success`. Definitions and units:
/// `docs/active-tasks.md`.
enum SpatialSpanMemoryAnalysis: ScoredTaskAnalysis {
    /// Spatial span memory steps.
    public static let kinds: [TaskKind] = [.spatialSpanMemory]
    /// Why an input gave no result.
    public static let nothingToAnalyse = "no spatial span memory result (ORKSpatialSpanMemoryResult) to score"
    /// The result class.
    public static let classNames = ["ORKSpatialSpanMemoryResult"]
    /// The predefined task's active step(s).
    public static let stepIdentifiers = ["cognitive.memory.spatialspan"]

    /// The scores of one step (the first object; more than one is a warning).
    public static func scores(_ objects: [ScoredFields], warnings: inout [String]) -> [TaskScore] {
        let o = objects.first ?? ScoredFields(JSONObject([]), path: "(no result)")
        if objects.count > 1 { warnings.append("\(objects.count) spatial span results in one step; the first is scored") }
        var statuses: [String: Int] = [:]
        var maximumSpan: Int?
        let games = o.objects("gameRecords", &warnings)
        for game in games {
            let status = game.string("gameStatus", &warnings) ?? "unknown"
            statuses[status, default: 0] += 1
            let span: Int? =
                switch game.raw["sequence"] {
                case .array(let items)?: items.count
                default: nil
                }
            if status == "success", let span { maximumSpan = max(span, maximumSpan ?? 0) }
        }
        if games.isEmpty { warnings.append("the result has no game records") }
        return [
            TaskScore("score", o.number("score", &warnings), "count"),
            TaskScore("numberOfGames", o.number("numberOfGames", &warnings), "count"),
            TaskScore("numberOfFailures", o.number("numberOfFailures", &warnings), "count"),
            TaskScore("successfulGames", Double(statuses["success"] ?? 0), "count"),
            TaskScore("failedGames", Double(statuses["failure"] ?? 0), "count"),
            TaskScore("timedOutGames", Double(statuses["timeout"] ?? 0), "count"),
            TaskScore("maximumSpan", maximumSpan.map(Double.init), "count"),
        ]
    }
}

extension SpatialSpanMemoryAnalysis {
    /// The study tables' measures: score and maximum span.
    public static let studyMeasures: [StudyMeasure] = [
        StudyMeasure("score", unit: "points"),
        StudyMeasure("maximumSpan", unit: "count"),
    ]
}
