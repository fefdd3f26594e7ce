import ActiveTasks
import Foundation
import StudyInputs

extension ResearchKitExport {
    /// A survey result as ResearchKit wrote it: one `ORKStepResult` per step, holding one `ORK…QuestionResult` or
    /// `ORKConsentSignatureResult` per answer with the answer keys of its class (``ResearchKit/QuestionResult``),
    /// `questionType`, `noAnswerType` (`ORKDontKnowAnswer`) for "I don't know", no answer key for a skipped
    /// question, and dates in ResearchKit's form. Withheld secrets are left out entirely: a ResearchKit backend
    /// must not receive a placeholder where a password was. Details the rows do not keep (a numeric answer's
    /// display unit, a location's address and region, a signature's image) are not written.
    public static func surveyStepResults(_ record: ExportRecord, context: ExportContext) -> [JSONValue] {
        var steps: [(identifier: String, results: [JSONValue])] = []
        // Family history steps: the relatives' answers, in order of first appearance, per step.
        var relatives: [String: [(identifier: String, group: String, results: [JSONValue])]] = [:]
        for element in record.json["answers"]?.arrayValue ?? [] {
            guard let answer = element.objectValue, answer["withheld"]?.stringValue == nil,
                let result = questionResult(answer)
            else { continue }
            let step = answer["stepIdentifier"]?.stringValue ?? ""
            if let relative = answer["relativeIdentifier"]?.stringValue {
                var people = relatives[step] ?? []
                if let i = people.firstIndex(where: { $0.identifier == relative }) {
                    people[i].results.append(result)
                } else {
                    people.append((relative, answer["relativeGroup"]?.stringValue ?? "", [result]))
                    if people.count == 1 { steps.append((step, [])) }  // the family history result goes here
                }
                relatives[step] = people
                continue
            }
            if let last = steps.last, last.identifier == step, relatives[step] == nil {
                steps[steps.count - 1].results.append(result)
            } else {
                steps.append((step, [result]))
            }
        }
        for (step, people) in relatives {
            guard let i = steps.firstIndex(where: { $0.identifier == step && $0.results.isEmpty }) else { continue }
            steps[i].results = [familyHistoryResult(step: step, people)]
        }
        return steps.map { step in
            var fields: [(key: String, value: JSONValue)] = [
                ("_class", .string("ORKStepResult")), ("identifier", .string(step.identifier)),
            ]
            // The step's own dates only (never the task's in their place: the export writes what was recorded).
            if let start = context.steps[step.identifier]?.start {
                fields.append(("startDate", .string(start.researchKitText)))
            }
            if let end = context.steps[step.identifier]?.end { fields.append(("endDate", .string(end.researchKitText))) }
            fields.append(("results", .array(step.results)))
            if let run = record.json["taskRunUUID"]?.stringValue ?? context.taskRunUUID {
                fields.append(("taskRunUUID", .string(run)))
            }
            return .object(JSONObject(fields))
        }
    }

    /// An `ORKFamilyHistoryResult` of the relatives' answers: each relative an `ORKRelatedPerson` whose task result
    /// holds one step result (named by the relative's group) of their answers.
    static func familyHistoryResult(
        step: String, _ people: [(identifier: String, group: String, results: [JSONValue])]
    ) -> JSONValue {
        let persons = people.map { person -> JSONValue in
            let inner = JSONValue.object(
                JSONObject([
                    ("_class", .string("ORKStepResult")), ("identifier", .string(person.group)),
                    ("results", .array(person.results)),
                ]))
            let task = JSONValue.object(
                JSONObject([
                    ("_class", .string("ORKTaskResult")), ("identifier", .string(person.group)),
                    ("results", .array([inner])),
                ]))
            return .object(
                JSONObject([
                    ("_class", .string("ORKRelatedPerson")), ("identifier", .string(person.identifier)),
                    ("groupIdentifier", .string(person.group)), ("identifierForCellTitle", .string("")),
                    ("taskResult", task),
                ]))
        }
        return .object(
            JSONObject([
                ("_class", .string("ORKFamilyHistoryResult")), ("identifier", .string(step)),
                ("relatedPersons", .array(persons)),
            ]))
    }

    /// One answer row as its ResearchKit result object; nil for a class taskproc does not write.
    static func questionResult(_ a: JSONObject) -> JSONValue? {
        guard let className = a["className"]?.stringValue, let identifier = a["questionIdentifier"]?.stringValue
        else { return nil }
        var f: [(key: String, value: JSONValue)] = [("_class", .string(className)), ("identifier", .string(identifier))]
        for key in ["startDate", "endDate"] {
            if let date = a[key]?.stringValue.flatMap({ ResultDate($0) }) { f.append((key, .string(date.researchKitText))) }
        }
        if className == "ORKConsentSignatureResult" {
            if let consented = a["consented"]?.boolValue { f.append(("consented", .bool(consented))) }
            var signature: [(key: String, value: JSONValue)] = [("_class", .string("ORKConsentSignature"))]
            for (from, to) in [
                ("signatureGivenName", "givenName"), ("signatureFamilyName", "familyName"),
                ("signatureDate", "signatureDate"),
            ] {
                if let text = a[from]?.stringValue { signature.append((to, .string(text))) }
            }
            if signature.count > 1 { f.append(("signature", .object(JSONObject(signature)))) }
            return .object(JSONObject(f))
        }
        guard ResearchKitDecoder.isQuestionResult(className) else { return nil }
        if let type = a["questionType"]?.numberValue { f.append(("questionType", .number(type))) }
        if a["dontKnow"]?.boolValue == true {
            f.append(("noAnswerType", .object(JSONObject([("_class", .string("ORKDontKnowAnswer"))]))))
        }
        guard a["value"]?.stringValue != nil else { return .object(JSONObject(f)) }  // skipped or "I don't know"
        let number = a["valueNumber"] ?? .null
        let text = a["valueText"] ?? .null
        let values = a["choiceValues"] ?? .null
        switch className {
        case "ORKScaleQuestionResult": f.append(("scaleAnswer", number))
        case "ORKChoiceQuestionResult": f.append(("choiceAnswers", values))
        case "ORKBooleanQuestionResult": f.append(("booleanAnswer", .bool((number.numberValue ?? 0) != 0)))
        case "ORKTextQuestionResult": f.append(("textAnswer", text))
        case "ORKNumericQuestionResult":
            f.append(("numericAnswer", number))
            if let unit = a["unit"]?.stringValue { f.append(("unit", .string(unit))) }
        case "ORKTimeOfDayQuestionResult": f.append(("dateComponentsAnswer", text))
        case "ORKTimeIntervalQuestionResult": f.append(("intervalAnswer", number))
        case "ORKDateQuestionResult":
            if let date = a["valueDate"]?.stringValue.flatMap({ ResultDate($0) }) {
                f.append(("dateAnswer", .string(date.researchKitText)))
            }
            if let zone = a["timeZone"], zone != .null { f.append(("timeZone", zone)) }
            if let calendar = a["calendar"], calendar != .null { f.append(("calendar", calendar)) }
        case "ORKLocationQuestionResult":
            var location: [(key: String, value: JSONValue)] = [("_class", .string("ORKLocation"))]
            if let lat = a["latitude"]?.numberValue, let lon = a["longitude"]?.numberValue {
                location.append(
                    ("coordinate", .object(JSONObject([("latitude", .number(lat)), ("longitude", .number(lon))]))))
            }
            if text != .null { location.append(("userInput", text)) }
            f.append(("locationAnswer", .object(JSONObject(location))))
        case "ORKMultipleComponentQuestionResult":
            f.append(("componentsAnswer", values))
            if let separator = separator(of: a) { f.append(("separator", .string(separator))) }
        case "ORKSESQuestionResult": f.append(("rungPicked", number))
        case "ORKWebViewStepResult": f.append(("result", text))
        case "ORKFrontFacingCameraStepResult":
            f.append(("fileName", text))
            if let type = a["contentType"]?.stringValue { f.append(("contentType", .string(type))) }
        default: break
        }
        return .object(JSONObject(f))
    }

    /// The separator a multiple-component answer's `value` was joined with: the text between its first two
    /// components as written.
    static func separator(of a: JSONObject) -> String? {
        guard let value = a["value"]?.stringValue, let parts = a["choiceValues"]?.arrayValue, parts.count >= 2 else {
            return nil
        }
        let first = SurveyAnswer.text(parts[0])
        let second = SurveyAnswer.text(parts[1])
        guard value.hasPrefix(first) else { return nil }
        let rest = value.dropFirst(first.count)
        guard let range = rest.range(of: second) else { return nil }
        return String(rest[..<range.lowerBound])
    }
}
