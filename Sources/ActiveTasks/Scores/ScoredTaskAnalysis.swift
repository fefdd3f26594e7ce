import Foundation
import SensorSignal
import StudyInputs

/// A ResearchKit active task scored from the fields of its result objects (Stroop, trail making, PSAT, …).
///
/// A conforming type names the ResearchKit classes it reads and scores the objects of one step; the default
/// ``TaskAnalysis/analyze(_:options:)`` finds those objects in the input's ResearchKit document, groups them by
/// step in document order and gives one ``ScoredTaskResult`` per step. A field of the wrong type or a missing field
/// excludes what it belongs to and says so in a warning (``ScoredFields``): a partial step is still a result.
public protocol ScoredTaskAnalysis: TaskAnalysis where Result == ScoredTaskResult {
    /// The ResearchKit result classes scored (`ORKStroopResult`, …).
    static var classNames: [String] { get }
    /// The active-step identifiers of ResearchKit's predefined task (`stroop`, …): such a step holding no object of
    /// ``classNames`` (a participant who quit it) still gives a result, with zero counts and a warning.
    static var stepIdentifiers: [String] { get }
    /// The scores of one step from its result objects (at least one), in document order; warnings go to `warnings`.
    static func scores(_ objects: [ScoredFields], warnings: inout [String]) -> [TaskScore]
}

extension ScoredTaskAnalysis {
    /// None by default.
    public static var stepIdentifiers: [String] { [] }

    /// One result per step holding objects of ``classNames``, and per predefined step (``stepIdentifiers``) holding
    /// none.
    public static func analyze(_ input: LoadedInput, options: AnalysisOptions) -> [ScoredTaskResult] {
        analyzeSteps(input) { objects, warnings in scores(objects, warnings: &warnings) }
    }

    /// One result per step holding objects of ``classNames`` (and per empty predefined step), scored by `score`.
    public static func analyzeSteps(
        _ input: LoadedInput, score: ([ScoredFields], inout [String]) -> [TaskScore]
    ) -> [ScoredTaskResult] {
        analyzeSteps(input) { _, objects, warnings in score(objects, &warnings) }
    }

    /// One result per step holding objects of ``classNames`` (and per empty predefined step), scored by `score`,
    /// which is also given the step's identifier.
    public static func analyzeSteps(
        _ input: LoadedInput, score: (String, [ScoredFields], inout [String]) -> [TaskScore]
    ) -> [ScoredTaskResult] {
        guard let document = input.researchKit, let root = document.result else { return [] }
        var order: [String] = []
        var byStep: [String: [ScoredFields]] = [:]
        var dates: [String: (start: ResultDate?, end: ResultDate?)] = [:]
        for item in root.stepItems {
            guard case .unknown(let className, let header, let raw) = item.result, classNames.contains(className)
            else { continue }
            if byStep[item.stepIdentifier] == nil { order.append(item.stepIdentifier) }
            byStep[item.stepIdentifier, default: []].append(
                ScoredFields(raw, path: "\(className) \(byStep[item.stepIdentifier, default: []].count + 1)"))
            let known = dates[item.stepIdentifier]
            dates[item.stepIdentifier] = (known?.start ?? header.startDate, header.endDate ?? known?.end)
        }
        for step in ScoredTasks.emptyPredefinedSteps(root)
        where stepIdentifiers.contains(step.identifier) && byStep[step.identifier] == nil {
            order.append(step.identifier)
            byStep[step.identifier] = []
        }
        let steps = ExportContext(input: input).steps
        return order.map { step in
            var warnings: [String] = []
            if byStep[step]?.isEmpty ?? true {
                warnings.append(
                    "the step holds no \(classNames.joined(separator: " or ")) (the participant may have skipped or quit it)")
            }
            let scores = score(step, byStep[step] ?? [], &warnings)
            return ScoredTaskResult(
                kind: resultKinds.first ?? kinds[0].rawValue, source: document.file,
                taskRunUUID: document.taskResult?.taskRunUUID?.uuidString, stepIdentifier: step,
                startDate: steps[step]?.start ?? dates[step]?.start, endDate: steps[step]?.end ?? dates[step]?.end,
                scores: scores, warnings: warnings)
        }
    }

    /// Every score with a value, under the local code system ``ScoredTasks/codeSystem`` (`<kind>.<key>`).
    public static func exportMeasures(of result: ScoredTaskResult, skipped: inout [String]) -> [ExportMeasure] {
        result.scores.compactMap { score in
            guard let value = score.value else { return nil }
            var measure = ExportMeasure(
                system: ScoredTasks.codeSystem, code: result.kind + "." + score.key,
                display: ScoredTaskResult.title(result.kind) + ": " + score.key, category: "exam", value: value,
                unit: score.unit, unitCode: ScoredTasks.ucum(score.unit), method: "taskproc-" + result.kind,
                methodDisplay: "taskproc " + ScoredTaskResult.title(result.kind).lowercased() + " score",
                step: result.stepIdentifier)
            // A yes/no is a valueBoolean, a count a valueInteger, not a quantity.
            if score.unit == "boolean" {
                measure.valueType = .boolean
            } else if score.unit == "count", value == value.rounded(), abs(value) < 2_147_483_648 {
                measure.valueType = .integer
            }
            return measure
        }
    }
}

/// The scored tasks of the registry, for the loader and the ResearchKit decoder.
public enum ScoredTasks {
    /// The local FHIR code system of scores that have no standard code: `<kind>.<key>`, defined in
    /// `docs/active-tasks.md`.
    public static let codeSystem = "urn:taskproc:score"

    /// What every registered analysis declares (the scored ones their ``ScoredTaskAnalysis/classNames`` and
    /// ``ScoredTaskAnalysis/stepIdentifiers``): ``AnalysisRegistry/recognition``.
    public static var recognition: KindRecognition { AnalysisRegistry.recognition }

    /// The task kind that scores results of `className`, if any.
    public static func kind(ofClass className: String) -> TaskKind? { recognition.kind(ofClass: className) }

    /// The task kind whose predefined active step is `identifier`, if any.
    public static func kind(ofStep identifier: String) -> TaskKind? { recognition.kind(ofStep: identifier) }

    /// The step results of a tree that hold no result of a scored class (``KindRecognition/emptyPredefinedSteps(_:)``).
    static func emptyPredefinedSteps(_ root: ResearchKitResult) -> [ResearchKit.StepResult] {
        recognition.emptyPredefinedSteps(root)
    }

    /// True when a scored analysis handles `kind`.
    public static func isScored(_ kind: TaskKind) -> Bool { recognition.declares(kind) }

    /// True when a scored analysis reads `className` (the decoder then does not call the class unmodelled).
    public static func reads(_ className: String) -> Bool { recognition.reads(className) }

    /// The UCUM code of a score unit (``ExportMeasure/ucum(_:)``).
    static func ucum(_ unit: String) -> String { ExportMeasure.ucum(unit) }
}

/// The fields of one ResearchKit result object, read leniently: a missing or mistyped field gives nil and one
/// warning naming the object and the field.
public struct ScoredFields: Sendable {
    /// The object as written.
    public var raw: JSONObject
    /// How warnings name the object (`ORKStroopResult 3`).
    public var path: String

    /// Wraps an object.
    public init(_ raw: JSONObject, path: String) {
        self.raw = raw
        self.path = path
    }

    /// A finite number (a JSON number; a Boolean reads as 1/0 only where `booleans`), nil when absent or `null`;
    /// a value of another type adds a warning.
    public func number(_ key: String, _ warnings: inout [String], booleans: Bool = false) -> Double? {
        switch raw[key] {
        case nil, .null?: return nil
        case .number(let x)? where x.isFinite: return x
        case .bool(let b)? where booleans: return b ? 1 : 0
        case let other?:
            warnings.append("\(path): \(key) is \(other.summary), not a finite number; left out")
            return nil
        }
    }

    /// A Boolean (JSON true/false, or 0/1 as NSNumber serialises), nil when absent or `null`.
    public func bool(_ key: String, _ warnings: inout [String]) -> Bool? {
        switch raw[key] {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        case .number(let x)? where x == 0 || x == 1: return x == 1
        case let other?:
            warnings.append("\(path): \(key) is \(other.summary), not true or false; left out")
            return nil
        }
    }

    /// A string, nil when absent or `null`.
    public func string(_ key: String, _ warnings: inout [String]) -> String? {
        switch raw[key] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        case let other?:
            warnings.append("\(path): \(key) is \(other.summary), not a string; left out")
            return nil
        }
    }

    /// A date-time (ISO 8601 with an offset, as ResearchKit writes dates), nil when absent, `null` or empty; a string
    /// that is not such a date, or a value of another type, adds a warning.
    public func date(_ key: String, _ warnings: inout [String]) -> ResultDate? {
        switch raw[key] {
        case nil, .null?: return nil
        case .string(let s)? where s.isEmpty: return nil
        case .string(let s)?:
            if let date = ResultDate(s) { return date }
            warnings.append("\(path): \(key) \"\(s.prefix(40))\" is not an ISO 8601 date with an offset; left out")
            return nil
        case let other?:
            warnings.append("\(path): \(key) is \(other.summary), not a date string; left out")
            return nil
        }
    }

    /// The object of an object field, named `<path>.<key>`; nil when absent or `null`; a value of another type adds
    /// a warning.
    public func object(_ key: String, _ warnings: inout [String]) -> ScoredFields? {
        switch raw[key] {
        case nil, .null?: return nil
        case .object(let o)?: return ScoredFields(o, path: "\(path).\(key)")
        case let other?:
            warnings.append("\(path): \(key) is \(other.summary), not an object; left out")
            return nil
        }
    }

    /// The objects of an array field, each named `<path>.<key>[i]`; non-objects add a warning.
    public func objects(_ key: String, _ warnings: inout [String]) -> [ScoredFields] {
        switch raw[key] {
        case nil, .null?: return []
        case .array(let items)?:
            return items.enumerated().compactMap { i, item in
                guard let o = item.objectValue else {
                    warnings.append("\(path).\(key)[\(i)] is \(item.summary), not an object; left out")
                    return nil
                }
                return ScoredFields(o, path: "\(path).\(key)[\(i)]")
            }
        case let other?:
            warnings.append("\(path): \(key) is \(other.summary), not an array; left out")
            return []
        }
    }
}

/// The statistics of scores: SensorSignal's R-semantics ``RStatistics`` (the ones the walking and tapping features
/// use), with nil where R gives NaN (no values, or fewer than two for the standard deviation).
enum ScoreStatistics {
    static func mean(_ x: [Double]) -> Double? { x.isEmpty ? nil : RStatistics.mean(x) }

    /// The median (R: the mean of the two middle values for an even count).
    static func median(_ x: [Double]) -> Double? { x.isEmpty ? nil : RStatistics.median(x) }

    /// The sample standard deviation (n − 1); nil below two values.
    static func sd(_ x: [Double]) -> Double? { x.count < 2 ? nil : RStatistics.standardDeviation(x) }
}
