import Foundation

/// Decoding of survey answers (`ORK…QuestionResult`) and consent signatures (`ORKConsentSignatureResult`).
extension ResearchKitDecoder {
    /// The question result classes and the keys each adds to `ORKResult`'s and `ORKQuestionResult`'s
    /// (`questionType`, `noAnswerType`).
    static let questionKeys: [String: Set<String>] = [
        "ORKScaleQuestionResult": ["scaleAnswer"],
        "ORKChoiceQuestionResult": ["choiceAnswers"],
        "ORKBooleanQuestionResult": ["booleanAnswer"],
        "ORKTextQuestionResult": ["textAnswer"],
        "ORKNumericQuestionResult": ["numericAnswer", "unit", "displayUnit"],
        "ORKTimeOfDayQuestionResult": ["dateComponentsAnswer"],
        "ORKTimeIntervalQuestionResult": ["intervalAnswer"],
        "ORKDateQuestionResult": ["dateAnswer", "timeZone", "calendar"],
        "ORKLocationQuestionResult": ["locationAnswer"],
        "ORKMultipleComponentQuestionResult": ["componentsAnswer", "separator"],
        "ORKSESQuestionResult": ["rungPicked"],
        // Not question results, but answers of a consent flow: the web-view step's posted result and its signature.
        "ORKWebViewStepResult": ["result"],
        "ORKSignatureResult": [],
        "ORKFrontFacingCameraStepResult": ["fileName", "contentType", "retryCount"],
    ]

    /// Every key a question result class may carry.
    static func documentedQuestionKeys(_ own: Set<String>) -> Set<String> {
        own.union(["_class", "identifier", "startDate", "endDate", "userInfo", "questionType", "noAnswerType"])
    }

    /// True for the question result classes taskproc reads.
    package static func isQuestionResult(_ className: String) -> Bool { questionKeys[className] != nil }

    typealias Answer = ResearchKit.Answer

    /// `booleanAnswer`: true, false, 0 or 1; another finite number reads as NSNumber's `boolValue` does (non-zero is
    /// true) with a warning: ResearchKit's own serializer sample holds 123.
    static func booleanAnswer(_ f: ResearchKitFields) throws(InputError) -> Bool? {
        if case .number(let x) = f.value("booleanAnswer"), x.isFinite, x != 0, x != 1 {
            f.context.warn(
                .implausibleValue, at: f.path.key("booleanAnswer"),
                "booleanAnswer of \"\(f.lenientHeader().identifier)\" is \(JSONValue.number(x).summary), not 0 or 1; "
                    + "read as true (non-zero), as ResearchKit's NSNumber boolValue reads it")
            return true
        }
        return try f.optionalBool("booleanAnswer")
    }

    static func decodeQuestionResult(_ f: ResearchKitFields) throws(InputError) -> ResearchKit.QuestionResult {
        f.reportUnknownKeys()
        let header = try f.header()
        var questionType: Int?
        if let v = f.value("questionType") {
            if case .number(let x) = v, x >= 0, x <= 1000, let type = Int(exactly: x) {
                questionType = type
            } else {
                f.context.warn(
                    .implausibleValue, at: f.path.key("questionType"),
                    "questionType is \(v.summary), not an ORKQuestionType number; read as unknown")
            }
        }
        var noAnswer: String?
        if let v = f.value("noAnswerType") {
            let object = try f.context.object(v, at: f.path.key("noAnswerType"), expected: "an ORKNoAnswer object")
            noAnswer = object["_class"]?.stringValue ?? "ORKNoAnswer"
        }
        let answerKeys = questionKeys[f.className] ?? []
        // A secret is never read: its value cannot reach the model, an error message or a warning.
        if ResearchKit.isSecret(header.identifier) {
            let answered = answerKeys.contains { f.value($0) != nil }
            return ResearchKit.QuestionResult(
                header: header, questionType: questionType, answer: answered ? .withheld : nil, noAnswer: noAnswer)
        }
        let answer: ResearchKit.Answer?
        switch f.className {
        case "ORKScaleQuestionResult":
            answer = try f.optionalNumber("scaleAnswer", .finite).map { .scale($0) }
        case "ORKChoiceQuestionResult":
            answer = try f.optionalArray("choiceAnswers", of: "choice values").map { .choices($0) }
        case "ORKBooleanQuestionResult":
            answer = try booleanAnswer(f).map { .boolean($0) }
        case "ORKTextQuestionResult":
            answer = try f.optionalString("textAnswer").map { .text($0) }
        case "ORKNumericQuestionResult":
            let unit = try f.optionalString("unit")
            let displayUnit = try f.optionalString("displayUnit")
            answer = try f.optionalNumber("numericAnswer", .finite).map {
                .numeric($0, unit: unit, displayUnit: displayUnit)
            }
        case "ORKTimeOfDayQuestionResult":
            answer = try f.optionalString("dateComponentsAnswer").map { .timeOfDay($0) }
        case "ORKTimeIntervalQuestionResult":
            answer = try f.optionalNumber("intervalAnswer", .nonNegative, unit: "s").map { .timeInterval($0) }
        case "ORKDateQuestionResult":
            let timeZone = try f.optionalInteger(
                "timeZone", in: -18 * 3600...18 * 3600, expected: "seconds east of UTC (−64800…64800)")
            let calendar = try f.optionalString("calendar")
            answer = try f.date("dateAnswer").map { .date($0, timeZone: timeZone, calendar: calendar) }
        case "ORKLocationQuestionResult":
            answer = try f.positional("locationAnswer", expectedClass: "ORKLocation").map {
                l throws(InputError) in .location(try decodeLocation(l))
            }
        case "ORKMultipleComponentQuestionResult":
            let separator = try f.optionalString("separator")
            answer = try f.optionalArray("componentsAnswer", of: "component values").map {
                .components($0, separator: separator)
            }
        case "ORKSESQuestionResult":
            answer = try f.optionalNumber("rungPicked", .finite).map { .ladderRung($0) }
        case "ORKWebViewStepResult":
            answer = try f.optionalString("result").map { .text($0) }
        case "ORKFrontFacingCameraStepResult":
            let contentType = try f.optionalString("contentType").flatMap { $0.isEmpty ? nil : $0 }
            answer = try f.optionalString("fileName").flatMap { $0.isEmpty ? nil : Answer.file($0, contentType: contentType) }
        case "ORKSignatureResult":
            // ResearchKit serialises no key of its own (the image is not written): the result exists when signed.
            answer = .boolean(true)
        default:
            answer = nil
        }
        return ResearchKit.QuestionResult(header: header, questionType: questionType, answer: answer, noAnswer: noAnswer)
    }

    static func decodeLocation(_ f: ResearchKitFields) throws(InputError) -> ResearchKit.Location {
        var location = ResearchKit.Location(
            userInput: try f.optionalString("userInput"),
            postalAddress: try f.optionalObject("postalAddress", of: "an address object"),
            region: try f.optionalObject("region", of: "a region object"))
        if let v = f.value("coordinate") {
            let object = try f.context.object(v, at: f.path.key("coordinate"), expected: "{\"latitude\", \"longitude\"}")
            let c = ResearchKitFields(
                object: object, path: f.path.key("coordinate"), className: "ORKLocation.coordinate",
                context: f.context)
            location.latitude = try c.optionalNumber("latitude", .finite, unit: "degrees")
            location.longitude = try c.optionalNumber("longitude", .finite, unit: "degrees")
            if let lat = location.latitude, abs(lat) > 90 {
                throw c.error("latitude", expected: "a latitude in −90…90 degrees", found: JSONValue.number(lat).summary)
            }
            if let lon = location.longitude, abs(lon) > 180 {
                throw c.error(
                    "longitude", expected: "a longitude in −180…180 degrees", found: JSONValue.number(lon).summary)
            }
        }
        return location
    }

    static func decodeConsentSignatureResult(_ f: ResearchKitFields) throws(InputError)
        -> ResearchKit.ConsentSignatureResult
    {
        f.reportUnknownKeys()
        let header = try f.header()
        let signature = try f.positional("signature", expectedClass: "ORKConsentSignature").map {
            s throws(InputError) in
            ResearchKit.ConsentSignature(
                identifier: try s.optionalString("identifier"), givenName: try s.optionalString("givenName"),
                familyName: try s.optionalString("familyName"), signatureDate: try s.optionalString("signatureDate"),
                hasImage: s.value("signatureImage") != nil,
                image: s.value("signatureImage")?.stringValue.flatMap(ConsentDecision.keptImage))
        }
        return ResearchKit.ConsentSignatureResult(
            header: header, consented: try f.optionalBool("consented"), signature: signature)
    }
}
