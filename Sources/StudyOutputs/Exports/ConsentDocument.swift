import Archives
import Foundation
import StudyInputs

/// A participant's signed consent as a self-contained HTML document (printable to PDF), and its hashes for the
/// FHIR `Contract` and `Consent` that point to it.
///
/// The document attests who signed which terms and when: the study (the contract's title, authority, `url`,
/// `version`, `issued` and the SHA-256 of the contract file as read), every term in order (title, summary and the
/// HTML the app showed, copied as the study wrote it), the eligibility criteria with the participant's answers and
/// whether each is met, and the decision: signed or declined, the signer's name (when the record has one and
/// identifiers are not withheld), the signature date as the app wrote it, the signature time (device offset kept),
/// the signature image (legacy `ORKConsentSignature.signatureImage`, embedded as a `data:` URI; ResearchKit 3's
/// `ORKSignatureResult` serialises none), the participant, the record, the task run and the flow it was read
/// from. No script, style sheet, font or image is fetched: the file is the whole document. The same inputs give
/// the same bytes (the generation time is the run's start), so its hash is stable across resumed runs and merges.
public struct ConsentDocument: Sendable, Hashable {
    /// Who signed, when and where it was read.
    public struct Signing: Sendable, Hashable {
        /// The participant's identifier; nil when the record names none.
        public var participant: String?
        /// The decision read from the record.
        public var decision: ConsentDecision
        /// The record's source (path or archive member).
        public var record: String?
        /// The task run (`taskRunUUID`); nil when unknown.
        public var taskRunUUID: String?
        /// The task's identifier; nil when unknown.
        public var taskIdentifier: String?

        /// Creates a signing.
        public init(
            participant: String?, decision: ConsentDecision, record: String?, taskRunUUID: String?,
            taskIdentifier: String?
        ) {
            self.participant = participant
            self.decision = decision
            self.record = record
            self.taskRunUUID = taskRunUUID
            self.taskIdentifier = taskIdentifier
        }
    }

    /// The document (UTF-8 HTML).
    public var html: String
    /// SHA-256 of the document's bytes, lower-case hex (what `sha256sum` prints).
    public var sha256: String
    /// SHA-256 of the document's bytes, base64 (the FHIR extension's `valueBase64Binary`).
    public var sha256Base64: String
    /// SHA-1 of the document's bytes, base64: R4 `Attachment.hash` is defined as SHA-1.
    public var sha1Base64: String
    /// The document's size, bytes.
    public var size: Int
    /// When the document was made (the run's start or the export time).
    public var generatedAt: ResultDate

    /// The extension carrying the SHA-256 of an attachment (`valueBase64Binary`), beside R4's SHA-1 `hash`.
    public static let sha256Extension = ConsentPolicy.fhirCanonicalBase + "/StructureDefinition/attachment-sha256"

    /// Renders the document.
    public init(contract: ConsentContract, signing: Signing, eligibility: Eligibility?, generatedAt: ResultDate) {
        self.generatedAt = generatedAt
        let html = Self.render(contract: contract, signing: signing, eligibility: eligibility, generatedAt: generatedAt)
        self.html = html
        let bytes = Array(html.utf8)
        size = bytes.count
        var h = SHA256()
        h.update(bytes)
        let words = h.finalizeWords()
        sha256 = words.map { String(format: "%08x", $0) }.joined()
        sha256Base64 = Data(
            words.flatMap { w in (0..<4).map { UInt8(truncatingIfNeeded: w >> (24 - 8 * UInt32($0))) } }
        )
        .base64EncodedString()
        sha1Base64 = Data(SHA1.digest(bytes)).base64EncodedString()
    }

    /// The document of a survey record's consent decision (its `consent` and `eligibility` keys); nil when the
    /// record holds no decision.
    public init?(record: ExportRecord, participant: String?, contract: ConsentContract, generatedAt: ResultDate) {
        guard let value = record.json["consent"], value != .null,
            let decision = try? Self.decode(ConsentDecision.self, from: value), decision.status != nil
        else { return nil }
        let eligibility = record.json["eligibility"].flatMap { try? Self.decode(Eligibility.self, from: $0) }
        let signing = Signing(
            participant: participant, decision: decision, record: record.source,
            taskRunUUID: record.json["taskRunUUID"]?.stringValue,
            taskIdentifier: record.json["taskIdentifier"]?.stringValue)
        self.init(contract: contract, signing: signing, eligibility: eligibility, generatedAt: generatedAt)
    }

    /// An R4 `Attachment` for the document: `contentType` `text/html`, `url` when given, `size`, `hash` (SHA-1,
    /// base64, as R4 defines it), `title`, `creation`, and the SHA-256 in ``sha256Extension``.
    public func attachment(url: String?, title: String) -> JSONValue {
        var fields: [(key: String, value: JSONValue)] = [
            (
                "extension",
                .array([
                    .object(
                        JSONObject([
                            ("url", .string(Self.sha256Extension)), ("valueBase64Binary", .string(sha256Base64)),
                        ]))
                ])
            ),
            ("contentType", .string("text/html")), ("language", .string("en")),
        ]
        if let url { fields.append(("url", .string(url))) }
        fields += [
            ("size", .number(Double(size))), ("hash", .string(sha1Base64)), ("title", .string(title)),
            ("creation", .string(generatedAt.description)),
        ]
        return .object(JSONObject(fields))
    }

    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try JSONDecoder().decode(type, from: Data(try ResultEncoding.compactJSON(value).utf8))
    }

    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    static func render(contract: ConsentContract, signing: Signing, eligibility: Eligibility?, generatedAt: ResultDate)
        -> String
    {
        let d = signing.decision
        let title = contract.title ?? "Research consent"
        var h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        h += "<title>\(escape(title)) — consent of \(escape(signing.participant ?? "an unnamed participant"))</title>\n"
        h += """
            <style>
            body{font:11pt/1.45 Georgia,serif;max-width:46em;margin:2em auto;color:#111}
            h1{font-size:1.5em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #999}
            table{border-collapse:collapse;width:100%}td,th{border:1px solid #bbb;padding:.25em .5em;text-align:left;vertical-align:top}
            .decision{font-size:1.2em;font-weight:bold}.meta{color:#444;font-size:.9em}
            img.signature{max-width:18em;max-height:8em;border-bottom:1px solid #111}
            @media print{body{margin:0;max-width:none}section{break-inside:avoid}}
            </style>

            """
        h += "</head>\n<body>\n"
        h += "<h1>\(escape(title))</h1>\n"
        var facts: [(String, String)] = []
        if let a = contract.authority { facts.append(("Study team", a)) }
        if let u = contract.url { facts.append(("Consent", u)) }
        if let v = contract.version { facts.append(("Version", v)) }
        if let i = contract.issued { facts.append(("Issued", i)) }
        facts.append(("Terms file", contract.fileName.split(separator: "/").last.map(String.init) ?? contract.fileName))
        facts.append(("Terms SHA-256", contract.sha256))
        h += table(facts)

        h += "<h2>Terms</h2>\n"
        if contract.terms.isEmpty { h += "<p>The consent names no terms.</p>\n" }
        for (i, term) in contract.terms.enumerated() {
            h += "<section>\n<h3>\(i + 1). \(escape(term.title ?? term.type ?? "Section"))</h3>\n"
            if let text = term.text { h += "<p>\(escape(text))</p>\n" }
            if let html = term.htmlContent { h += "<div class=\"content\">\n\(html)\n</div>\n" }
            h += "</section>\n"
        }

        if let eligibility {
            h += "<h2>Eligibility: \(eligibility.status.rawValue)</h2>\n"
            h += "<table>\n<tr><th>Criterion</th><th>Required</th><th>Answer</th><th>Met</th></tr>\n"
            for c in eligibility.checks {
                let met = c.met.map { $0 ? "yes" : "no" } ?? "not decided"
                let answer =
                    c.answer.map {
                        escape($0) + (c.question.map { " <span class=\"meta\">(\(escape($0)))</span>" } ?? "")
                    }
                    ?? (c.question == nil ? "not asked" : "not answered")
                h +=
                    "<tr><td>\(escape(c.criterion))</td><td>\(escape(c.requirement))</td><td>\(answer)</td><td>\(met)</td></tr>\n"
            }
            h += "</table>\n"
        }

        h += "<h2>Decision</h2>\n"
        let said: String
        switch d.status {
        case .signed: said = "Signed: the participant consented."
        case .declined: said = "Declined: the participant did not consent."
        case .unknown, nil: said = "The decision cannot be read from the record."
        }
        h += "<p class=\"decision\">\(escape(said))</p>\n"
        var signed: [(String, String)] = [("Participant", signing.participant ?? "not named by the record")]
        signed.append(("Signer", d.signerName ?? "no name in the record"))
        if let date = d.signatureDate { signed.append(("Signature date (as the app wrote it)", date)) }
        signed.append(("Signed at", d.signedAt?.description ?? "no time in the record"))
        if let scope = d.scope { signed.append(("Sharing", scope.rawValue)) }
        h += table(signed)
        if let image = d.signatureImage, let type = ConsentDecision.imageType(image) {
            h += "<p><img class=\"signature\" alt=\"signature\" src=\"data:\(type);base64,\(image)\"></p>\n"
        } else {
            h += "<p class=\"meta\">The record holds no signature image.</p>\n"
        }

        h += "<h2>Record</h2>\n"
        var record: [(String, String)] = []
        if let r = signing.record { record.append(("Record", r)) }
        if let t = signing.taskIdentifier { record.append(("Task", t)) }
        if let u = signing.taskRunUUID { record.append(("Task run", u)) }
        if let s = d.stepIdentifier { record.append(("Step", s)) }
        if let f = d.flow { record.append(("Read from", f.rawValue)) }
        record.append(("Generated", "taskproc \(taskprocVersion), \(generatedAt.description)"))
        h += table(record)
        h += "</body>\n</html>\n"
        return h
    }

    static func table(_ rows: [(String, String)]) -> String {
        "<table>\n" + rows.map { "<tr><th>\(escape($0.0))</th><td>\(escape($0.1))</td></tr>\n" }.joined() + "</table>\n"
    }
}
