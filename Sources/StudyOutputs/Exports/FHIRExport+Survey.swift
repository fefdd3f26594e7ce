import ActiveTasks
import Foundation
import StudyInputs

/// The `fhir` export of survey results: one R4 `QuestionnaireResponse` per task result, one `Consent` per consent
/// signature.
///
/// `QuestionnaireResponse` (after C3-PRO's `ORKTaskResult+FHIR.swift`, in R4 form): `status` `completed`;
/// `questionnaire` `urn:researchkit:task:<taskIdentifier>`; `identifier` the task run (`urn:uuid:<taskRunUUID>`);
/// `subject.identifier` the participant when known; `authored` the task's end. Items follow the steps: a form
/// step is a group item (`linkId` the step identifier) holding one item per question (`linkId` the question
/// identifier, or `<step>/<question>` for a question named like its step, so no item repeats its group's `linkId`);
/// a question step, whose result has the step's identifier, is one item; a family history step is a
/// group holding one group per relative (`linkId` `<step>/<relativeIdentifier>`, `text` the relative's group) of
/// that relative's answers. Earlier answers a participant replaced (`previousAnswers`) are not sent. Answers, by
/// answer type:
///
/// | answer type | `answer` |
/// |---|---|
/// | single or multiple choice | one `valueCoding` per chosen value: `code` the value as text, `system` the part before ResearchKit's `\|` separator when the value has one (as C3-PRO splits it) |
/// | scale | `valueDecimal` (C3-PRO) |
/// | integer, SES ladder | `valueInteger` (a whole number), else `valueDecimal` |
/// | decimal, height, weight, numeric | `valueQuantity` with the unit when one is given, else `valueDecimal` |
/// | Boolean | `valueBoolean` |
/// | text | `valueString` |
/// | time of day | `valueTime` `HH:mm:ss` |
/// | time interval | `valueQuantity` in s (UCUM `s`; C3-PRO has no mapping) |
/// | date | `valueDate` (the device's local date) |
/// | date and time | `valueDateTime` with the device's UTC offset |
/// | location, multiple component | `valueString` (the answer's text: `latitude,longitude`; the joined components) |
/// | video (front-facing camera) | `valueAttachment` {`contentType`, `title` the file name} |
///
/// Skipped, "I don't know", withheld (secret) and empty-text answers (an R4 `string` cannot be empty: a web-view
/// page that posted nothing) give no item, as C3-PRO omits unanswered questions; they
/// are listed in the notes.
///
/// `Consent` (R4) per consent signature of ResearchKit's legacy review, and one for a task whose consent decision
/// was read otherwise (``ConsentDecision``: ResearchKit 3's web-view review and signature, a signature step, a
/// `--consent-config` answer): `status` `active` when the participant consented, `rejected` when not;
/// `scope` `research`; `category` LOINC 59284-0 "Consent Document"; `patient.identifier` the participant when
/// known; `dateTime` the signature result's end; `policyRule` `OPTIN`/`OPTOUT` (HL7 v3 ActCode); the signer's name
/// as `performer.display` is left out (a name is identifying: it stays in the survey rows). The task's sharing
/// choice (the survey result's `consent.sharingScope`, read by ``ConsentRules``: by default a single-choice answer
/// whose step identifier contains `sharing`, 1/true = share broadly, 0/false/2 = study only) is carried as the
/// extension
/// ``sharingScopeExtension`` with `valueCode` `all_qualified_researchers` or `sponsors_and_partners` (Bridge's
/// sharing-scope names).
extension FHIRExport {
    /// The extension URL of the consent's sharing scope (``ConsentPolicy/sharingScopeExtension``, which reads it).
    public static let sharingScopeExtension = ConsentPolicy.sharingScopeExtension

    /// The resources of one survey record: its `QuestionnaireResponse` (when any answer has a value) and one
    /// `Consent` per consent signature; what could not be expressed goes to `skipped`.
    static func surveyResources(
        _ record: ExportRecord, context: ExportContext, settings: Settings = Settings(),
        skipped: inout [String]
    ) -> [(
        id: String, resource: JSONObject
    )] {
        let answers = (record.json["answers"]?.arrayValue ?? []).compactMap(\.objectValue)
        let task = record.json["taskIdentifier"]?.stringValue
        let run = record.json["taskRunUUID"]?.stringValue ?? context.taskRunUUID
        // A result that names its participant (a MyDataHelps row) is theirs, whatever the record's path says; its
        // survey result key tells apart the results of one file.
        var context = context
        if let participant = record.json["participantIdentifier"]?.stringValue { context.participant = participant }
        // (Appended to the id seeds only when present, so ResearchKit results keep the ids earlier versions gave.)
        let distinct = record.json["surveyResultKey"]?.stringValue.map { ["", $0, context.participant ?? ""] } ?? []
        let name = task ?? record.source ?? record.kind
        var resources: [(id: String, resource: JSONObject)] = []

        // Items in document order, grouped by step.
        var groups: [(step: String, relative: String?, relation: String?, items: [JSONValue])] = []
        // The consent decision the analysis read (``ConsentDecision``, with the run's consent rules); results written
        // before it existed have no `consent` key, and their sharing choice is read from the answers.
        let decision = record.json["consent"]?.objectValue
        var sharing = decision?["sharingScope"]?.stringValue
        for answer in answers {
            let question = answer["questionIdentifier"]?.stringValue ?? ""
            let step = answer["stepIdentifier"]?.stringValue ?? question
            let type = answer["answerType"]?.stringValue ?? ""
            if type == "consentSignature" { continue }
            if record.json["consent"] == nil,
                let scope = SharingScope(
                    sharingChoiceIn: step, answerType: type, choice: answer["choiceValues"]?.arrayValue?.first)
            {
                sharing = scope.rawValue
            }
            guard let values = answerValues(answer) else {
                let empty = answer["value"]?.stringValue.map { nonEmpty($0) == nil } ?? false
                let why: String
                if answer["withheld"]?.stringValue != nil {
                    why = "withheld (secret)"
                } else if answer["dontKnow"]?.boolValue == true {
                    why = "answered \"I don't know\""
                } else {
                    why = empty ? "empty text (an R4 string cannot be empty)" : "skipped"
                }
                skipped.append("\(name): \(step == question ? question : step + "/" + question): \(why), no answer item")
                continue
            }
            let item = JSONValue.object(JSONObject([("linkId", .string(question)), ("answer", .array(values))]))
            let relative = answer["relativeIdentifier"]?.stringValue
            if let last = groups.last, last.step == step, last.relative == relative {
                groups[groups.count - 1].items.append(item)
            } else {
                groups.append((step, relative, answer["relativeGroup"]?.stringValue, [item]))
            }
        }
        var items: [JSONValue] = []
        // A family history step: one group per relative (linkId step/relative, text the relative's group) inside
        // the step's group, so each relative's questions are told apart.
        var relatives: (step: String, groups: [JSONValue])?
        func flushRelatives() {
            if let r = relatives {
                items.append(.object(JSONObject([("linkId", .string(r.step)), ("item", .array(r.groups))])))
            }
            relatives = nil
        }
        for group in groups {
            if let relative = group.relative {
                var fields: [(key: String, value: JSONValue)] = [("linkId", .string(group.step + "/" + relative))]
                if let text = group.relation.flatMap(nonEmpty) { fields.append(("text", .string(text))) }
                fields.append(("item", .array(group.items)))
                if relatives?.step != group.step { flushRelatives() }
                relatives = (group.step, (relatives?.groups ?? []) + [.object(JSONObject(fields))])
                continue
            }
            flushRelatives()
            let single = group.items.count == 1 && group.items[0].objectValue?["linkId"]?.stringValue == group.step
            if single {
                items.append(group.items[0])
                continue
            }
            // An item named like its step (a web-view step's own result beside its signature) would repeat the
            // group's linkId: it becomes <step>/<question>.
            let members = group.items.map { item -> JSONValue in
                guard case .object(let o) = item, o["linkId"]?.stringValue == group.step else { return item }
                return .object(
                    JSONObject(
                        o.entries.map { $0.key == "linkId" ? ($0.key, .string(group.step + "/" + group.step)) : $0 }))
            }
            items.append(.object(JSONObject([("linkId", .string(group.step)), ("item", .array(members))])))
        }
        flushRelatives()
        if !items.isEmpty {
            var r: [(key: String, value: JSONValue)] = [("resourceType", .string("QuestionnaireResponse"))]
            if let run {
                r.append(
                    ("identifier",
                        .object(JSONObject([("system", .string("urn:ietf:rfc:3986")), ("value", .string("urn:uuid:" + run.lowercased()))]))))
            }
            if let task, let canonical = canonical(task) { r.append(("questionnaire", .string(canonical))) }
            r.append(("status", .string("completed")))
            if let subject = context.fhirSubject { r.append(("subject", subject)) }
            if let end = record.json["endDate"]?.stringValue.flatMap({ ResultDate($0) }) ?? context.end {
                r.append(("authored", .string(end.description)))
            }
            r.append(("item", .array(items)))
            let id = deterministicUUID(
                ([run ?? "", record.source ?? "", task ?? "", "QuestionnaireResponse"] + distinct)
                    .joined(separator: "\u{1F}"))
            resources.append((id, JSONObject(r)))
        }

        // Legacy review signatures give one resource each; ResearchKit 3's web-view signature, a signature step or a
        // configured decision answer give one for the task's decision.
        var signatures: [(seed: String, answer: JSONObject, consented: Bool?)] = []
        for (index, answer) in answers.enumerated() where answer["answerType"]?.stringValue == "consentSignature" {
            signatures.append((String(index), answer, answer["consented"]?.boolValue))
        }
        let legacy = ConsentDecision.Flow.consentReview.rawValue
        if let decision, let flow = decision["flow"]?.stringValue, flow != legacy {
            let status = decision["status"]?.stringValue
            let consented: Bool? =
                status == ConsentDecision.Status.signed.rawValue ? true
                : status == ConsentDecision.Status.declined.rawValue ? false : nil
            let when: JSONValue = decision["signedAt"] ?? .null
            let seed = flow + ":" + (decision["stepIdentifier"]?.stringValue ?? "")
            signatures.append((seed, JSONObject([("endDate", when)]), consented))
        }
        // The consent document the Consent and Contract point to (with --consent-contract).
        let document = settings.consentContract.flatMap { contract in
            ConsentDocument(
                record: record, participant: context.participant, contract: contract, generatedAt: context.exportedAt)
        }
        let attachment = document?.attachment(
            url: settings.consentDocumentURL, title: "Consent of " + (context.participant ?? "the participant"))
        for (index, answer, consented) in signatures {
            guard let consented else {
                skipped.append("\(name): consent signature without a decision, no Consent")
                continue
            }
            if settings.consentShape == .contract {
                let id = deterministicUUID(
                    ([run ?? "", record.source ?? "", "Contract", index] + distinct)
                        .joined(separator: "\u{1F}"))
                var signed = contract(answer, consented: consented, sharing: sharing, context: context)
                if let template = settings.consentContract {
                    signed = following(
                        template, signed, eligibility: record.json["eligibility"]?.objectValue?["status"]?.stringValue,
                        attachment: attachment, context: context)
                }
                resources.append((id, signed))
                continue
            }
            var r: [(key: String, value: JSONValue)] = [
                ("resourceType", .string("Consent")),
                ("status", .string(consented ? "active" : "rejected")),
                ("scope", .object(JSONObject([("coding", .array([ExportMeasure.coding(
                    system: "http://terminology.hl7.org/CodeSystem/consentscope", code: "research", display: "Research")]))]))),
                ("category", .array([.object(JSONObject([("coding", .array([ExportMeasure.coding(
                    system: "http://loinc.org", code: "59284-0", display: "Consent Document")]))]))])),
            ]
            var extensions: [JSONValue] = []
            if let sharing { extensions.append(codeExtension(sharingScopeExtension, sharing)) }
            if settings.consentContract != nil,
                let eligibility = record.json["eligibility"]?.objectValue?["status"]?.stringValue
            {
                extensions.append(codeExtension(eligibilityExtension, eligibility))
            }
            if !extensions.isEmpty { r.insert(("extension", .array(extensions)), at: 1) }
            if let subject = context.fhirSubject { r.append(("patient", subject)) }
            if let end = answer["endDate"]?.stringValue.flatMap({ ResultDate($0) }) ?? context.end {
                r.append(("dateTime", .string(end.description)))
            }
            if let attachment { r.append(("sourceAttachment", attachment)) }
            r.append(("policyRule", .object(JSONObject([("coding", .array([ExportMeasure.coding(
                system: "http://terminology.hl7.org/CodeSystem/v3-ActCode", code: consented ? "OPTIN" : "OPTOUT",
                display: consented ? "opt-in" : "opt-out")]))]))))
            let id = deterministicUUID(
                ([run ?? "", record.source ?? "", "Consent", index] + distinct)
                    .joined(separator: "\u{1F}"))
            resources.append((id, JSONObject(r)))
        }
        return resources
    }

    /// The extension URL C3-PRO puts on a `Contract` signer for the sharing choice (`valueBoolean`, true = share
    /// broadly).
    public static let c3proSharingExtension = ConsentPolicy.c3proSharingExtension

    /// A consent signature as C3-PRO signs a `Contract` (`ConsentController.signContract`), in R4 form: `status`
    /// `executed` (consented) or `rejected` (declined); `applies.start` the signature's end; one signer of `type`
    /// `CONSENTER` whose `party` is the participant (`identifier`, or `display` "participant" when the input names
    /// none), with C3-PRO's `consents-to-data-sharing` extension when the task has a sharing choice, and a
    /// `signature` of type 1.2.840.10065.1.12.1.7 "Consent Signature" (`when` the signature's end, `who` the party).
    static func contract(_ answer: JSONObject, consented: Bool, sharing: String?, context: ExportContext) -> JSONObject {
        let party: JSONValue = context.fhirSubject ?? .object(JSONObject([("display", .string("participant"))]))
        let when = answer["endDate"]?.stringValue.flatMap { ResultDate($0) } ?? context.end ?? context.exportedAt
        var signer: [(key: String, value: JSONValue)] = []
        if let sharing {
            signer.append(
                ("extension", .array([.object(JSONObject([
                    ("url", .string(c3proSharingExtension)), ("valueBoolean", .bool(sharing == "all_qualified_researchers")),
                ]))])))
        }
        signer += [
            // The code systems of the R4 value sets contract-signer-type and signature-type (a ValueSet URL is no
            // code system).
            ("type", ExportMeasure.coding(
                system: "http://terminology.hl7.org/CodeSystem/contractsignertypecodes", code: "CONSENTER",
                display: "Consenter")),
            ("party", party),
            ("signature", .array([.object(JSONObject([
                ("type", .array([ExportMeasure.coding(
                    system: "urn:iso-astm:E1762-95:2013", code: "1.2.840.10065.1.12.1.7",
                    display: "Consent Signature")])),
                ("when", .string(when.description)), ("who", party),
            ]))])),
        ]
        return JSONObject([
            ("resourceType", .string("Contract")), ("status", .string(consented ? "executed" : "rejected")),
            ("applies", .object(JSONObject([("start", .string(when.description))]))),
            ("signer", .array([.object(JSONObject(signer))])),
        ])
    }

    /// The extension on a signed `Contract` or a `Consent` saying whether the participant met the consent's
    /// eligibility criteria (`valueCode` ``Eligibility/Status``).
    public static let eligibilityExtension = ConsentPolicy.fhirCanonicalBase + "/StructureDefinition/eligibility"

    /// A signed `Contract` that follows the study's consent `template` (C3-PRO signs its consent Contract): the
    /// template's `title`, `version`, `authority`, `term` and `contained` resources (the eligibility `Group`, the
    /// team's `Organization`), `instantiatesUri` its `url`; `subject` the participant and the template's subjects
    /// (its eligibility group); the eligibility outcome in ``eligibilityExtension``; and the consent document as
    /// `legallyBindingAttachment` (SHA-1 `hash` as R4 defines it, SHA-256 in ``ConsentDocument/sha256Extension``).
    static func following(
        _ template: ConsentContract, _ signed: JSONObject, eligibility: String?, attachment: JSONValue?,
        context: ExportContext
    ) -> JSONObject {
        var out: [(key: String, value: JSONValue)] = []
        let t = template.json
        for (key, value) in signed.entries {
            out.append((key, value))
            guard key == "resourceType" else { continue }
            if let contained = t["contained"] { out.append(("contained", contained)) }
            if let eligibility { out.append(("extension", .array([codeExtension(eligibilityExtension, eligibility)]))) }
        }
        var insertAt = out.firstIndex { $0.key == "applies" } ?? out.count
        func insert(_ key: String, _ value: JSONValue?) {
            guard let value else { return }
            out.insert((key, value), at: insertAt)
            insertAt += 1
        }
        insert("instantiatesUri", t["url"])
        insert("version", t["version"])
        insert("title", t["title"])
        var subjects: [JSONValue] = context.fhirSubject.map { [$0] } ?? []
        subjects += t["subject"]?.arrayValue ?? []
        let after = (out.firstIndex { $0.key == "applies" } ?? out.count - 1) + 1
        var tail: [(key: String, value: JSONValue)] = []
        if !subjects.isEmpty { tail.append(("subject", .array(subjects))) }
        if let authority = t["authority"] { tail.append(("authority", authority)) }
        if let terms = t["term"]?.arrayValue {
            // R4 requires a term's `offer` (C3-PRO's terms, written before R4, have none): its text is the term's.
            let offered = terms.enumerated().map { index, term -> JSONValue in
                guard var o = term.objectValue, o["offer"] == nil else { return term }
                let text = template.terms.indices.contains(index)
                    ? template.terms[index].text ?? template.terms[index].title : nil
                o.entries.append(
                    ("offer", .object(JSONObject([("text", .string(text ?? "Consent section \(index + 1)"))]))))
                return .object(o)
            }
            tail.append(("term", .array(offered)))
        }
        out.insert(contentsOf: tail, at: min(after, out.count))
        if let attachment { out.append(("legallyBindingAttachment", attachment)) }
        return JSONObject(out)
    }

    /// `urn:researchkit:task:<identifier>` when the identifier is usable in a URI (letters, digits, `.-_~:`).
    static func canonical(_ identifier: String) -> String? {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ".-_~:"))
        guard !identifier.isEmpty, identifier.unicodeScalars.allSatisfy({ allowed.contains($0) && $0.isASCII }) else {
            return nil
        }
        return "urn:researchkit:task:" + identifier
    }

    /// A FHIR `code`: no leading or trailing white space, single spaces inside; nil when nothing is left.
    static func fhirCode(_ text: String) -> String? {
        let words = text.split(whereSeparator: \.isWhitespace)
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// The `answer` array of one survey answer row, or nil when it has no value.
    static func answerValues(_ answer: JSONObject) -> [JSONValue]? {
        guard answer["withheld"]?.stringValue == nil, answer["value"]?.stringValue != nil else { return nil }
        let type = answer["answerType"]?.stringValue ?? ""
        let number = answer["valueNumber"]?.numberValue
        let unit = answer["unit"]?.stringValue
        func one(_ key: String, _ value: JSONValue) -> [JSONValue] { [.object(JSONObject([(key, value)]))] }
        func decimal(_ x: Double) -> [JSONValue] {
            if abs(x) < 2_147_483_648, let whole = Int(exactly: x), type == "integer" || type == "socioeconomicLadder" {
                return one("valueInteger", .number(Double(whole)))
            }
            return one("valueDecimal", .number(x))
        }
        switch type {
        case "singleChoice", "multipleChoice", "choice":
            let codings = (answer["choiceValues"]?.arrayValue ?? []).compactMap { value -> JSONValue? in
                let text = SurveyAnswer.text(value)
                var fields: [(key: String, value: JSONValue)] = []
                var code = text
                // "system|code", as C3-PRO writes coded choices, when the part before the bar is a URI.
                if let bar = text.firstIndex(of: "|"), text[..<bar].contains(":") {
                    fields.append(("system", .string(String(text[..<bar]))))
                    code = String(text[text.index(after: bar)...])
                }
                guard let code = fhirCode(code) else { return nil }
                fields.append(("code", .string(code)))
                return .object(JSONObject([("valueCoding", .object(JSONObject(fields)))]))
            }
            return codings.isEmpty ? nil : codings
        case "scale":
            return number.map { one("valueDecimal", .number($0)) }
        case "integer", "socioeconomicLadder":
            return number.map(decimal)
        case "decimal", "height", "weight", "numeric":
            guard let x = number else { return nil }
            guard let unit, !unit.isEmpty else { return decimal(x) }
            return one("valueQuantity", .object(JSONObject([("value", .number(x)), ("unit", .string(unit))])))
        case "boolean", "signature":
            return number.map { one("valueBoolean", .bool($0 != 0)) }
        case "text":
            return answer["valueText"]?.stringValue.flatMap(nonEmpty).map { one("valueString", .string($0)) }
        case "untyped":
            // MyDataHelps answers are text without a type: each answer as written, never reinterpreted.
            let values = (answer["choiceValues"]?.arrayValue ?? []).map(SurveyAnswer.text).compactMap(nonEmpty)
            return values.isEmpty ? nil : values.map { .object(JSONObject([("valueString", .string($0))])) }
        case "timeOfDay":
            guard let text = answer["valueText"]?.stringValue else { return nil }
            let parts = text.split(separator: ":").map(String.init)
            guard parts.count >= 2, parts.count <= 3, parts.allSatisfy({ $0.count == 2 && Int($0) != nil }) else {
                return one("valueString", .string(text))
            }
            return one("valueTime", .string(parts.count == 2 ? text + ":00" : text))
        case "timeInterval":
            return number.map {
                one("valueQuantity", .object(JSONObject([
                    ("value", .number($0)), ("unit", .string("s")), ("system", .string("http://unitsofmeasure.org")),
                    ("code", .string("s")),
                ])))
            }
        case "video":
            guard let name = answer["valueText"]?.stringValue else { return nil }
            var attachment: [(key: String, value: JSONValue)] = []
            if let type = answer["contentType"]?.stringValue { attachment.append(("contentType", .string(type))) }
            attachment.append(("title", .string(name)))
            return one("valueAttachment", .object(JSONObject(attachment)))
        case "date", "dateAndTime":
            guard let date = answer["valueDate"]?.stringValue.flatMap({ ResultDate($0) }) else { return nil }
            return type == "date"
                ? one("valueDate", .string(String(date.description.prefix(10))))
                : one("valueDateTime", .string(date.description))
        default:
            return answer["value"]?.stringValue.flatMap(nonEmpty).map { one("valueString", .string($0)) }
        }
    }

    /// `text` when it holds something besides white space (an R4 `string` may not be empty); nil otherwise.
    static func nonEmpty(_ text: String) -> String? {
        text.contains(where: { !$0.isWhitespace }) ? text : nil
    }
}

extension FHIRExport {
    /// A participant's signed consent `Contract` on its own (batch's `consent/<name>.contract.json`).
    ///
    /// The decision signed as ``contract(_:consented:sharing:context:)`` does, following `template`
    /// (``following(_:_:eligibility:attachment:context:)``), with the eligibility outcome given (batch checks it over
    /// all of the participant's answers) and the consent document's attachment; `id` a UUID made from `seed`, with it
    /// as `identifier`. Nil when the decision is neither signed nor declined.
    public static func signedContract(
        decision: ConsentDecision, eligibility: Eligibility?, template: ConsentContract, participant: String?,
        settings: Settings, attachment: JSONValue?, exportedAt: ResultDate, seed: String
    ) -> JSONObject? {
        guard let status = decision.status, status != .unknown else { return nil }
        var context = ExportContext()
        context.exportedAt = exportedAt
        context.participant = participant
        context.fhirSubject = subject(context: context, settings: settings)
        let when: JSONValue = decision.signedAt.map { .string($0.description) } ?? .null
        let signed = contract(
            JSONObject([("endDate", when)]), consented: status == .signed, sharing: decision.scope?.rawValue,
            context: context)
        let full = following(
            template, signed, eligibility: eligibility?.status.rawValue, attachment: attachment, context: context)
        let id = deterministicUUID(seed)
        var entries = full.entries
        entries.insert(("id", .string(id)), at: 1)
        let identifier = JSONObject([("system", .string("urn:ietf:rfc:3986")), ("value", .string("urn:uuid:" + id))])
        entries.insert(("identifier", .array([.object(identifier)])), at: 2)
        return JSONObject(entries)
    }

    /// An extension of `url` with `valueCode` `code`.
    static func codeExtension(_ url: String, _ code: String) -> JSONValue {
        .object(JSONObject([("url", .string(url)), ("valueCode", .string(code))]))
    }
}
