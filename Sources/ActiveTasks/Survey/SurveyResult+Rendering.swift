import Foundation
import StudyInputs

extension SurveyResult: RenderableResult {
    /// Sections for the aligned-text form: the run, one line per answer, then the warnings.
    public var tableSections: [(title: String, rows: [(String, String)])] {
        var run: [(String, String)] = []
        if let taskIdentifier { run.append(("task", taskIdentifier)) }
        if let taskRunUUID { run.append(("run", taskRunUUID)) }
        if let surveyResultKey { run.append(("survey result", surveyResultKey)) }
        if let participantIdentifier { run.append(("participant", participantIdentifier)) }
        if let source { run.append(("file", source)) }
        if let startDate { run.append(("started", startDate.description)) }
        run.append(
            ("answers",
                "\(answers.count) (\(answeredCount) answered, \(skippedCount) skipped, \(dontKnowCount) I don't know, "
                    + "\(withheldCount) withheld)"))
        let line = { (a: SurveyAnswer) -> (String, String) in
            var label = a.stepIdentifier == a.questionIdentifier ? a.questionIdentifier
                : a.stepIdentifier + " / " + a.questionIdentifier
            if let relative = a.relativeIdentifier {
                label += " (relative " + [a.relativeGroup, relative].compactMap { $0 }.joined(separator: " ") + ")"
            }
            return (label, a.shown + " [" + a.answerType + "]")
        }
        var sections: [(title: String, rows: [(String, String)])] = [
            ("Survey " + (taskIdentifier ?? source ?? ""), run), ("Answers", answers.map(line)),
        ]
        if !previousAnswers.isEmpty { sections.append(("Earlier answers (superseded)", previousAnswers.map(line))) }
        if let consent {
            var decision: [(String, String)] = []
            if let status = consent.status {
                let detail = [consent.flow?.rawValue, consent.stepIdentifier.map { "step " + $0 }].compactMap { $0 }
                let said = detail.isEmpty ? "" : " (" + detail.joined(separator: ", ") + ")"
                decision.append(("decision", status.rawValue + said))
            }
            if let signedAt = consent.signedAt { decision.append(("signed at", signedAt.description)) }
            if let name = consent.signerName { decision.append(("signer", name)) }
            if let date = consent.signatureDate { decision.append(("signature date", date)) }
            if let sharing = consent.sharing {
                let scope = sharing.scope?.rawValue ?? "unknown"
                let answer = sharing.stepIdentifier + " / " + sharing.questionIdentifier
                decision.append(("sharing", scope + " (" + answer + " = " + (sharing.value ?? "unanswered") + ")"))
            }
            sections.append(("Consent", decision))
        }
        if !warnings.isEmpty {
            sections.append(("Warnings", warnings.enumerated().map { ("\($0.offset + 1)", $0.element) }))
        }
        return sections
    }

    /// The CSV columns, in order (``SurveyAnswer`` defines each).
    public static let csvHeader = [
        "taskRunUUID", "taskIdentifier", "stepIdentifier", "questionIdentifier", "answerType", "value", "valueNumber",
        "valueText", "valueDate", "unit", "choiceValues", "dontKnow", "skipped", "withheld", "startDate", "endDate",
        "className", "questionType", "timeZone", "calendar", "latitude", "longitude", "consented", "signatureGivenName", "signatureFamilyName",
        "signatureDate", "contentType", "source", "participantIdentifier", "surveyResultKey", "relativeIdentifier",
        "relativeGroup",
    ]

    /// One CSV row per answer (the tidy form): the run's keys, then the answer's columns.
    public var csvTable: (header: [String], rows: [[String]]) {
        let n = { (v: Double?) in v.map(SurveyAnalysis.text) ?? "" }
        let b = { (v: Bool?) in v.map { $0 ? "true" : "false" } ?? "" }
        let rows = answers.map { a -> [String] in
            let choices: String
            if let values = a.choiceValues, let json = try? ResultEncoding.compactJSON(values) {
                choices = json
            } else {
                choices = ""
            }
            return [
                taskRunUUID ?? "", taskIdentifier ?? "", a.stepIdentifier, a.questionIdentifier, a.answerType,
                a.value ?? "", n(a.valueNumber), a.valueText ?? "", a.valueDate?.description ?? "", a.unit ?? "",
                choices, b(a.dontKnow), b(a.skipped), a.withheld ?? "", a.startDate?.description ?? "",
                a.endDate?.description ?? "", a.className, a.questionType.map(String.init) ?? "",
                a.timeZone.map(String.init) ?? "", a.calendar ?? "", n(a.latitude), n(a.longitude), b(a.consented),
                a.signatureGivenName ?? "", a.signatureFamilyName ?? "", a.signatureDate ?? "", a.contentType ?? "",
                source ?? "", participantIdentifier ?? "", surveyResultKey ?? "", a.relativeIdentifier ?? "",
                a.relativeGroup ?? "",
            ]
        }
        return (Self.csvHeader, rows)
    }
}

extension SurveyAnswer {
    /// How the table and the report show the answer: its value with its unit; `withheld (secret)`,
    /// `withheld (identifier)`, `I don't know` or `skipped`; for a consent signature the decision, the signer and
    /// the date.
    public var shown: String {
        if let withheld { return "withheld (\(withheld))" }
        if dontKnow { return "I don't know" }
        if skipped { return "skipped" }
        if answerType == "consentSignature" {
            return (consented == true ? "consented" : "declined") + (signatureName.map { ", signed " + $0 } ?? "")
                + (signatureDate.map { " on " + $0 } ?? "")
        }
        return (value ?? "") + (unit.map { " " + $0 } ?? "")
    }
}

extension SurveyResult: RecordWarnings {
    /// Appends to ``SurveyResult/warnings``.
    public mutating func addWarnings(_ warnings: [String]) { self.warnings += warnings }
}
