import Foundation
import SensorSignal
import StudyInputs

extension TaskKind {
    /// Survey answers and consent signatures (`ORK…QuestionResult`, `ORKConsentSignatureResult`).
    public static let survey = TaskKind("survey")
}

/// The analysis of surveys and consent in the registry: every question and consent-signature result of a
/// ResearchKit task result, as tidy answer rows (``SurveyResult``).
///
/// A task result holding both answers and active-task steps (a walking task's mood question) gives its active-task
/// results and, after them, its survey result.
enum SurveyAnalysis: TaskAnalysis {
    /// Answers: exported as questionnaires and consents, not as measures.
    public static let exportShape = ExportShape.answers

    /// Survey and consent answers.
    public static let kinds: [TaskKind] = [.survey]

    /// Survey, for question and consent-signature results of a ResearchKit result and for survey answers read as such
    /// (``InputContent/surveyAnswers``).
    public static func claims(_ input: LoadedInput) -> [TaskKind] {
        let steps = input.researchKit?.result?.stepItems ?? []
        let answered = steps.contains {
            $0.result.question != nil || $0.result.consentSignature != nil || $0.result.familyHistory != nil
        }
        return answered || input.content.contains(.surveyAnswers) ? [.survey] : []
    }

    /// The survey results read as such (``LoadedInput/surveys``), then the answers of the ResearchKit result.
    public static func answers(_ input: LoadedInput) -> [SurveyResult] {
        guard let document = input.researchKit, let root = document.result else { return input.surveys }
        return input.surveys + [survey(root, source: document.file)]
    }

    /// Last: answers and consent accompany the task they are part of.
    public static let position = KindRecognition.Position.last
    /// Why a survey input gave no result.
    public static let nothingToAnalyse = "no question or consent-signature result to read"

    /// One result per ResearchKit document holding question or consent-signature results, and the survey results
    /// read as such (MyDataHelps tables and API answers), with identifying answers withheld when the options say so.
    public static func analyze(_ input: LoadedInput, options: AnalysisOptions) -> [SurveyResult] {
        var results: [SurveyResult] = []
        if let document = input.researchKit, let root = document.result {
            var result = survey(
                root, source: document.file, dropsIdentifiers: options.dropsIdentifiers == true,
                consentRules: options.consent ?? .default)
            measureFiles(&result, beside: document.file, ffmpegDirectory: options.audio.soundLevel.ffmpegDirectory)
            if !result.answers.isEmpty { results.append(result) }
        }
        for var result in input.surveys where !result.answers.isEmpty {
            finish(&result, dropsIdentifiers: options.dropsIdentifiers == true, consentRules: options.consent ?? .default)
            results.append(result)
        }
        if let contract = options.consentContract {
            for i in results.indices where contract.asks(results[i].answers) || results[i].consent?.status != nil {
                results[i].eligibility = contract.eligibility(of: results[i].answers)
            }
        } else {
            // The signature image is kept only for the consent documents a contract asks for.
            for i in results.indices { results[i].consent?.signatureImage = nil }
        }
        return results
    }

    /// A recorded file's duration (s, `valueNumber`) from FFmpeg, when the file lies beside the result file (as in a
    /// task folder); a warning when it is not there or FFmpeg cannot read it.
    static func measureFiles(_ result: inout SurveyResult, beside resultFile: String, ffmpegDirectory: String?) {
        let folder = (resultFile as NSString).deletingLastPathComponent
        for i in result.answers.indices where result.answers[i].answerType == "video" {
            guard let name = result.answers[i].valueText, !name.contains("/"), name != "..", name != "." else { continue }
            let path = (folder as NSString).appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: path) else {
                result.warnings.append("\(name): the recorded file is not beside the result, so it has no duration")
                continue
            }
            guard let seconds = FFmpegMediaProbe.duration(path: path, executableDirectory: ffmpegDirectory) else {
                result.warnings.append("\(name): FFmpeg could not read a duration (is ffprobe installed?)")
                continue
            }
            result.answers[i].valueNumber = seconds
            result.answers[i].unit = "s"
        }
    }

    /// The answers of a task or step result tree, in document order.
    /// - Parameters:
    ///   - dropsIdentifiers: Withhold identifying answers (see ``AnalysisOptions/dropsIdentifiers``).
    ///   - consentRules: Which answers carry the consent decision (``AnalysisOptions/consent``).
    public static func survey(
        _ root: ResearchKitResult, source: String?, dropsIdentifiers: Bool = false,
        consentRules: ConsentRules = .default
    ) -> SurveyResult {
        var result = SurveyResult(source: source)
        if let task = root.task {
            result.taskIdentifier = task.identifier.isEmpty ? nil : task.identifier
            result.taskRunUUID = task.taskRunUUID?.uuidString
            result.startDate = task.header.startDate
            result.endDate = task.header.endDate
        }
        var answers: [(answer: SurveyAnswer, previous: Bool)] = []
        for item in root.stepItems {
            if let question = item.result.question {
                answers.append((answer(question, step: item.stepIdentifier), item.isPreviousResult))
            } else if let consent = item.result.consentSignature {
                answers.append((answer(consent, step: item.stepIdentifier), item.isPreviousResult))
            } else if let history = item.result.familyHistory {
                for row in relativeAnswers(history, step: item.stepIdentifier, dropsIdentifiers: dropsIdentifiers) {
                    answers.append((row, item.isPreviousResult))
                }
            }
        }
        resolveRepeats(answers, into: &result)
        finish(&result, dropsIdentifiers: dropsIdentifiers, consentRules: consentRules)
        if result.taskRunUUID == nil, root.task != nil {
            result.warnings.append("the task result has no taskRunUUID")
        }
        return result
    }

    /// The answers about each relative of a family history result, tagged with the relative and their group.
    ///
    /// With
    /// `dropsIdentifiers`, the answer that titles a relative (`identifierForCellTitle`: their name or nickname) is
    /// withheld as an identifier.
    static func relativeAnswers(_ history: ResearchKit.FamilyHistoryResult, step: String, dropsIdentifiers: Bool)
        -> [SurveyAnswer]
    {
        var rows: [SurveyAnswer] = []
        for person in history.relatedPersons {
            guard let task = person.taskResult else { continue }
            for item in ResearchKitResult.task(task).stepItems {
                guard let question = item.result.question else { continue }
                var row = answer(question, step: step)
                row.relativeIdentifier = person.identifier
                row.relativeGroup = person.groupIdentifier.isEmpty ? nil : person.groupIdentifier
                if dropsIdentifiers, row.withheld == nil, question.identifier == person.identifierForCellTitle {
                    row = withheld(row, reason: "identifier")
                }
                rows.append(row)
            }
        }
        return rows
    }

    /// Keeps one answer per question (step, question, relative).
    ///
    /// The answer is the last one not marked `isPreviousResult`, or the last when every one is marked. The others go to ``SurveyResult/previousAnswers``; answers repeated
    /// without the mark (a task that repeats a step) are resolved the same way, with a warning.
    static func resolveRepeats(_ answers: [(answer: SurveyAnswer, previous: Bool)], into result: inout SurveyResult) {
        struct Key: Hashable {
            var step: String
            var question: String
            var relative: String?
        }
        var final: [Key: Int] = [:]
        var count: [Key: Int] = [:]
        for (i, a) in answers.enumerated() {
            let key = Key(
                step: a.answer.stepIdentifier, question: a.answer.questionIdentifier,
                relative: a.answer.relativeIdentifier)
            count[key, default: 0] += 1
            if let j = final[key], !answers[j].previous, a.previous { continue }
            final[key] = i
        }
        var unmarked: [String] = []
        for (i, a) in answers.enumerated() {
            let key = Key(
                step: a.answer.stepIdentifier, question: a.answer.questionIdentifier,
                relative: a.answer.relativeIdentifier)
            if final[key] == i {
                result.answers.append(a.answer)
                continue
            }
            result.previousAnswers.append(a.answer)
            if !a.previous, let n = count[key] {
                let name = "\(key.step)/\(key.question)" + (key.relative.map { " (relative \($0))" } ?? "")
                if !unmarked.contains(name) {
                    unmarked.append(name)
                    result.warnings.append(
                        "\(name) is answered \(n) times and the earlier answers are not marked isPreviousResult; "
                            + "the last is the answer, the others are in previousAnswers")
                }
            }
        }
    }

    /// Withholds identifying answers when asked, and says how many answers are withheld; reads the consent decision
    /// (after withholding, so a withheld signer's name stays out of it) and its warnings.
    static func finish(_ result: inout SurveyResult, dropsIdentifiers: Bool, consentRules: ConsentRules = .default) {
        if dropsIdentifiers {
            // Superseded answers are withheld too: a name typed before an edit is still a name.
            // Relatives' names are withheld as they are read (relativeAnswers); they count here.
            let named = (result.answers + result.previousAnswers).filter { $0.withheld == "identifier" }.count
            let dropped = named + withholdIdentifiers(&result.answers) + withholdIdentifiers(&result.previousAnswers)
            if dropped > 0 {
                result.warnings.append(
                    "--drop-identifiers: \(dropped) identifying answers (names, e-mail, birth date, phone, locations, "
                        + "signers) withheld")
            }
        }
        if result.answers.contains(where: { $0.withheld == "secret" }) {
            let n = result.answers.filter { $0.withheld == "secret" }.count
            result.warnings.append(
                n == 1
                    ? "1 answer is a secret (a password or passcode field) and was not read"
                    : "\(n) answers are secrets (password or passcode fields) and were not read")
        }
        let decision = ConsentDecision(result, rules: consentRules)
        result.consent = decision.isEmpty ? nil : decision
        result.warnings += decision.warnings
        // The image rides on the decision only (the answers are written without it).
        for i in result.answers.indices { result.answers[i].signatureImage = nil }
        for i in result.previousAnswers.indices { result.previousAnswers[i].signatureImage = nil }
    }

    /// Withholds the identifying answers of `answers` (signers' names and dates, names, e-mail, birth date, phone,
    /// locations) and returns how many were withheld.
    static func withholdIdentifiers(_ answers: inout [SurveyAnswer]) -> Int {
        var dropped = 0
        for i in answers.indices {
            let a = answers[i]
            if a.answerType == "consentSignature" {
                if a.signatureGivenName != nil || a.signatureFamilyName != nil || a.signatureDate != nil { dropped += 1 }
                answers[i].signatureGivenName = nil
                answers[i].signatureFamilyName = nil
                answers[i].signatureDate = nil
                answers[i].signatureImage = nil
            } else if a.withheld == nil, a.answerType == "location" || ResearchKit.isIdentifying(a.questionIdentifier) {
                answers[i] = withheld(a, reason: "identifier")
                dropped += 1
            }
        }
        return dropped
    }

    /// `answer` with every value column cleared and `withheld` set to `reason`.
    static func withheld(_ answer: SurveyAnswer, reason: String) -> SurveyAnswer {
        var row = SurveyAnswer(
            stepIdentifier: answer.stepIdentifier, questionIdentifier: answer.questionIdentifier,
            className: answer.className, answerType: answer.answerType)
        row.questionType = answer.questionType
        row.startDate = answer.startDate
        row.endDate = answer.endDate
        row.relativeIdentifier = answer.relativeIdentifier
        row.relativeGroup = answer.relativeGroup
        row.withheld = reason
        return row
    }

    /// The `answerType` of a question result class and `ORKQuestionType` number.
    static func answerType(className: String, questionType: Int?) -> String {
        switch className {
        case "ORKScaleQuestionResult": "scale"
        case "ORKChoiceQuestionResult":
            questionType == 2 ? "singleChoice" : questionType == 3 ? "multipleChoice" : "choice"
        case "ORKBooleanQuestionResult": "boolean"
        case "ORKTextQuestionResult": "text"
        case "ORKNumericQuestionResult":
            switch questionType {
            case 4: "decimal"
            case 5: "integer"
            case 12: "height"
            case 13: "weight"
            default: "numeric"
            }
        case "ORKTimeOfDayQuestionResult": "timeOfDay"
        case "ORKTimeIntervalQuestionResult": "timeInterval"
        case "ORKDateQuestionResult": questionType == 9 ? "dateAndTime" : "date"
        case "ORKLocationQuestionResult": "location"
        case "ORKMultipleComponentQuestionResult": "multipleComponent"
        case "ORKSESQuestionResult": "socioeconomicLadder"
        case "ORKWebViewStepResult": "webViewResult"
        case "ORKSignatureResult": "signature"
        case "ORKFrontFacingCameraStepResult": "video"
        default: "unknown"
        }
    }

    /// A number as text (``SurveyAnswer/text(_:)-(Double)``).
    static func text(_ x: Double) -> String { SurveyAnswer.text(x) }

    /// A choice or component value as text (``SurveyAnswer/text(_:)-(JSONValue)``).
    package static func text(_ value: JSONValue) -> String { SurveyAnswer.text(value) }

    static func answer(_ question: ResearchKit.QuestionResult, step: String) -> SurveyAnswer {
        var row = SurveyAnswer(
            stepIdentifier: step, questionIdentifier: question.identifier, className: question.header.className,
            answerType: answerType(className: question.header.className, questionType: question.questionType))
        row.questionType = question.questionType
        row.startDate = question.header.startDate
        row.endDate = question.header.endDate
        row.dontKnow = question.isDontKnow
        row.skipped = question.isSkipped
        guard let answer = question.answer else { return row }
        switch answer {
        case .scale(let x), .ladderRung(let x):
            row.valueNumber = x
            row.value = text(x)
        case .choices(let values):
            row.choiceValues = values
            row.value = values.map(text).joined(separator: "|")
            if values.count == 1 {
                row.valueNumber = values[0].numberValue
                row.valueText = values[0].stringValue
            }
        case .boolean(let b):
            row.valueNumber = b ? 1 : 0
            row.value = b ? "true" : "false"
        case .text(let s):
            row.valueText = s
            row.value = s
        case .numeric(let x, let unit, let displayUnit):
            row.valueNumber = x
            row.unit = unit ?? displayUnit
            row.value = text(x)
        case .timeOfDay(let s):
            row.valueText = s
            row.value = s
        case .timeInterval(let x):
            row.valueNumber = x
            row.unit = "s"
            row.value = text(x)
        case .date(let date, let timeZone, let calendar):
            row.valueDate = date
            row.timeZone = timeZone
            row.calendar = calendar
            row.value = date.description
        case .location(let location):
            row.latitude = location.latitude
            row.longitude = location.longitude
            row.valueText = location.userInput
            if let lat = location.latitude, let lon = location.longitude {
                row.value = text(lat) + "," + text(lon)
            } else {
                row.value = location.userInput
            }
        case .components(let values, let separator):
            row.choiceValues = values
            row.value = values.map(text).joined(separator: separator ?? " ")
        case .file(let name, let contentType):
            row.value = name
            row.valueText = name
            row.contentType = contentType
        case .withheld:
            row.withheld = "secret"
        }
        return row
    }

    static func answer(_ consent: ResearchKit.ConsentSignatureResult, step: String) -> SurveyAnswer {
        var row = SurveyAnswer(
            stepIdentifier: step, questionIdentifier: consent.header.identifier,
            className: consent.header.className, answerType: "consentSignature")
        row.startDate = consent.header.startDate
        row.endDate = consent.header.endDate
        row.consented = consent.consented
        row.value = consent.consented.map { $0 ? "true" : "false" }
        row.valueNumber = consent.consented.map { $0 ? 1 : 0 }
        row.skipped = consent.consented == nil
        if let signature = consent.signature {
            row.signatureGivenName = signature.givenName
            row.signatureFamilyName = signature.familyName
            row.signatureDate = signature.signatureDate
            row.signatureImage = signature.image
        }
        return row
    }
}
