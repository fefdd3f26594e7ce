import Foundation
import StudyInputs

/// One score of an active task: a named number with its unit, or a recorded text (unit `text`).
public struct TaskScore: Sendable, Hashable {
    /// The JSON key and CSV column (`accuracy`, `meanResponseTime`, …).
    public var key: String
    /// The value in ``unit``; nil when the task's data cannot give it (no trials, no correct trial, …), and for a
    /// text.
    public var value: Double?
    /// The unit: `count`, `s`, `fraction` (0–1), `deg`, `m`, `boolean` (1 yes, 0 no), `pt` (screen points),
    /// `words/min`, or `text` (``text`` holds the value).
    public var unit: String
    /// The recorded text of a `text` output (a transcription, a target sentence); nil when absent and for numbers.
    public var text: String?

    /// Creates a numeric score; a non-finite value is stored as nil.
    public init(_ key: String, _ value: Double?, _ unit: String) {
        self.key = key
        self.value = value.flatMap { $0.isFinite ? $0 : nil }
        self.unit = unit
    }

    /// Creates a text output (unit `text`): never a coded measure, written as a JSON string, a CSV cell and a table
    /// row.
    public init(_ key: String, text: String?) {
        self.key = key
        self.value = nil
        self.unit = "text"
        self.text = text
    }

    /// True for a text output.
    public var isText: Bool { unit == "text" }
}

/// The result of a scored ResearchKit active task (Stroop, trail making, PSAT, …): the step it scores, then its
/// scores in a fixed order (the kind's article in `docs/active-tasks.md` defines each), then warnings.
///
/// One result per step holding results of the task's ResearchKit class. Every score key is always present in JSON
/// (`null` when the data cannot give it), so an empty or partial step is a result with zero counts and a warning,
/// never an error.
public struct ScoredTaskResult: Sendable, Hashable {
    /// The task kind (`stroop`, `trailMaking`, …).
    public var kind: String
    /// The result file, when known.
    public var source: String?
    /// The task run's UUID, when the input has one.
    public var taskRunUUID: String?
    /// The scored step (`ORKStepResult` identifier).
    public var stepIdentifier: String
    /// The step's start and end (device UTC offset kept), when written.
    public var startDate, endDate: ResultDate?
    /// The scores, in the kind's documented order.
    public var scores: [TaskScore]
    /// Findings a reader should know about, one sentence each.
    public var warnings: [String]

    /// Creates a result.
    public init(
        kind: String, source: String? = nil, taskRunUUID: String? = nil, stepIdentifier: String,
        startDate: ResultDate? = nil, endDate: ResultDate? = nil, scores: [TaskScore] = [], warnings: [String] = []
    ) {
        self.kind = kind
        self.source = source
        self.taskRunUUID = taskRunUUID
        self.stepIdentifier = stepIdentifier
        self.startDate = startDate
        self.endDate = endDate
        self.scores = scores
        self.warnings = warnings
    }

    /// The value of the score `key`; nil when absent or undefined.
    public func value(_ key: String) -> Double? { scores.first { $0.key == key }?.value }

    /// The text of the text output `key`; nil when absent.
    public func text(_ key: String) -> String? { scores.first { $0.key == key }?.text }
}

extension ScoredTaskResult: Encodable {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// `kind`, `source`, `taskRunUUID`, `stepIdentifier`, `startDate`, `endDate`, every score under its key
    /// (`null` when undefined; a string for a text output), `units` (score key → unit) and `warnings`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(kind, forKey: Key("kind"))
        for (key, value) in [("source", source), ("taskRunUUID", taskRunUUID)] {
            if let value { try c.encode(value, forKey: Key(key)) } else { try c.encodeNil(forKey: Key(key)) }
        }
        try c.encode(stepIdentifier, forKey: Key("stepIdentifier"))
        for (key, value) in [("startDate", startDate), ("endDate", endDate)] {
            if let value { try c.encode(value, forKey: Key(key)) } else { try c.encodeNil(forKey: Key(key)) }
        }
        for score in scores {
            if let t = score.text {
                try c.encode(t, forKey: Key(score.key))
            } else if let v = score.value {
                try c.encode(v, forKey: Key(score.key))
            } else {
                try c.encodeNil(forKey: Key(score.key))
            }
        }
        var units = c.nestedContainer(keyedBy: Key.self, forKey: Key("units"))
        for score in scores { try units.encode(score.unit, forKey: Key(score.key)) }
        try c.encode(warnings, forKey: Key("warnings"))
    }
}

extension ScoredTaskResult: RenderableResult {
    /// Sections for the aligned-text form: the step, the scores with units, then the warnings.
    public var tableSections: [(title: String, rows: [(String, String)])] {
        var step: [(String, String)] = [("step", stepIdentifier)]
        if let taskRunUUID { step.append(("run", taskRunUUID)) }
        if let source { step.append(("file", source)) }
        if let startDate { step.append(("started", startDate.description)) }
        let rows = scores.map { score -> (String, String) in
            if let t = score.text { return (score.key, t) }
            guard let v = score.value else { return (score.key, "—") }
            let unit = ["count", "boolean", "fraction"].contains(score.unit) ? "" : " " + score.unit
            return (score.key, ResultEncoding.number(v, digits: 6) + unit)
        }
        var sections: [(title: String, rows: [(String, String)])] = [
            (Self.title(kind) + " " + stepIdentifier, step), ("Scores", rows),
        ]
        if !warnings.isEmpty {
            sections.append(("Warnings", warnings.enumerated().map { ("\($0.offset + 1)", $0.element) }))
        }
        return sections
    }

    /// One CSV row: `taskRunUUID`, `stepIdentifier`, the scores (full precision; texts as written), `warnings`,
    /// `source`.
    public var csvTable: (header: [String], rows: [[String]]) {
        let header = ["taskRunUUID", "stepIdentifier"] + scores.map(\.key) + ["warnings", "source"]
        let row =
            [taskRunUUID ?? "", stepIdentifier] + scores.map { $0.text ?? $0.value.map(ResultEncoding.exact) ?? "" }
            + [warnings.joined(separator: " | "), source ?? ""]
        return (header, [row])
    }

    /// `stroop` → `Stroop`, `trailMaking` → `Trail making`.
    static func title(_ kind: String) -> String {
        var words: [String] = []
        var current = ""
        for c in kind {
            if c.isUppercase, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(c)
        }
        words.append(current)
        let text = words.joined(separator: " ").lowercased()
        return text.prefix(1).uppercased() + text.dropFirst()
    }
}

extension ScoredTaskResult: RecordWarnings {
    /// Appends to ``ScoredTaskResult/warnings``.
    public mutating func addWarnings(_ warnings: [String]) { self.warnings += warnings }
}
