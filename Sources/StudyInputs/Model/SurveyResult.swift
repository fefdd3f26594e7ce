import Foundation

/// The answers of one survey run (the question and consent-signature results of a ResearchKit task result), one
/// tidy row per answer: what a study hands to statistics, Medidata Rave or FHIR.
///
/// Every question result the task holds gives one ``SurveyAnswer``, in document order, including the questions
/// that were skipped (``SurveyAnswer/skipped``) or answered "I don't know" (``SurveyAnswer/dontKnow``); a question
/// the participant never saw has no result and no row. Secrets (password and passcode fields, see
/// ``ResearchKit/isSecret(_:)``) give a row whose value is withheld: the secret is never read. Every key is always
/// present in JSON (`null` when undefined).
public struct SurveyResult: Sendable, Hashable {
    /// Always `"survey"`: identifies the kind of result.
    public var kind: String = "survey"
    /// The result file, when known.
    public var source: String?
    /// The task identifier (`ORKTaskResult.identifier`); nil when the file holds a step result only.
    public var taskIdentifier: String?
    /// The task run's UUID; nil when the file has none.
    public var taskRunUUID: String?
    /// The participant the answers belong to, when the input names one (MyDataHelps rows); nil for ResearchKit
    /// results, whose participant is named by the record's path.
    public var participantIdentifier: String?
    /// The platform's key of the survey result (MyDataHelps `SurveyResultKey`, the API's `surveyResultID`); nil for
    /// ResearchKit results.
    public var surveyResultKey: String?
    /// When the task started (device UTC offset kept); nil when absent.
    public var startDate: ResultDate?
    /// When the task ended; nil when absent.
    public var endDate: ResultDate?
    /// The answers, in document order: one per question (and relative), the final one when a step was answered
    /// more than once.
    public var answers: [SurveyAnswer]
    /// Earlier answers of questions answered again (a step result marked `isPreviousResult`, or a repeated step
    /// result), in document order; not counted and not exported.
    public var previousAnswers: [SurveyAnswer] = []
    /// The consent decision and sharing choice the answers hold (``ConsentDecision``); nil when they hold neither.
    public var consent: ConsentDecision?
    /// Whether the answers meet the consent contract's eligibility criteria (``ConsentContract``).
    ///
    /// Nil without a contract (`--consent-contract`), or when the result answers none of its criteria and holds no
    /// consent decision. Written only when not nil.
    public var eligibility: Eligibility?
    /// Findings a reader should know about, one sentence each.
    public var warnings: [String]

    /// Creates a survey result.
    public init(
        source: String? = nil, taskIdentifier: String? = nil, taskRunUUID: String? = nil, startDate: ResultDate? = nil,
        endDate: ResultDate? = nil, answers: [SurveyAnswer] = [], warnings: [String] = []
    ) {
        self.source = source
        self.taskIdentifier = taskIdentifier
        self.taskRunUUID = taskRunUUID
        self.startDate = startDate
        self.endDate = endDate
        self.answers = answers
        self.warnings = warnings
    }

    /// Answers with a value (neither skipped, "I don't know" nor withheld).
    public var answeredCount: Int { answers.filter { !$0.skipped && !$0.dontKnow && $0.withheld == nil }.count }
    /// Questions shown and left without an answer.
    public var skippedCount: Int { answers.filter(\.skipped).count }
    /// Questions answered "I don't know".
    public var dontKnowCount: Int { answers.filter(\.dontKnow).count }
    /// Answers withheld as secrets.
    public var withheldCount: Int { answers.filter { $0.withheld != nil }.count }
}

/// One answer of a ``SurveyResult``: the question, its type, the value as text and in typed columns.
///
/// Exactly one typed column carries the value, by ``answerType``: `valueNumber` (scale, numeric, Boolean as 1/0,
/// time interval in s, ladder rung, a single numeric choice), `valueText` (text, time of day, a single text
/// choice, a location's typed input), `valueDate` (date and date-time) or `choiceValues` (every choice, the
/// components of a multiple-component answer); ``value`` is always the text form.
public struct SurveyAnswer: Sendable, Hashable {
    /// The step the answer belongs to (a form or question step).
    public var stepIdentifier: String
    /// The question (form item) identifier; the step's own for a question step.
    public var questionIdentifier: String
    /// The ResearchKit result class (`ORKChoiceQuestionResult`, `ORKConsentSignatureResult`, …).
    public var className: String
    /// ResearchKit's `ORKQuestionType` number, when written.
    public var questionType: Int?
    /// The kind of answer: `scale`, `singleChoice`, `multipleChoice`, `choice` (single or multiple unknown),
    /// `boolean`, `text`, `decimal`, `integer`, `height`, `weight`, `numeric`, `timeOfDay`, `date`, `dateAndTime`,
    /// `timeInterval`, `location`, `multipleComponent`, `socioeconomicLadder`, `webViewResult`, `signature`, `video`
    /// or `consentSignature`.
    public var answerType: String
    /// The answer as text: numbers in shortest round-trip form, Booleans `true`/`false`, choices joined by `|`,
    /// dates as written (`yyyy-MM-dd'T'HH:mm:ssZ`), a location as `latitude,longitude`; nil when skipped, "I don't
    /// know" or withheld.
    public var value: String?
    /// The numeric value (unit in ``unit``); nil when the answer is not a number.
    public var valueNumber: Double?
    /// The text value; nil when the answer is not text.
    public var valueText: String?
    /// The date value, with the device's UTC offset; nil when the answer is not a date.
    public var valueDate: ResultDate?
    /// The unit of ``valueNumber``: the numeric answer format's unit (or the unit shown when no other is given),
    /// `s` for a time interval; nil otherwise.
    public var unit: String?
    /// The chosen values (choices) or components, as written (strings or numbers); nil otherwise.
    public var choiceValues: [JSONValue]?
    /// A recorded file's content type (`video/quicktime`, …); nil otherwise.
    public var contentType: String?
    /// A date answer's time zone, s east of UTC (`ORKDateQuestionResult.timeZone`); nil otherwise.
    public var timeZone: Int?
    /// A date answer's calendar identifier (`gregorian`, …); nil otherwise.
    public var calendar: String?
    /// A location answer's latitude, degrees north; nil otherwise.
    public var latitude: Double?
    /// A location answer's longitude, degrees east; nil otherwise.
    public var longitude: Double?
    /// True when the participant answered "I don't know" (`noAnswerType`).
    public var dontKnow: Bool
    /// True when the question was shown and left empty (no answer, no "I don't know").
    public var skipped: Bool
    /// `"secret"` when the answer is a password or passcode and was not read; `"identifier"` when it identifies the
    /// participant and `--drop-identifiers` withheld it; nil otherwise.
    public var withheld: String?
    /// For a consent signature: whether the participant consented; nil otherwise.
    public var consented: Bool?
    /// For a consent signature: the signer's given name; nil otherwise or when absent.
    public var signatureGivenName: String?
    /// For a consent signature: the signer's family name; nil otherwise or when absent.
    public var signatureFamilyName: String?
    /// For a consent signature: the signature date as the app wrote it (free text); nil otherwise.
    public var signatureDate: String?
    /// For a consent signature: its image (base64 PNG or JPEG, ``ResearchKit/ConsentSignature/image``); not written
    /// with the answer (the consent decision carries the signing one, ``ConsentDecision/signatureImage``).
    public var signatureImage: String?
    /// When the question was shown; nil when absent.
    public var startDate: ResultDate?
    /// When it was answered; nil when absent.
    public var endDate: ResultDate?
    /// The relative the answer is about (`ORKRelatedPerson.identifier` of a family history step); nil for the
    /// participant's own answers.
    public var relativeIdentifier: String?
    /// The relative's group (`ORKRelatedPerson.groupIdentifier`, such as `parents`): the relation; nil for the
    /// participant's own answers.
    public var relativeGroup: String?

    /// The signer's given and family name, space-separated; nil when neither is known.
    public var signatureName: String? {
        let parts = [signatureGivenName, signatureFamilyName].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// Creates an answer row; every typed column empty.
    public init(stepIdentifier: String, questionIdentifier: String, className: String, answerType: String) {
        self.stepIdentifier = stepIdentifier
        self.questionIdentifier = questionIdentifier
        self.className = className
        self.answerType = answerType
        dontKnow = false
        skipped = false
    }
}

extension SurveyResult: Codable {
    enum CodingKeys: String, CodingKey {
        case kind, source, taskIdentifier, taskRunUUID, participantIdentifier, surveyResultKey, startDate, endDate
        case answerCount, answeredCount, skippedCount
        case dontKnowCount, withheldCount, answers, previousAnswers, consent, eligibility, warnings
    }

    /// Every key, `null` when undefined; the counts are derived from ``answers``.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encodeNullable(source, forKey: .source)
        try c.encodeNullable(taskIdentifier, forKey: .taskIdentifier)
        try c.encodeNullable(taskRunUUID, forKey: .taskRunUUID)
        try c.encodeNullable(participantIdentifier, forKey: .participantIdentifier)
        try c.encodeNullable(surveyResultKey, forKey: .surveyResultKey)
        try c.encodeNullable(startDate, forKey: .startDate)
        try c.encodeNullable(endDate, forKey: .endDate)
        try c.encode(answers.count, forKey: .answerCount)
        try c.encode(answeredCount, forKey: .answeredCount)
        try c.encode(skippedCount, forKey: .skippedCount)
        try c.encode(dontKnowCount, forKey: .dontKnowCount)
        try c.encode(withheldCount, forKey: .withheldCount)
        try c.encode(answers, forKey: .answers)
        try c.encode(previousAnswers, forKey: .previousAnswers)
        try c.encodeNullable(consent, forKey: .consent)
        try c.encodeIfPresent(eligibility, forKey: .eligibility)
        try c.encode(warnings, forKey: .warnings)
    }

    /// Reads what ``encode(to:)`` writes (the counts are recomputed).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            source: try c.decodeIfPresent(String.self, forKey: .source),
            taskIdentifier: try c.decodeIfPresent(String.self, forKey: .taskIdentifier),
            taskRunUUID: try c.decodeIfPresent(String.self, forKey: .taskRunUUID),
            startDate: try c.decodeIfPresent(ResultDate.self, forKey: .startDate),
            endDate: try c.decodeIfPresent(ResultDate.self, forKey: .endDate),
            answers: try c.decodeIfPresent([SurveyAnswer].self, forKey: .answers) ?? [],
            warnings: try c.decodeIfPresent([String].self, forKey: .warnings) ?? [])
        participantIdentifier = try c.decodeIfPresent(String.self, forKey: .participantIdentifier)
        surveyResultKey = try c.decodeIfPresent(String.self, forKey: .surveyResultKey)
        consent = try c.decodeIfPresent(ConsentDecision.self, forKey: .consent)
        eligibility = try c.decodeIfPresent(Eligibility.self, forKey: .eligibility)
        previousAnswers = try c.decodeIfPresent([SurveyAnswer].self, forKey: .previousAnswers) ?? []
    }
}

extension SurveyAnswer: Codable {
    enum CodingKeys: String, CodingKey {
        case stepIdentifier, questionIdentifier, className, questionType, answerType, value, valueNumber, valueText
        case valueDate, unit, choiceValues, contentType, timeZone, calendar, latitude, longitude, dontKnow, skipped
        case withheld
        case consented, signatureGivenName, signatureFamilyName, signatureDate, startDate, endDate
        case relativeIdentifier, relativeGroup
    }

    /// Every key, `null` when undefined (decoding is synthesised: absent and `null` read as nil).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(stepIdentifier, forKey: .stepIdentifier)
        try c.encode(questionIdentifier, forKey: .questionIdentifier)
        try c.encode(className, forKey: .className)
        try c.encodeNullable(questionType, forKey: .questionType)
        try c.encode(answerType, forKey: .answerType)
        try c.encodeNullable(value, forKey: .value)
        try c.encodeNullable(valueNumber, forKey: .valueNumber)
        try c.encodeNullable(valueText, forKey: .valueText)
        try c.encodeNullable(valueDate, forKey: .valueDate)
        try c.encodeNullable(unit, forKey: .unit)
        try c.encodeNullable(choiceValues, forKey: .choiceValues)
        try c.encodeNullable(contentType, forKey: .contentType)
        try c.encodeNullable(timeZone, forKey: .timeZone)
        try c.encodeNullable(calendar, forKey: .calendar)
        try c.encodeNullable(latitude, forKey: .latitude)
        try c.encodeNullable(longitude, forKey: .longitude)
        try c.encode(dontKnow, forKey: .dontKnow)
        try c.encode(skipped, forKey: .skipped)
        try c.encodeNullable(withheld, forKey: .withheld)
        try c.encodeNullable(consented, forKey: .consented)
        try c.encodeNullable(signatureGivenName, forKey: .signatureGivenName)
        try c.encodeNullable(signatureFamilyName, forKey: .signatureFamilyName)
        try c.encodeNullable(signatureDate, forKey: .signatureDate)
        try c.encodeNullable(startDate, forKey: .startDate)
        try c.encodeNullable(endDate, forKey: .endDate)
        try c.encodeNullable(relativeIdentifier, forKey: .relativeIdentifier)
        try c.encodeNullable(relativeGroup, forKey: .relativeGroup)
    }
}

extension SurveyAnswer {
    /// A number as text (``ResultEncoding/exact(_:)``).
    package static func text(_ x: Double) -> String { ResultEncoding.exact(x) }

    /// A choice or component value as text: strings as written, numbers by ``text(_:)``, anything else as JSON.
    package static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): s
        case .number(let x): text(x)
        case .bool(let b): b ? "true" : "false"
        case .null: ""
        default: value.summary
        }
    }
}
