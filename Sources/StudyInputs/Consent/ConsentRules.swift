import Foundation

/// Which answers of a task carry its participant's consent decision: the sharing choice and the signature steps
/// (`--consent-config FILE`, JSON).
///
/// Without a file, ``default`` reads both consent flows ResearchKit documents: the legacy review
/// (`ORKConsentReviewStep` → `ORKConsentSignatureResult`, `ORKConsentSharingStep` with choices true/1 = share
/// broadly, false/0 = study only) and ResearchKit 3's (`ORKWebViewStep` review and signature →
/// `ORKWebViewStepResult` + `ORKSignatureResult`; sharing asked in a form step, ORKCatalog's
/// `ConsentSharingFormStepIdentifier` with choices 1 = "Institution and qualified researchers worldwide",
/// 2 = "Only institution and its partners"). A file adds rules before the defaults:
///
/// ```json
/// {
///   "sharing": [
///     {"step": "ConsentSharingFormStepIdentifier", "question": "TextChoiceFormItem",
///      "values": {"1": "all_qualified_researchers", "2": "sponsors_and_partners", "3": "no_sharing"}}
///   ],
///   "decision": [
///     {"step": "agreeStep", "values": {"yes": "signed", "no": "declined"}}
///   ],
///   "signatureSteps": ["mySignatureStep"],
///   "defaults": true
/// }
/// ```
///
/// A rule matches an answer whose step identifier equals `step` and whose question identifier equals `question`
/// (either may be left out: any); `values` maps the answer's text (a choice's value, `true`/`false`, a number in
/// shortest form, text as written) to a sharing scope (Bridge's names) or a decision (`signed`, `declined`).
/// `signatureSteps` names steps whose `ORKSignatureResult` is a consent signature wherever they are (by default a
/// signature is consent when its task holds a web-view review or its step or task identifier contains `consent`).
/// A sharing value a rule does not map falls back to the default rule; `"defaults": false` keeps only the file's
/// rules.
public struct ConsentRules: Sendable, Hashable, Codable {
    /// One answer-to-value rule.
    public struct Rule<Value: Sendable & Hashable & Codable>: Sendable, Hashable, Codable {
        /// The step identifier the rule applies to; nil for any step.
        public var step: String?
        /// The question (form item) identifier; nil for any question of the step.
        public var question: String?
        /// The answer's text → what it means.
        public var values: [String: Value]

        /// Creates a rule.
        public init(step: String? = nil, question: String? = nil, values: [String: Value]) {
            self.step = step
            self.question = question
            self.values = values
        }

        /// True when the rule is about this answer (whatever its value).
        public func matches(_ answer: SurveyAnswer) -> Bool {
            (step.map { $0 == answer.stepIdentifier } ?? true)
                && (question.map { $0 == answer.questionIdentifier } ?? true)
        }
    }

    /// What a decision rule's value means.
    public enum Decision: String, Sendable, Hashable, Codable, CaseIterable {
        /// The participant consented.
        case signed
        /// The participant declined.
        case declined
    }

    /// Sharing-choice rules from the file, tried before the default rule.
    public var sharing: [Rule<SharingScope>] = []
    /// Decision rules from the file: an answer that says signed or declined.
    public var decision: [Rule<Decision>] = []
    /// Steps whose `ORKSignatureResult` is a consent signature.
    public var signatureSteps: [String] = []
    /// Also apply the default rules (true unless the file says `"defaults": false`).
    public var defaults = true

    /// The documented default: ResearchKit's legacy and ResearchKit 3 consent flows, nothing configured.
    public static let `default` = ConsentRules()

    /// No rules beyond the defaults.
    public init() {}

    enum CodingKeys: String, CodingKey { case sharing, decision, signatureSteps, defaults }

    /// Reads what ``encode(to:)`` writes and what a `--consent-config` file holds (every key optional).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        sharing = try c.decodeIfPresent([Rule<SharingScope>].self, forKey: .sharing) ?? []
        decision = try c.decodeIfPresent([Rule<Decision>].self, forKey: .decision) ?? []
        signatureSteps = try c.decodeIfPresent([String].self, forKey: .signatureSteps) ?? []
        defaults = try c.decodeIfPresent(Bool.self, forKey: .defaults) ?? true
    }

    /// Reads a `--consent-config` file.
    /// - Throws: ``ExportError`` naming the file, the rule and what is expected.
    public init(file path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else { throw ExportError("\(path): cannot read") }
        let root: JSONValue
        do { root = try JSONParser.parse(data, file: path) } catch { throw ExportError("\(error)") }
        guard let o = root.objectValue else {
            throw ExportError("\(path): expected a JSON object with sharing, decision, signatureSteps or defaults")
        }
        let known: Set<String> = ["sharing", "decision", "signatureSteps", "defaults"]
        if let unknown = o.keys.first(where: { !known.contains($0) }) {
            throw ExportError(
                "\(path): unknown key \"\(unknown)\" (expected sharing, decision, signatureSteps or defaults)")
        }
        sharing = try Self.rules(o["sharing"], key: "sharing", file: path) { SharingScope(text: $0) }
        decision = try Self.rules(o["decision"], key: "decision", file: path) { Decision(rawValue: $0) }
        if let steps = o["signatureSteps"] {
            guard let list = steps.arrayValue?.compactMap(\.stringValue), list.count == steps.arrayValue?.count else {
                throw ExportError("\(path): signatureSteps: expected an array of step identifiers")
            }
            signatureSteps = list
        }
        if let d = o["defaults"] {
            guard let b = d.boolValue else { throw ExportError("\(path): defaults: expected true or false") }
            defaults = b
        }
    }

    static func rules<Value>(
        _ value: JSONValue?, key: String, file: String, parse: (String) -> Value?
    ) throws -> [Rule<Value>] {
        guard let value else { return [] }
        guard let items = value.arrayValue else { throw ExportError("\(file): \(key): expected an array of rules") }
        let meaning =
            key == "sharing"
            ? SharingScope.allCases.map(\.rawValue).joined(separator: ", ")
            : Decision.allCases.map(\.rawValue).joined(separator: ", ")
        return try items.enumerated().map { index, item in
            let at = "\(file): \(key)[\(index)]"
            guard let o = item.objectValue else {
                throw ExportError("\(at): expected {\"step\", \"question\", \"values\"}")
            }
            if let unknown = o.keys.first(where: { !["step", "question", "values"].contains($0) }) {
                throw ExportError("\(at): unknown key \"\(unknown)\" (expected step, question, values)")
            }
            for name in ["step", "question"] where o[name] != nil && o[name]?.stringValue == nil {
                throw ExportError("\(at): \(name): expected an identifier (a string)")
            }
            guard let map = o["values"]?.objectValue, !map.entries.isEmpty else {
                throw ExportError("\(at): values: expected an object mapping answer text to one of \(meaning)")
            }
            var values: [String: Value] = [:]
            for (text, v) in map.uniqueEntries {
                guard let s = v.stringValue, let parsed = parse(s) else {
                    throw ExportError(
                        "\(at): values.\(text): \(v.stringValue.map { "\"\($0)\"" } ?? v.summary) is not one of \(meaning)"
                    )
                }
                values[text] = parsed
            }
            return Rule(step: o["step"]?.stringValue, question: o["question"]?.stringValue, values: values)
        }
    }

    /// An answer's text as rules compare it: the first choice's value (`1`, `true`, `share`), a Boolean as
    /// `true`/`false`, otherwise the answer's text form; nil when the answer has no value.
    public static func text(of answer: SurveyAnswer) -> String? {
        if let first = answer.choiceValues?.first { return SurveyAnswer.text(first) }
        return answer.value
    }

    /// The default sharing rule: a single-choice answer in a step whose identifier contains `sharing`
    /// (any case): `1` or `true` → ``SharingScope/allQualifiedResearchers``; `0`, `false` (the legacy
    /// `ORKConsentSharingStep`) or `2` (ORKCatalog's form step: "Only institution and its partners") →
    /// ``SharingScope/sponsorsAndPartners``.
    ///
    /// - Returns: nil when the answer is not a sharing answer; `.some(nil)` when it is one whose value the rule does
    ///   not know.
    static func defaultSharing(_ answer: SurveyAnswer) -> SharingScope?? {
        guard answer.stepIdentifier.lowercased().contains("sharing"),
            ["singleChoice", "choice"].contains(answer.answerType)
        else { return nil }
        switch text(of: answer) {
        case "1", "true": return .some(.allQualifiedResearchers)
        case "0", "false", "2": return .some(.sponsorsAndPartners)
        default: return .some(nil)
        }
    }
}
