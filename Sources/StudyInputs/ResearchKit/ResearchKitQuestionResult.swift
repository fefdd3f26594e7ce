import Foundation

extension ResearchKit {
    /// One answer to a survey question (`ORKQuestionResult` and its subclasses), as ResearchKit serialises it.
    ///
    /// The classes and their answer keys (ResearchKit's `ORKESerialization.m`):
    ///
    /// | class | answer key | ``Answer`` |
    /// |---|---|---|
    /// | `ORKScaleQuestionResult` (scale and continuous scale) | `scaleAnswer` | ``Answer/scale(_:)`` |
    /// | `ORKChoiceQuestionResult` (text, image and value-picker choices) | `choiceAnswers` | ``Answer/choices(_:)`` |
    /// | `ORKBooleanQuestionResult` | `booleanAnswer` | ``Answer/boolean(_:)`` |
    /// | `ORKTextQuestionResult` | `textAnswer` | ``Answer/text(_:)`` (or ``Answer/withheld``) |
    /// | `ORKNumericQuestionResult` | `numericAnswer`, `unit`, `displayUnit` | ``Answer/numeric(_:unit:displayUnit:)`` |
    /// | `ORKTimeOfDayQuestionResult` | `dateComponentsAnswer` (`HH:mm`) | ``Answer/timeOfDay(_:)`` |
    /// | `ORKTimeIntervalQuestionResult` | `intervalAnswer` (s) | ``Answer/timeInterval(_:)`` |
    /// | `ORKDateQuestionResult` | `dateAnswer`, `timeZone` (s east of UTC), `calendar` | ``Answer/date(_:timeZone:calendar:)`` |
    /// | `ORKLocationQuestionResult` | `locationAnswer` | ``Answer/location(_:)`` |
    /// | `ORKMultipleComponentQuestionResult` | `componentsAnswer`, `separator` | ``Answer/components(_:separator:)`` |
    /// | `ORKSESQuestionResult` (socio-economic ladder) | `rungPicked` | ``Answer/ladderRung(_:)`` |
    /// | `ORKWebViewStepResult` (a web-view consent step) | `result` (what the page posted) | ``Answer/text(_:)`` |
    /// | `ORKSignatureResult` (its signature; no key of its own) | — | ``Answer/boolean(_:)`` true |
    /// | `ORKFrontFacingCameraStepResult` (a recorded video) | `fileName`, `contentType` (`retryCount` is not kept) | ``Answer/file(_:contentType:)`` |
    ///
    /// Every class also carries `questionType` (``questionType``) and, since ResearchKit 2.1, `noAnswerType`: an
    /// `ORKDontKnowAnswer` when the participant chose "I don't know" (``noAnswer``). A result without an answer and
    /// without `noAnswerType` is a skipped question (``isSkipped``): the question was shown and left empty, which is
    /// not the same as a question that has no result at all.
    public struct QuestionResult: Sendable, Hashable, Codable {
        /// Class, question identifier, when it was shown and answered.
        public var header: ResultHeader
        /// ResearchKit's `ORKQuestionType` (0 none, 1 scale, 2 single choice, 3 multiple choice, 4 decimal,
        /// 5 integer, 6 Boolean, 7 text, 8 time of day, 9 date and time, 10 date, 11 time interval, 12 height,
        /// 13 weight, 14 location, later versions more); nil when absent.
        public var questionType: Int?
        /// The answer; nil when the question was skipped or answered "I don't know".
        public var answer: Answer?
        /// The class of `noAnswerType` (`ORKDontKnowAnswer`) when the participant gave that instead of an answer.
        public var noAnswer: String?

        /// Creates a question result.
        public init(header: ResultHeader, questionType: Int? = nil, answer: Answer? = nil, noAnswer: String? = nil) {
            self.header = header
            self.questionType = questionType
            self.answer = answer
            self.noAnswer = noAnswer
        }

        /// The question identifier (a form item's identifier, or the step's for a question step).
        public var identifier: String { header.identifier }

        /// True when the participant answered "I don't know".
        public var isDontKnow: Bool { answer == nil && noAnswer != nil }

        /// True when the question was shown but has neither an answer nor "I don't know".
        public var isSkipped: Bool { answer == nil && noAnswer == nil }
    }

    /// A survey answer, typed by its question result class (see ``QuestionResult``).
    public enum Answer: Sendable, Hashable, Codable {
        /// A scale position (the scale's value, not its index).
        case scale(Double)
        /// The values of the chosen options, as written (strings or numbers), in order; one for a single choice.
        case choices([JSONValue])
        /// Yes (true) or no (false).
        case boolean(Bool)
        /// Free text.
        case text(String)
        /// A number with the answer format's unit and the unit shown to the participant, when given.
        case numeric(Double, unit: String?, displayUnit: String?)
        /// A time of day as written (`HH:mm`, 24-hour).
        case timeOfDay(String)
        /// A duration, s.
        case timeInterval(Double)
        /// A date (and time), with the result's time zone (s east of UTC) and calendar identifier (`gregorian`).
        case date(ResultDate, timeZone: Int?, calendar: String?)
        /// A place.
        case location(Location)
        /// The components of a multiple-component (multi-picker) answer, and the separator shown between them.
        case components([JSONValue], separator: String?)
        /// The rung picked on the socio-economic ladder (`ORKSESQuestionResult`), counted as ResearchKit counts it.
        case ladderRung(Double)
        /// A file the step recorded (the front-facing camera step's video): its name beside the result and its
        /// content type.
        case file(String, contentType: String?)
        /// A secret (password, passcode): never read, never written (see ``QuestionResult`` and
        /// ``ResearchKit/isSecret(_:)``).
        case withheld
    }

    /// A location answer (`ORKLocation`).
    public struct Location: Sendable, Hashable, Codable {
        /// Latitude, degrees north; nil when absent.
        public var latitude: Double?
        /// Longitude, degrees east; nil when absent.
        public var longitude: Double?
        /// What the participant typed, when given.
        public var userInput: String?
        /// The postal address dictionary (street, city, postalCode, …) as written.
        public var postalAddress: JSONObject?
        /// The circular region dictionary (centre and radius) as written.
        public var region: JSONObject?

        /// Creates a location.
        public init(
            latitude: Double? = nil, longitude: Double? = nil, userInput: String? = nil,
            postalAddress: JSONObject? = nil, region: JSONObject? = nil
        ) {
            self.latitude = latitude
            self.longitude = longitude
            self.userInput = userInput
            self.postalAddress = postalAddress
            self.region = region
        }
    }

    /// A consent review's signature (`ORKConsentSignatureResult`).
    public struct ConsentSignatureResult: Sendable, Hashable, Codable {
        /// Class, signature identifier, when the review was shown and signed.
        public var header: ResultHeader
        /// Whether the participant agreed; nil when absent.
        public var consented: Bool?
        /// The signature; nil when absent.
        public var signature: ConsentSignature?

        /// Creates a consent signature result.
        public init(header: ResultHeader, consented: Bool? = nil, signature: ConsentSignature? = nil) {
            self.header = header
            self.consented = consented
            self.signature = signature
        }
    }

    /// The signature of a consent document (`ORKConsentSignature`). The signature image is kept only for the consent
    /// document (``image``).
    public struct ConsentSignature: Sendable, Hashable, Codable {
        /// The signature's identifier (`participant`, …).
        public var identifier: String?
        /// The signer's given name.
        public var givenName: String?
        /// The signer's family name.
        public var familyName: String?
        /// The signature date as the app formatted it (free text such as `3/9/17`).
        public var signatureDate: String?
        /// Whether the signature carried an image (`signatureImage` present).
        public var hasImage: Bool
        /// The signature image as serialised (base64 PNG or JPEG), when it is one and at most
        /// ``ConsentDecision/maximumImageCharacters`` long; nil otherwise.
        public var image: String?

        /// Creates a signature.
        public init(
            identifier: String? = nil, givenName: String? = nil, familyName: String? = nil,
            signatureDate: String? = nil, hasImage: Bool = false, image: String? = nil
        ) {
            self.image = image
            self.identifier = identifier
            self.givenName = givenName
            self.familyName = familyName
            self.signatureDate = signatureDate
            self.hasImage = hasImage
        }
    }

    /// Identifiers of ResearchKit's own secret form items: the registration and login steps' password fields.
    public static let secretIdentifiers: Set<String> = [
        "ORKRegistrationFormItemPassword", "ORKRegistrationFormItemConfirmPassword", "ORKLoginFormItemPassword",
    ]

    /// Identifiers of ResearchKit's own identifying form items (registration, login and profile steps).
    public static let identifyingIdentifiers: Set<String> = [
        "ORKRegistrationFormItemEmail", "ORKRegistrationFormItemGivenName", "ORKRegistrationFormItemFamilyName",
        "ORKRegistrationFormItemDOB", "ORKRegistrationFormItemPhoneNumber", "ORKLoginFormItemEmail",
    ]

    /// True when a question's answer identifies the participant (withheld with `--drop-identifiers`): one of
    /// ``identifyingIdentifiers``, or an identifier containing `email`, `givenname`, `familyname`, `firstname`,
    /// `lastname`, `fullname`, `dateofbirth`, `birthdate` or `phone` (any case, ignoring `_`, `-` and `.`).
    public static func isIdentifying(_ identifier: String) -> Bool {
        if identifyingIdentifiers.contains(identifier) { return true }
        let folded = identifier.lowercased().filter { $0 != "_" && $0 != "-" && $0 != "." }
        return ["email", "givenname", "familyname", "firstname", "lastname", "fullname", "dateofbirth", "birthdate",
            "phone"].contains { folded.contains($0) }
    }

    /// True when a question's answer is a secret that taskproc never reads or writes: one of
    /// ``secretIdentifiers``, or any identifier containing `password`, `passcode` or `passwd` once folded
    /// (``secretFolded(_:)``: any case, width, spacing or punctuation, zero-width characters, and Cyrillic or Greek
    /// letters that look like Latin ones, so `Pass\u{441}ode`, `pass word` and `pass\u{200B}word` are secrets).
    public static func isSecret(_ identifier: String) -> Bool {
        if secretIdentifiers.contains(identifier) { return true }
        let folded = secretFolded(identifier)
        return folded.contains("password") || folded.contains("passcode") || folded.contains("passwd")
    }

    /// `identifier` as the secret rule compares it: compatibility-normalised (NFKC: full-width and styled letters
    /// become plain ones), lowercased, with look-alike Cyrillic and Greek letters read as the Latin ones they
    /// resemble, and everything but the letters a–z left out (spaces, punctuation, digits, zero-width and other
    /// invisible characters).
    public static func secretFolded(_ identifier: String) -> String {
        let normalized = identifier.precomposedStringWithCompatibilityMapping.lowercased()
        var out = ""
        out.reserveCapacity(normalized.utf8.count)
        for scalar in normalized.unicodeScalars {
            let latin = confusables[scalar] ?? scalar
            if ("a"..."z").contains(latin) { out.unicodeScalars.append(latin) }
        }
        return out
    }

    /// Cyrillic and Greek lowercase letters drawn like Latin ones (Unicode's confusables for the letters of
    /// `password` and `passcode`, and a few more), and the Latin letter each stands for.
    static let confusables: [Unicode.Scalar: Unicode.Scalar] = [
        "\u{430}": "a", "\u{0435}": "e", "\u{043E}": "o", "\u{0440}": "p", "\u{0441}": "c", "\u{0455}": "s",
        "\u{0456}": "i", "\u{0458}": "j", "\u{0501}": "d", "\u{051D}": "w", "\u{0445}": "x", "\u{0443}": "y",
        "\u{04BB}": "h", "\u{03BF}": "o", "\u{03B1}": "a", "\u{03C1}": "p", "\u{03BD}": "v", "\u{03C9}": "w",
        "\u{03B5}": "e", "\u{03BA}": "k", "\u{0261}": "g", "\u{0251}": "a", "\u{1D00}": "a", "\u{0131}": "i",
    ]
}
