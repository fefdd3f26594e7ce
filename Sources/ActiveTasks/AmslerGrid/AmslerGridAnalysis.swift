import Foundation
import StudyInputs

extension TaskKind {
    /// The Amsler grid (`ORKAmslerGridResult`, one step per eye).
    public static let amslerGrid = TaskKind("amslerGrid")
}

/// The Amsler grid (`ORKAmslerGridResult`, one step per eye): whether the participant marked distorted areas on the
/// grid, and how many drawn paths they made.
///
/// ResearchKit writes the result only when the participant drew on the grid: a step without one (the predefined
/// task's `amsler.grid.left` and `amsler.grid.right`) means nothing was marked. `eyeSide` is the eye tested (0 not
/// specified, 1 left, 2 right). The drawing itself is `path`, an array of Bézier paths, which the `NSKeyedArchiver`
/// form keeps but ResearchKit's JSON serializer leaves out (the paths are then only in the drawing-path file,
/// `drawingPathFileResult`, an archive taskproc does not read): without `path` the number of paths is unknown.
/// A stroke becomes several paths when its line width changes with the touch pressure, so paths count strokes
/// pieces, not separate areas. Definitions: `docs/active-tasks.md`.
enum AmslerGridAnalysis: ScoredTaskAnalysis {
    /// Amsler-grid steps.
    public static let kinds: [TaskKind] = [.amslerGrid]
    /// Why an input gave no result.
    public static let nothingToAnalyse = "no Amsler-grid result (ORKAmslerGridResult) to score"
    /// The result's class.
    public static let classNames = ["ORKAmslerGridResult"]
    /// The predefined task's grid steps (left eye, then right eye).
    public static let stepIdentifiers = ["amsler.grid.left", "amsler.grid.right"]

    /// One result per grid step; an empty predefined step is an eye with nothing marked.
    public static func analyze(_ input: LoadedInput, options: AnalysisOptions) -> [ScoredTaskResult] {
        analyzeSteps(input) { step, objects, warnings in
            var side: Double?
            if objects.isEmpty {
                side = step == "amsler.grid.left" ? 1 : step == "amsler.grid.right" ? 2 : nil
                warnings.append(
                    "ResearchKit writes no ORKAmslerGridResult when nothing is marked: read as no marked area")
            }
            return scores(objects, eyeSide: side, warnings: &warnings)
        }
    }

    /// The scores of one step's results (normally one).
    public static func scores(_ objects: [ScoredFields], warnings: inout [String]) -> [TaskScore] {
        scores(objects, eyeSide: nil, warnings: &warnings)
    }

    static func scores(_ objects: [ScoredFields], eyeSide emptySide: Double?, warnings: inout [String]) -> [TaskScore] {
        var sides: [Double] = []
        var paths: Int? = 0
        var missing = 0
        var files: [String] = []
        for o in objects {
            if let side = o.number("eyeSide", &warnings) {
                if [0, 1, 2].contains(side) {
                    sides.append(side)
                } else {
                    warnings.append("\(o.path): eyeSide \(ResultEncoding.exact(side)) is not 0, 1 or 2; left out")
                }
            }
            switch o.raw["path"] {
            case .array(let items)?: paths = paths.map { $0 + items.count }
            case nil, .null?:
                paths = nil
                missing += 1
                let file = o.object("drawingPathFileResult", &warnings)?.string("fileName", &warnings)
                if let file, !file.isEmpty { files.append(file) }
            case let other?:
                paths = nil
                warnings.append("\(o.path): path is \(other.summary), not an array; left out")
            }
        }
        if missing > 0 {
            warnings.append(
                "the drawn paths are not in the result (ResearchKit's JSON leaves path out; they are in its "
                    + "drawing-path file" + (files.isEmpty ? "" : " " + files.joined(separator: ", "))
                    + ", which taskproc does not read): no path count")
        }
        if Set(sides).count > 1 {
            warnings.append("the step's results name different eyes; eyeSide is the first")
        }
        return [
            TaskScore("eyeSide", sides.first ?? emptySide, "code"),
            TaskScore("marked", objects.isEmpty ? 0 : 1, "boolean"),
            TaskScore("paths", paths.map(Double.init), "count"),
        ]
    }
}

extension AmslerGridAnalysis {
    /// The study tables' measures: the fraction of grids marked, per eye.
    public static let studyMeasures: [StudyMeasure] = [StudyMeasure("marked", unit: "fraction", by: ["eyeSide"])]
}
