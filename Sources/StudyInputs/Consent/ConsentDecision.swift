import Foundation

/// What one task result says about its participant's consent.
///
/// Read by ``ConsentRules`` from its answers: whether the participant signed or declined, when, in which flow, and
/// the sharing choice. The `consent` object of a survey result (JSON), and what `batch --consent-from-records`
/// filters on.
///
/// The flows (``Flow``):
/// - `consentReview`, ResearchKit's legacy review: an `ORKConsentSignatureResult` (`consented` true: signed,
///   false: declined; absent: unknown). Several signatures: declined if any is, signed if all are.
/// - `webView`, ResearchKit 3: a web-view step's `ORKWebViewStepResult` with the `ORKSignatureResult` the step
///   adds when the participant signs (signed, at the signature's end). A web-view review without a signature in a
///   task that is about consent (an identifier contains `consent`, or it holds a sharing answer) is unknown with a
///   warning: ResearchKit 3 records no "declined"; a participant who does not sign cancels the task.
/// - `signature`: an `ORKSignatureResult` of its own (`ORKSignatureStep`) in a consent task (an identifier contains
///   `consent`, the task holds a web-view review, or ``ConsentRules/signatureSteps`` names the step): signed.
/// - `answer`: an answer a ``ConsentRules/decision`` rule maps to signed or declined.
///
/// A sharing answer (``ConsentRules``: a configured rule's values first, then the default rule) gives ``scope``: the narrowest when there are several. A sharing answer
/// whose value no rule knows, or that was skipped, leaves the scope unknown and says so in ``warnings``.
public struct ConsentDecision: Sendable, Hashable {
    /// The decision.
    public enum Status: String, Sendable, Hashable, Codable {
        /// The participant signed (consented).
        case signed
        /// The participant declined.
        case declined
        /// The task holds a consent step whose decision cannot be read (see ``warnings``).
        case unknown
    }

    /// Where the decision was read (see ``ConsentDecision``).
    public enum Flow: String, Sendable, Hashable, Codable {
        /// `ORKConsentReviewStep` → `ORKConsentSignatureResult`.
        case consentReview
        /// ResearchKit 3's `ORKWebViewStep` review and signature.
        case webView
        /// An `ORKSignatureStep`'s `ORKSignatureResult` in a consent task.
        case signature
        /// An answer mapped by a `--consent-config` decision rule.
        case answer
    }

    /// The decision; nil when the task holds no consent step (then only ``scope`` may say something).
    public var status: Status?
    /// Where the decision was read; nil when ``status`` is nil.
    public var flow: Flow?
    /// The step the decision was read from.
    public var stepIdentifier: String?
    /// When the participant signed or declined: the end of the signature result (device UTC offset kept); nil when
    /// the result has no date.
    public var signedAt: ResultDate?
    /// The signature date as the app formatted it (legacy `ORKConsentSignature.signatureDate`, free text); nil
    /// otherwise.
    public var signatureDate: String?
    /// The signer's name; nil when unknown.
    ///
    /// The legacy signature's given and family name (withheld with `--drop-identifiers`); ResearchKit 3's signature
    /// carries no name.
    public var signerName: String?
    /// The signing signature's image, for the consent document; nil when the record has none, identifiers are
    /// withheld, or no consent contract is given (`--consent-contract`: only its documents need it).
    ///
    /// Base64 PNG or JPEG as serialised: legacy `ORKConsentSignature.signatureImage` (ResearchKit 3's
    /// `ORKSignatureResult` serialises none).
    public var signatureImage: String?
    /// The task's sharing choice (the narrowest when it holds several); nil when it has no sharing answer.
    public var sharing: Sharing?
    /// Why a decision or the sharing scope could not be read, one sentence each (also in the survey's warnings).
    public var warnings: [String] = []

    /// A sharing choice and the answer it was read from.
    public struct Sharing: Sendable, Hashable, Codable {
        /// The scope; nil when the answer's value is not one the rules know.
        public var scope: SharingScope?
        /// The answer's step.
        public var stepIdentifier: String
        /// The answer's question (form item).
        public var questionIdentifier: String
        /// The answer's text as the rules compared it; nil when skipped.
        public var value: String?
    }

    /// The sharing scope; nil when the task has no sharing answer or its value is unknown.
    public var scope: SharingScope? { sharing?.scope }

    /// True when the participant declined.
    public var declined: Bool { status == .declined }

    /// True when the result says nothing about consent.
    public var isEmpty: Bool { status == nil && sharing == nil }

    /// No decision.
    public init() {}

    /// The decision of a survey result's answers under `rules` (withheld answers say nothing).
    public init(_ survey: SurveyResult, rules: ConsentRules = .default) {
        let answers = survey.answers
        let hasWebView = answers.contains { $0.answerType == "webViewResult" }
        let hasSharing = answers.contains { Self.sharingRule($0, rules: rules) != nil }
        let task = survey.taskIdentifier ?? ""
        func aboutConsent(_ step: String) -> Bool {
            task.lowercased().contains("consent") || step.lowercased().contains("consent") || hasSharing
                || rules.signatureSteps.contains(step)
        }

        // Legacy review signatures.
        let legacy = answers.filter { $0.answerType == "consentSignature" && $0.withheld == nil }
        if let first = legacy.first {
            flow = .consentReview
            stepIdentifier = first.stepIdentifier
            if legacy.contains(where: { $0.consented == false }) {
                status = .declined
                take(legacy.first { $0.consented == false } ?? first)
            } else if legacy.allSatisfy({ $0.consented == true }) {
                status = .signed
                take(legacy.last ?? first)
            } else {
                status = .unknown
                take(first)
                let without = legacy.filter { $0.consented == nil }.map(\.questionIdentifier)
                warnings.append(
                    "consent signature \(without.joined(separator: ", ")) in step \(first.stepIdentifier) has no "
                        + "consented value: the consent decision cannot be read")
            }
        }

        // ResearchKit 3: a signature in a web-view review step, or of its own in a consent task.
        if status == nil {
            let signatures = answers.filter { $0.answerType == "signature" && $0.withheld == nil }
            let webViewSteps = Set(answers.filter { $0.answerType == "webViewResult" }.map(\.stepIdentifier))
            if let inReview = signatures.first(where: { webViewSteps.contains($0.stepIdentifier) }) {
                status = .signed
                flow = .webView
                stepIdentifier = inReview.stepIdentifier
                signedAt = inReview.endDate ?? answers.first { $0.stepIdentifier == inReview.stepIdentifier }?.endDate
            } else if let own = signatures.first(where: { hasWebView || aboutConsent($0.stepIdentifier) }) {
                status = .signed
                flow = .signature
                stepIdentifier = own.stepIdentifier
                signedAt = own.endDate
            } else if let review = answers.first(where: {
                $0.answerType == "webViewResult" && aboutConsent($0.stepIdentifier)
            }) {
                status = .unknown
                flow = .webView
                stepIdentifier = review.stepIdentifier
                warnings.append(
                    "web-view consent review \(review.stepIdentifier) holds no signature: the consent decision cannot "
                        + "be read (ResearchKit records a signature only when the step asks for one and the participant "
                        + "signs; map another answer with --consent-config)")
            }
        }

        // Configured decision answers: a declined answer wins over a signature, a signed one fills an unknown.
        for answer in answers where answer.withheld == nil {
            guard let rule = rules.decision.first(where: { $0.matches(answer) }) else { continue }
            guard let text = ConsentRules.text(of: answer), let said = rule.values[text] else {
                warnings.append(
                    "consent answer \(answer.stepIdentifier)/\(answer.questionIdentifier) is "
                        + "\(ConsentRules.text(of: answer).map { "\"\($0)\"" } ?? "unanswered"), which the --consent-config "
                        + "decision rule does not map (it maps \(rule.values.keys.sorted().joined(separator: ", ")))")
                continue
            }
            if said == .declined || status == nil || status == .unknown {
                status = said == .declined ? .declined : .signed
                flow = .answer
                stepIdentifier = answer.stepIdentifier
                signedAt = answer.endDate
            }
        }

        // The sharing choice: the narrowest of the task's sharing answers.
        for answer in answers where answer.withheld == nil {
            guard let known = Self.sharingRule(answer, rules: rules) else { continue }
            let text = ConsentRules.text(of: answer)
            let given = Sharing(
                scope: known, stepIdentifier: answer.stepIdentifier, questionIdentifier: answer.questionIdentifier,
                value: text)
            if known == nil {
                warnings.append(
                    answer.skipped || answer.dontKnow
                        ? "sharing question \(answer.stepIdentifier)/\(answer.questionIdentifier) was not answered: "
                            + "no sharing scope"
                        : "sharing answer \(answer.stepIdentifier)/\(answer.questionIdentifier) is \"\(text ?? "")\", "
                            + "not a choice taskproc knows (1 or true: share broadly; 0, false or 2: the study only): "
                            + "no sharing scope; map it with --consent-config")
            }
            if let current = sharing {
                if let k = known, current.scope.map({ k < $0 }) ?? false { sharing = given }
            } else {
                sharing = given
            }
        }
    }

    /// The sharing rule's reading of an answer.
    ///
    /// Nil when no rule is about it; `.some(nil)` when one is but does not know its value.
    /// A configured rule's value wins; a value it does not map falls back to the default rule.
    static func sharingRule(_ answer: SurveyAnswer, rules: ConsentRules) -> SharingScope?? {
        let configured = rules.sharing.filter { $0.matches(answer) }
        let text = ConsentRules.text(of: answer)
        if let text, let scope = configured.lazy.compactMap({ $0.values[text] }).first { return .some(scope) }
        let fallback = rules.defaults ? ConsentRules.defaultSharing(answer) : nil
        if let fallback { return fallback }
        return configured.isEmpty ? nil : .some(nil)
    }

    private mutating func take(_ answer: SurveyAnswer) {
        signedAt = answer.endDate
        signatureDate = answer.signatureDate
        signerName = answer.signatureName
        signatureImage = answer.signatureImage
    }

    /// The longest signature image kept (base64 characters, 4 MiB: a signature PNG is tens of kB).
    public static let maximumImageCharacters = 4 << 20

    /// `base64` when it is a PNG or JPEG image of at most ``maximumImageCharacters``; nil otherwise.
    public static func keptImage(_ base64: String) -> String? {
        base64.utf8.count <= maximumImageCharacters && imageType(base64) != nil ? base64 : nil
    }

    /// The media type of a base64 image by its first bytes (PNG or JPEG); nil when it is neither.
    public static func imageType(_ base64: String) -> String? {
        guard let head = Data(base64Encoded: String(base64.prefix(12))) else { return nil }
        let b = Array(head)
        if b.count >= 8, b[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return "image/png" }
        if b.count >= 3, b[0..<3] == [0xFF, 0xD8, 0xFF] { return "image/jpeg" }
        return nil
    }
}

extension ConsentDecision: Codable {
    enum CodingKeys: String, CodingKey {
        case status, flow, stepIdentifier, signedAt, signatureDate, signerName, signatureImage, sharingScope
        case sharingStepIdentifier, sharingQuestionIdentifier, sharingValue, warnings
    }

    /// Every key, `null` when undefined.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeNullable(status, forKey: .status)
        try c.encodeNullable(flow, forKey: .flow)
        try c.encodeNullable(stepIdentifier, forKey: .stepIdentifier)
        try c.encodeNullable(signedAt, forKey: .signedAt)
        try c.encodeNullable(signatureDate, forKey: .signatureDate)
        try c.encodeNullable(signerName, forKey: .signerName)
        try c.encodeIfPresent(signatureImage, forKey: .signatureImage)
        try c.encodeNullable(sharing?.scope, forKey: .sharingScope)
        try c.encodeNullable(sharing?.stepIdentifier, forKey: .sharingStepIdentifier)
        try c.encodeNullable(sharing?.questionIdentifier, forKey: .sharingQuestionIdentifier)
        try c.encodeNullable(sharing?.value, forKey: .sharingValue)
        try c.encode(warnings, forKey: .warnings)
    }

    /// Reads what ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        status = try c.decodeIfPresent(Status.self, forKey: .status)
        flow = try c.decodeIfPresent(Flow.self, forKey: .flow)
        stepIdentifier = try c.decodeIfPresent(String.self, forKey: .stepIdentifier)
        signedAt = try c.decodeIfPresent(ResultDate.self, forKey: .signedAt)
        signatureDate = try c.decodeIfPresent(String.self, forKey: .signatureDate)
        signerName = try c.decodeIfPresent(String.self, forKey: .signerName)
        signatureImage = try c.decodeIfPresent(String.self, forKey: .signatureImage)
        if let step = try c.decodeIfPresent(String.self, forKey: .sharingStepIdentifier) {
            sharing = Sharing(
                scope: try c.decodeIfPresent(SharingScope.self, forKey: .sharingScope), stepIdentifier: step,
                questionIdentifier: try c.decodeIfPresent(String.self, forKey: .sharingQuestionIdentifier) ?? step,
                value: try c.decodeIfPresent(String.self, forKey: .sharingValue))
        }
        warnings = try c.decodeIfPresent([String].self, forKey: .warnings) ?? []
    }
}
