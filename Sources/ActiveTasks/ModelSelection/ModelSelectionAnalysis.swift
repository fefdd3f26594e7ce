import Foundation
import StudyInputs

extension TaskKind {
    /// The 3D-model selection (`ORKUSDZModelManagerResult`).
    public static let modelSelection = TaskKind("modelSelection")
}

/// The 3D-model step (`ORKUSDZModelManagerResult`, ResearchKit's `ORK3DModelStep`): which parts of a 3D model the
/// participant selected — a choice, not a timed performance, so its "score" is the selection as recorded.
///
/// `identifiersOfSelectedObjects` lists every object selected during the step, `identifierOfObjectSelectedAtClose`
/// the one selected when the step ended (empty when none). Definitions: `docs/active-tasks.md`.
enum ModelSelectionAnalysis: ScoredTaskAnalysis {
    /// 3D-model steps.
    public static let kinds: [TaskKind] = [.modelSelection]
    /// Why an input gave no result.
    public static let nothingToAnalyse = "no 3D-model selection (ORKUSDZModelManagerResult) to report"
    /// The result class.
    public static let classNames = ["ORKUSDZModelManagerResult"]

    /// The selection of one step (more than one object is a warning; the first is reported).
    public static func scores(_ objects: [ScoredFields], warnings: inout [String]) -> [TaskScore] {
        let o = objects.first ?? ScoredFields(JSONObject([]), path: "(no result)")
        if objects.count > 1 { warnings.append("\(objects.count) 3D-model results in one step; the first is reported") }
        var selected: [String]?
        switch o.raw["identifiersOfSelectedObjects"] {
        case nil, .null?:
            selected = nil
        case .array(let items)?:
            selected = items.compactMap { item -> String? in
                if case .string(let s) = item { return s }
                warnings.append("\(o.path): identifiersOfSelectedObjects holds \(item.summary), not a string; left out")
                return nil
            }
        case let other?:
            warnings.append("\(o.path): identifiersOfSelectedObjects is \(other.summary), not a list; left out")
        }
        let atClose = o.string("identifierOfObjectSelectedAtClose", &warnings)
        if selected?.isEmpty ?? true { warnings.append("no object of the 3D model was selected") }
        return [
            TaskScore("selectedObjects", selected.map { Double($0.count) }, "count"),
            TaskScore("selectedObjectIdentifiers", text: selected?.joined(separator: " | ")),
            TaskScore("objectSelectedAtClose", text: atClose.flatMap { $0.isEmpty ? nil : $0 }),
        ]
    }
}
