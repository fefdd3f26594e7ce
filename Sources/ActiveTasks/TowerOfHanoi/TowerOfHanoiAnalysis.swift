import Foundation
import StudyInputs

extension TaskKind {
    /// Tower of Hanoi (`ORKTowerOfHanoiResult`).
    public static let towerOfHanoi = TaskKind("towerOfHanoi")
}

/// Tower of Hanoi (`ORKTowerOfHanoiResult`, one object per step): solved, moves and time.
///
/// Only legal moves are recorded; a move's `timestamp` is seconds since the first move (which has 0), so the time is
/// the last move's timestamp. The number of disks is a property of the step, not of the result, so the minimum
/// number of moves (2ⁿ − 1) is not known here. Definitions and units: `docs/active-tasks.md`.
enum TowerOfHanoiAnalysis: ScoredTaskAnalysis {
    /// Tower of Hanoi steps.
    public static let kinds: [TaskKind] = [.towerOfHanoi]
    /// Why an input gave no result.
    public static let nothingToAnalyse = "no Tower of Hanoi result (ORKTowerOfHanoiResult) to score"
    /// The result class.
    public static let classNames = ["ORKTowerOfHanoiResult"]
    /// The predefined task's active step(s).
    public static let stepIdentifiers = ["towerOfHanoi"]

    /// The scores of one step (the first object; more than one is a warning).
    public static func scores(_ objects: [ScoredFields], warnings: inout [String]) -> [TaskScore] {
        let o = objects.first ?? ScoredFields(JSONObject([]), path: "(no result)")
        if objects.count > 1 { warnings.append("\(objects.count) Tower of Hanoi results in one step; the first is scored") }
        let moves = o.objects("moves", &warnings)
        let times = moves.compactMap { $0.number("timestamp", &warnings) }
        let solved = o.bool("puzzleWasSolved", &warnings)
        if solved == nil { warnings.append("puzzleWasSolved is missing") }
        if !objects.isEmpty && moves.isEmpty { warnings.append("the result has no moves") }
        return [
            TaskScore("solved", solved.map { $0 ? 1 : 0 }, "boolean"),
            TaskScore("moves", Double(moves.count), "count"),
            TaskScore("time", times.max(), "s"),
            TaskScore("meanTimePerMove", moves.count >= 2 ? times.max().map { $0 / Double(moves.count - 1) } : nil, "s"),
        ]
    }
}

extension TowerOfHanoiAnalysis {
    /// The study tables' measures: moves and time.
    public static let studyMeasures: [StudyMeasure] = [
        StudyMeasure("moves", unit: "count"),
        StudyMeasure("time", unit: "s"),
    ]
}
