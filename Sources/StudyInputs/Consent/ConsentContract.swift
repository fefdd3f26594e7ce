import Archives
import Foundation

/// A study's consent as a FHIR R4 `Contract`, the input of C3-PRO's consent module (`--consent-contract FILE`):
/// the terms a participant reads and the eligibility criteria they must meet.
///
/// Read as C3-PRO reads it:
/// - **Terms**: each `term` is a consent section: `type.coding` (system
///   `http://researchkit.org/docs/Constants/ORKConsentSectionType`, code `Overview`, `Privacy`, `DataGathering`, …),
///   `text` (the summary) and C3-PRO's extension `http://fhir-registry.smarthealthit.org/StructureDefinition/ORKConsentSection`
///   with nested `title` and `htmlContent` (`valueString`); a term's `offer.text` is read as its text when it has
///   none of its own (R4 moved the text there).
/// - **Eligibility**: the `Group` the contract's `subject` references (`#id` of a `contained` resource); each
///   `characteristic` is a criterion with `code.text` (the question as asked), `exclude` (required) and a value:
///   `valueBoolean` (C3-PRO's yes/no criteria), `valueCodeableConcept` (a choice: any of its codings' codes),
///   `valueQuantity` (a number; `comparator` `<`, `<=`, `>=`, `>`, else equal) or `valueRange` (`low` ≤ answer ≤
///   `high`, either may be left out).
/// - **The answer that decides a criterion**: ResearchKit results carry no question text, so a criterion names its
///   question in `code.coding`: each coding's `code` is a question identifier or `<step>/<question>` (any `system`;
///   `urn:researchkit:question` is the documented one). A criterion naming no question is not decided (unknown).
/// - The study's name: `title`, else the `name` of the `contained` `Organization` the `authority` references (as
///   C3-PRO names the team).
///
/// The file is kept as read (``json``) and its SHA-256 (``sha256``) names the exact terms a document attests.
public struct ConsentContract: Sendable, Hashable {
    /// One consent section.
    public struct Term: Sendable, Hashable, Codable {
        /// ResearchKit's section type (`Overview`, `Privacy`, …); nil when not given.
        public var type: String?
        /// The section's title (C3-PRO's `title` extension); nil when not given.
        public var title: String?
        /// The section's summary text; nil when not given.
        public var text: String?
        /// The section's full HTML as the app showed it (C3-PRO's `htmlContent` extension); nil when not given.
        public var htmlContent: String?
    }

    /// One eligibility criterion (a `Group.characteristic`).
    public struct Criterion: Sendable, Hashable, Codable {
        /// What the answer must be for the characteristic to hold.
        public enum Value: Sendable, Hashable, Codable {
            /// A yes/no answer equal to this.
            case boolean(Bool)
            /// A choice among these codes.
            case codes([String])
            /// A number compared with `comparator` (`<`, `<=`, `>=`, `>`; nil: equal) to `value`.
            case quantity(comparator: String?, value: Double)
            /// A number in `low`…`high` (inclusive; nil: unbounded).
            case range(low: Double?, high: Double?)
        }

        /// The question as the participant read it (`code.text`).
        public var text: String
        /// The question identifiers (`code.coding[].code`) whose answer decides it: `<question>` or
        /// `<step>/<question>`.
        public var questions: [String]
        /// The value the characteristic has.
        public var value: Value
        /// True when a participant with the characteristic is excluded (an exclusion criterion).
        public var exclude: Bool

        /// What the answer must be, as a phrase (`true`, `not 2`, `>= 18`, `18…65`).
        public var requirement: String {
            let expected: String
            switch value {
            case .boolean(let b): expected = b ? "true" : "false"
            case .codes(let codes): expected = codes.joined(separator: " or ")
            case .quantity(let comparator, let v): expected = (comparator.map { $0 + " " } ?? "") + SurveyAnswer.text(v)
            case .range(let low, let high):
                expected = (low.map(SurveyAnswer.text) ?? "") + "…" + (high.map(SurveyAnswer.text) ?? "")
            }
            return exclude ? "not " + expected : expected
        }

        /// Whether the characteristic holds for an answer's text and number; nil when the answer cannot say.
        func holds(text: String?, number: Double?, choices: [String]) -> Bool? {
            switch value {
            case .boolean(let b):
                guard let t = text?.lowercased() else { return nil }
                let said: Bool? =
                    ["true", "1", "yes"].contains(t) ? true : ["false", "0", "no"].contains(t) ? false : nil
                return said.map { $0 == b }
            case .codes(let codes):
                let given = choices.isEmpty ? text.map { [$0] } ?? [] : choices
                return given.isEmpty ? nil : given.contains(where: codes.contains)
            case .quantity(let comparator, let v):
                guard let x = number ?? text.flatMap(Double.init) else { return nil }
                switch comparator {
                case "<": return x < v
                case "<=": return x <= v
                case ">=": return x >= v
                case ">": return x > v
                default: return x == v
                }
            case .range(let low, let high):
                guard let x = number ?? text.flatMap(Double.init) else { return nil }
                return (low.map { x >= $0 } ?? true) && (high.map { x <= $0 } ?? true)
            }
        }
    }

    /// The largest contract file read (bytes): a consent with its HTML sections is tens of kB.
    public static let maximumBytes = 16 << 20

    /// The system documented for a criterion's question identifiers (any system is read).
    public static let questionSystem = "urn:researchkit:question"

    /// C3-PRO's consent-section extension on a term.
    public static let sectionExtension = "http://fhir-registry.smarthealthit.org/StructureDefinition/ORKConsentSection"

    /// The contract as read.
    public var json: JSONObject
    /// SHA-256 of the file's bytes (lower-case hex).
    public var sha256: String
    /// The file's name, as given.
    public var fileName: String
    /// `Contract.url`; nil when absent.
    public var url: String?
    /// `Contract.id`; nil when absent.
    public var id: String?
    /// `Contract.version`; nil when absent.
    public var version: String?
    /// The study or consent title: `title`, else the authority's name; nil when neither is given.
    public var title: String?
    /// The authority's (team's) name; nil when not given.
    public var authority: String?
    /// `Contract.issued`; nil when absent.
    public var issued: String?
    /// The terms, in order.
    public var terms: [Term]
    /// The eligibility criteria, in order; empty when the contract has no eligibility group.
    public var criteria: [Criterion]

    /// Reads a contract file.
    /// - Throws: ``ExportError`` naming the file, the field and what is expected.
    public init(file path: String) throws {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
        guard let size else { throw ExportError("\(path): cannot read") }
        guard size <= Self.maximumBytes else {
            throw ExportError("\(path): \(size) bytes, more than a consent contract's \(Self.maximumBytes)")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw ExportError("\(path): cannot read") }
        let root: JSONValue
        do { root = try JSONParser.parse(data, file: path) } catch { throw ExportError("\(error)") }
        try self.init(root, sha256: SHA256.hex(data), fileName: path)
    }

    /// Reads a parsed contract.
    /// - Throws: ``ExportError`` naming `fileName`, the field and what is expected.
    public init(_ root: JSONValue, sha256: String, fileName: String) throws {
        func fail(_ at: String, _ expected: String) -> ExportError {
            ExportError("\(fileName): \(at): expected \(expected)")
        }
        guard let o = root.objectValue else { throw fail("the document", "a FHIR Contract (a JSON object)") }
        guard o["resourceType"]?.stringValue == "Contract" else {
            throw fail("resourceType", "\"Contract\", found \(o["resourceType"]?.summary ?? "none")")
        }
        json = o
        self.sha256 = sha256
        self.fileName = fileName
        func string(_ object: JSONObject, _ key: String, at: String) throws -> String? {
            guard let v = object[key], v != .null else { return nil }
            guard let s = v.stringValue else { throw fail(at + key, "a string, found \(v.summary)") }
            return s
        }
        url = try string(o, "url", at: "")
        id = try string(o, "id", at: "")
        version = try string(o, "version", at: "")
        issued = try string(o, "issued", at: "")

        // Contained resources by id.
        var contained: [String: JSONObject] = [:]
        if let list = o["contained"] {
            guard let items = list.arrayValue else { throw fail("contained", "an array of resources") }
            for (i, item) in items.enumerated() {
                guard let r = item.objectValue, let rid = r["id"]?.stringValue else {
                    throw fail("contained[\(i)]", "a resource with an id")
                }
                contained[rid] = r
            }
        }
        func resolve(_ reference: JSONValue?, at: String) throws -> JSONObject? {
            guard let reference else { return nil }
            guard let ref = reference.objectValue?["reference"]?.stringValue else {
                throw fail(at, "a Reference {\"reference\": \"#id\"}")
            }
            guard ref.hasPrefix("#") else { return nil }  // not contained: nothing to read here
            guard let r = contained[String(ref.dropFirst())] else {
                throw fail(at, "\(ref) to name a contained resource (contained has \(contained.keys.sorted()))")
            }
            return r
        }
        var authorityName: String?
        if let list = o["authority"]?.arrayValue {
            for (i, a) in list.enumerated() {
                if let r = try resolve(a, at: "authority[\(i)]"), authorityName == nil {
                    authorityName = try string(r, "name", at: "authority[\(i)] → ")
                }
            }
        }
        authority = authorityName
        title = try string(o, "title", at: "") ?? authorityName

        // Terms.
        var terms: [Term] = []
        if let list = o["term"] {
            guard let items = list.arrayValue else { throw fail("term", "an array of terms") }
            for (i, item) in items.enumerated() {
                let at = "term[\(i)]"
                guard let t = item.objectValue else { throw fail(at, "a term (an object)") }
                var term = Term()
                if let type = t["type"] {
                    guard let codings = type.objectValue?["coding"]?.arrayValue ?? (type.objectValue != nil ? [] : nil)
                    else { throw fail(at + ".type", "a CodeableConcept") }
                    term.type =
                        codings.compactMap { $0.objectValue?["code"]?.stringValue }.first
                        ?? type.objectValue?["text"]?.stringValue
                }
                term.text = try string(t, "text", at: at + ".")
                if term.text == nil, let offer = t["offer"]?.objectValue {
                    term.text = try string(offer, "text", at: at + ".offer.")
                }
                for ext in t["extension"]?.arrayValue ?? []
                where ext.objectValue?["url"]?.stringValue == Self.sectionExtension {
                    for sub in ext.objectValue?["extension"]?.arrayValue ?? [] {
                        guard let s = sub.objectValue else { continue }
                        switch s["url"]?.stringValue {
                        case "title": term.title = try string(s, "valueString", at: at + ".extension.title.")
                        case "htmlContent":
                            term.htmlContent = try string(s, "valueString", at: at + ".extension.htmlContent.")
                        default: break
                        }
                    }
                }
                terms.append(term)
            }
        }
        self.terms = terms

        // Eligibility: the Group the subject references.
        var group: (JSONObject, String)?
        for (i, s) in (o["subject"]?.arrayValue ?? []).enumerated() {
            if let r = try resolve(s, at: "subject[\(i)]"), r["resourceType"]?.stringValue == "Group" {
                group = (r, "contained #\(r["id"]?.stringValue ?? "")")
                break
            }
        }
        var criteria: [Criterion] = []
        if let (g, name) = group {
            for (i, item) in (g["characteristic"]?.arrayValue ?? []).enumerated() {
                let at = "\(name).characteristic[\(i)]"
                guard let c = item.objectValue else { throw fail(at, "a characteristic (an object)") }
                guard let code = c["code"]?.objectValue else { throw fail(at + ".code", "a CodeableConcept") }
                let questions = (code["coding"]?.arrayValue ?? []).compactMap { $0.objectValue?["code"]?.stringValue }
                guard
                    let text = code["text"]?.stringValue
                        ?? (code["coding"]?.arrayValue?.first?.objectValue?["display"]?.stringValue)
                else {
                    throw fail(at + ".code.text", "the question as asked (a string)")
                }
                guard let exclude = c["exclude"]?.boolValue else {
                    throw fail(at + ".exclude", "true or false (R4 requires it)")
                }
                let value: Criterion.Value
                if let b = c["valueBoolean"] {
                    guard let v = b.boolValue else { throw fail(at + ".valueBoolean", "true or false") }
                    value = .boolean(v)
                } else if let cc = c["valueCodeableConcept"] {
                    let codes = (cc.objectValue?["coding"]?.arrayValue ?? []).compactMap {
                        $0.objectValue?["code"]?.stringValue
                    }
                    guard !codes.isEmpty else { throw fail(at + ".valueCodeableConcept", "codings with a code") }
                    value = .codes(codes)
                } else if let q = c["valueQuantity"] {
                    guard let v = q.objectValue?["value"]?.numberValue, v.isFinite else {
                        throw fail(at + ".valueQuantity.value", "a number")
                    }
                    let comparator = q.objectValue?["comparator"]?.stringValue
                    if let comparator, !["<", "<=", ">=", ">"].contains(comparator) {
                        throw fail(at + ".valueQuantity.comparator", "<, <=, >= or >, found \"\(comparator)\"")
                    }
                    value = .quantity(comparator: comparator, value: v)
                } else if let r = c["valueRange"]?.objectValue {
                    let low = r["low"]?.objectValue?["value"]?.numberValue
                    let high = r["high"]?.objectValue?["value"]?.numberValue
                    guard low != nil || high != nil else { throw fail(at + ".valueRange", "a low or high value") }
                    value = .range(low: low, high: high)
                } else if c["valueBoolean"] == nil, c.keys.allSatisfy({ !$0.hasPrefix("value") }) {
                    value = .boolean(true)  // C3-PRO: a criterion without a value is a yes
                } else {
                    let key = c.keys.first { $0.hasPrefix("value") } ?? "value"
                    throw fail(at + "." + key, "valueBoolean, valueCodeableConcept, valueQuantity or valueRange")
                }
                criteria.append(Criterion(text: text, questions: questions, value: value, exclude: exclude))
            }
        }
        self.criteria = criteria
    }

    /// Whether `answers` (latest last) meet the criteria; nil when the contract has none.
    public func eligibility(of answers: [SurveyAnswer]) -> Eligibility? {
        guard !criteria.isEmpty else { return nil }
        var checks: [Eligibility.Check] = []
        for criterion in criteria {
            var check = Eligibility.Check(criterion: criterion.text, requirement: criterion.requirement)
            let answer = answers.last { a in
                a.withheld == nil && a.relativeIdentifier == nil
                    && (criterion.questions.contains(a.questionIdentifier)
                        || criterion.questions.contains(a.stepIdentifier + "/" + a.questionIdentifier))
            }
            if let answer {
                check.question =
                    answer.stepIdentifier == answer.questionIdentifier
                    ? answer.questionIdentifier : answer.stepIdentifier + "/" + answer.questionIdentifier
                let choices = (answer.choiceValues ?? []).map(SurveyAnswer.text)
                check.answer = answer.value
                if let holds = criterion.holds(
                    text: ConsentRules.text(of: answer), number: answer.valueNumber, choices: choices)
                {
                    check.met = holds != criterion.exclude
                }
            }
            checks.append(check)
        }
        let status: Eligibility.Status =
            checks.contains { $0.met == false } ? .ineligible : checks.contains { $0.met == nil } ? .unknown : .eligible
        return Eligibility(status: status, checks: checks)
    }

    /// True when some answer of `answers` is one a criterion names.
    public func asks(_ answers: [SurveyAnswer]) -> Bool {
        answers.contains { a in
            criteria.contains {
                $0.questions.contains(a.questionIdentifier)
                    || $0.questions.contains(a.stepIdentifier + "/" + a.questionIdentifier)
            }
        }
    }
}

extension ConsentContract: Codable {
    enum CodingKeys: String, CodingKey { case json, sha256, fileName }

    /// The file as read, its hash and name.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(JSONValue.object(json), forKey: .json)
        try c.encode(sha256, forKey: .sha256)
        try c.encode(fileName, forKey: .fileName)
    }

    /// Reads what ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            try c.decode(JSONValue.self, forKey: .json), sha256: try c.decode(String.self, forKey: .sha256),
            fileName: try c.decode(String.self, forKey: .fileName))
    }
}

/// Whether a participant's answers meet a ``ConsentContract``'s eligibility criteria (the survey result's
/// `eligibility`, the consent document's table).
///
/// `status`: `ineligible` when some criterion is not met, else `unknown` when some criterion has no answer that
/// decides it (not asked, skipped, withheld, or a value the criterion cannot compare), else `eligible`. A criterion
/// is met when its characteristic holds (the answer equals the boolean, is one of the codes, compares with the
/// quantity, lies in the range) and it is an inclusion criterion, or does not hold and it is an exclusion criterion
/// (`exclude` true), as C3-PRO decides (`mustBeMet` = `valueBoolean` ≠ `exclude`).
public struct Eligibility: Sendable, Hashable, Codable {
    /// The outcome.
    public enum Status: String, Sendable, Hashable, Codable {
        /// Every criterion is met.
        case eligible
        /// Some criterion is not met.
        case ineligible
        /// None is unmet, but some cannot be decided.
        case unknown
    }

    /// One criterion's check.
    public struct Check: Sendable, Hashable, Codable {
        /// The criterion as asked (`code.text`).
        public var criterion: String
        /// What the answer must be (`true`, `not 2`, `>= 18`).
        public var requirement: String
        /// The answer that decided it (`<step>/<question>`, or the question for a question step); nil when none.
        public var question: String?
        /// That answer's text; nil when none or not answered.
        public var answer: String?
        /// Whether the criterion is met; nil when it cannot be decided.
        public var met: Bool?

        /// Creates a check.
        public init(
            criterion: String, requirement: String, question: String? = nil, answer: String? = nil, met: Bool? = nil
        ) {
            self.criterion = criterion
            self.requirement = requirement
            self.question = question
            self.answer = answer
            self.met = met
        }

        enum CodingKeys: String, CodingKey { case criterion, requirement, question, answer, met }

        /// Every key, `null` when undefined.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(criterion, forKey: .criterion)
            try c.encode(requirement, forKey: .requirement)
            try c.encodeNullable(question, forKey: .question)
            try c.encodeNullable(answer, forKey: .answer)
            try c.encodeNullable(met, forKey: .met)
        }
    }

    /// The outcome.
    public var status: Status
    /// Each criterion's check, in the contract's order.
    public var checks: [Check]

    /// Creates an outcome.
    public init(status: Status, checks: [Check]) {
        self.status = status
        self.checks = checks
    }
}
