import ActiveTasks
import Foundation
import StudyInputs

/// The `researchkit` export: taskproc's results as ResearchKit-style step results, so a ResearchKit backend can
/// store them beside the raw results.
///
/// One `ORKStepResult`-shaped object per step (`_class`, `identifier`, `startDate`, `endDate`, `results`), in the
/// order the steps first appear (dates in ResearchKit's form `yyyy-MM-dd'T'HH:mm:ssZ`, `null` when the input carries
/// none, e.g. a bare recorder log); each child result is one taskproc result with `_class`
/// `taskproc.<Kind>Result` (for example `taskproc.WalkingResult`) — a class name no ResearchKit release uses, so
/// readers can never confuse computed values with recorded ones — its `identifier` (the step), the step's dates,
/// `taskprocVersion`, and every key of the taskproc result unchanged.
///
/// Survey results are the exception: their answers are recorded values, not computed ones, so they go out as the
/// ResearchKit question and consent-signature results they were read from (see
/// ``surveyStepResults(_:context:)``), and reading the export back gives the same answers.
public enum ResearchKitExport {
    /// The step results for `records`, as a JSON array.
    public static func stepResults(_ records: [ExportRecord], context: ExportContext) -> JSONValue {
        var order: [String] = []
        var byStep: [String: [ExportRecord]] = [:]
        var surveySteps: [JSONValue] = []
        for record in records {
            if record.shape == .answers {
                if !isPlatformSurvey(record) { surveySteps += surveyStepResults(record, context: context) }
                continue
            }
            let step = record.stepIdentifier ?? record.kind
            if byStep[step] == nil { order.append(step) }
            byStep[step, default: []].append(record)
        }
        return .array(
            order.map { step in
                let start = context.startDate(of: step).map { JSONValue.string($0.researchKitText) } ?? .null
                let end = context.endDate(of: step).map { JSONValue.string($0.researchKitText) } ?? .null
                let children: [JSONValue] = byStep[step, default: []].map { record in
                    var entries: [(key: String, value: JSONValue)] = [
                        ("_class", .string(className(of: record.kind))), ("identifier", .string(step)),
                        ("startDate", start), ("endDate", end),
                        ("taskprocVersion", .string(taskprocVersion)),
                    ]
                    let reserved = Set(entries.map(\.key))
                    entries += record.json.entries.filter { !reserved.contains($0.key) }
                    return .object(JSONObject(entries))
                }
                var step: [(key: String, value: JSONValue)] = [
                    ("_class", .string("ORKStepResult")), ("identifier", .string(step)),
                    ("startDate", start), ("endDate", end), ("results", .array(children)),
                ]
                if let run = context.taskRunUUID { step.append(("taskRunUUID", .string(run))) }
                return .object(JSONObject(step))
            } + surveySteps)
    }

    /// True for a survey result read from a study platform's tables (it has a `surveyResultKey`: MyDataHelps), which
    /// the export does not write: its answers have no ResearchKit class (text without a type) and a table holds the
    /// results of many participants, where the export holds one task run.
    static func isPlatformSurvey(_ record: ExportRecord) -> Bool {
        record.shape == .answers && record.json["surveyResultKey"]?.stringValue != nil
    }

    /// What the export leaves out, one note per kind of omission (for the caller to print).
    public static func notes(_ records: [ExportRecord]) -> [String] {
        let platform = records.filter(isPlatformSurvey)
        guard !platform.isEmpty else { return [] }
        let participants = Set(platform.compactMap { $0.json["participantIdentifier"]?.stringValue }).count
        return [
            "\(platform.count) MyDataHelps survey result\(platform.count == 1 ? "" : "s") (\(participants) "
                + "participant\(participants == 1 ? "" : "s")) not written: their answers have no ResearchKit class and "
                + "the export holds one task run; use --format fhir or mork for them"
        ]
    }

    /// `taskproc.<Kind>Result` for a result kind (`walking` → `taskproc.WalkingResult`).
    public static func className(of kind: String) -> String {
        "taskproc." + kind.prefix(1).uppercased() + kind.dropFirst() + "Result"
    }
}
