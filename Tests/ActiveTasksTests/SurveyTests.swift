import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import SensorSignal
@testable import StudyBatch
@testable import StudyInputs
@testable import StudyOutputs

/// Surveys and consent (issue 18): every question result class and the consent signature read into tidy rows;
/// secrets never read. The expected values are the fixture's own (written by hand from ResearchKit's
/// serialisation keys in `ORKESerialization.m`), not the code's output.
@Suite struct SurveyTests {
    static func fixture(_ name: String) -> String {
        fixturePath("survey/" + name)
    }

    static func survey(_ name: String) throws -> SurveyResult {
        let input = try AnalysisRegistry.load(path: fixture(name))
        #expect(input.kinds == [.survey], "\(input.kinds)")
        #expect(!input.problems.contains { $0.severity == .error }, "\(input.problems)")
        let results = SurveyAnalysis.analyze(input, options: AnalysisOptions())
        try #require(results.count == 1)
        return results[0]
    }

    static func row(_ survey: SurveyResult, _ question: String) throws -> SurveyAnswer {
        try #require(survey.answers.first { $0.questionIdentifier == question }, "no row for \(question)")
    }

    @Test func everyAnswerTypeBecomesATypedRow() throws {
        let s = try Self.survey("all-answer-types.json")
        #expect(s.taskIdentifier == "symptomSurvey")
        #expect(s.answers.count == 19)
        #expect(s.answers.map(\.questionIdentifier).prefix(3) == ["painStep", "medication", "symptoms"])

        let pain = try Self.row(s, "painStep")
        #expect(pain.stepIdentifier == "painStep" && pain.answerType == "scale" && pain.valueNumber == 7)
        #expect(pain.value == "7" && pain.questionType == 1)
        #expect(pain.startDate?.description == "2024-05-02T09:15:01+02:00")

        let medication = try Self.row(s, "medication")
        #expect(medication.stepIdentifier == "aboutYou" && medication.answerType == "singleChoice")
        #expect(medication.valueText == "Just took PD medication (0-1 hour ago)")
        #expect(medication.choiceValues == [.string("Just took PD medication (0-1 hour ago)")])

        let symptoms = try Self.row(s, "symptoms")
        #expect(symptoms.answerType == "multipleChoice" && symptoms.value == "1|4|5")
        #expect(symptoms.choiceValues == [.number(1), .number(4), .number(5)] && symptoms.valueNumber == nil)

        let fell = try Self.row(s, "fell")
        #expect(fell.answerType == "boolean" && fell.value == "false" && fell.valueNumber == 0)

        let notes = try Self.row(s, "notes")
        #expect(notes.answerType == "text" && notes.valueText == "Slept badly, \"tired\", stiff")

        let weight = try Self.row(s, "weight")
        #expect(weight.answerType == "decimal" && weight.valueNumber == 71.25 && weight.unit == "kg")
        let steps = try Self.row(s, "stepsToday")
        #expect(steps.answerType == "integer" && steps.valueNumber == 3200 && steps.unit == nil)

        let dose = try Self.row(s, "lastDose")
        #expect(dose.answerType == "timeOfDay" && dose.valueText == "07:45")
        let sleep = try Self.row(s, "sleep")
        #expect(sleep.answerType == "timeInterval" && sleep.valueNumber == 25_200 && sleep.unit == "s")

        let diagnosed = try Self.row(s, "diagnosed")
        #expect(diagnosed.answerType == "date" && diagnosed.timeZone == 3600 && diagnosed.calendar == "gregorian")
        let date = try #require(diagnosed.valueDate)
        #expect(date.timeIntervalSince1970 == 1_572_822_000)  // 2019-11-03T23:00:00Z
        #expect(date.utcOffset == 3600)

        let home = try Self.row(s, "home")
        #expect(home.answerType == "location" && home.latitude == 46.948 && home.longitude == 7.4474)
        #expect(home.valueText == "Bern" && home.value == "46.948,7.4474")

        let pressure = try Self.row(s, "bloodPressure")
        #expect(pressure.answerType == "multipleComponent" && pressure.value == "120/80")
        #expect(pressure.choiceValues == [.string("120"), .string("80")])

        let ladder = try Self.row(s, "ladder")
        #expect(ladder.answerType == "socioeconomicLadder" && ladder.valueNumber == 6 && ladder.questionType == nil)

        // A web-view consent step: what the page posted, and its signature (present = signed).
        let web = try Self.row(s, "webConsent")
        #expect(web.answerType == "webViewResult" && web.valueText == "agreed:v3" && web.stepIdentifier == "webConsent")
        let signature = try Self.row(s, "webConsentSignature")
        #expect(signature.answerType == "signature" && signature.value == "true" && signature.valueNumber == 1)
        #expect(signature.endDate?.description == "2024-05-02T09:19:28+02:00")
    }

    /// "I don't know", skipped and a missing result are three different things.
    @Test func dontKnowSkippedAndMissingStayDistinct() throws {
        let s = try Self.survey("all-answer-types.json")
        let mood = try Self.row(s, "mood")
        #expect(mood.dontKnow && !mood.skipped && mood.value == nil && mood.valueNumber == nil)
        let comments = try Self.row(s, "comments")
        #expect(comments.skipped && !comments.dontKnow && comments.value == nil)
        // A question without a result has no row at all.
        #expect(!s.answers.contains { $0.questionIdentifier == "neverShown" })
        #expect(s.skippedCount == 1 && s.dontKnowCount == 1 && s.withheldCount == 1 && s.answeredCount == 16)
        for row in s.answers where row.questionIdentifier != "mood" && row.questionIdentifier != "comments"
            && row.withheld == nil
        {
            #expect(!row.skipped && !row.dontKnow && row.value != nil, "\(row.questionIdentifier)")
        }
    }

    @Test func consentSignatureKeepsTheDecisionAndTheSignerNotTheImage() throws {
        let s = try Self.survey("all-answer-types.json")
        let consent = try Self.row(s, "participant")
        #expect(consent.stepIdentifier == "consentReview" && consent.answerType == "consentSignature")
        #expect(consent.consented == false && consent.value == "false" && consent.valueNumber == 0)
        #expect(consent.signatureName == "Ada Muster" && consent.signatureDate == "02.05.24")
        let json = try ResultEncoding.json(s)
        #expect(!json.contains("iVBORw0KGgo="), "the signature image reached the output")
    }

    /// `taskRunUUID` is optional (ResearchKit's own 2024 test results omit it); a malformed one is still an error.
    @Test func taskRunUUIDIsOptional() throws {
        let s = try Self.survey("all-answer-types.json")
        #expect(s.taskRunUUID == nil)
        #expect(s.warnings.contains("the task result has no taskRunUUID"))
        let bad = #"{"_class":"ORKTaskResult","identifier":"t","taskRunUUID":"not-a-uuid","results":[]}"#
        #expect(throws: InputError.self) { try ResearchKitDecoder.decode(Data(bad.utf8), file: "bad.json") }
        let good = #"{"_class":"ORKTaskResult","identifier":"t","taskRunUUID":"FAFFB3BF-79F7-4B33-A020-4CE98BDC79C4"}"#
        let document = try ResearchKitDecoder.decode(Data(good.utf8), file: "good.json")
        #expect(document.taskResult?.taskRunUUID?.uuidString == "FAFFB3BF-79F7-4B33-A020-4CE98BDC79C4")
    }

    // MARK: Secrets

    /// The secret of the fixture and of the registration task.
    static let secrets = ["Zx9-passcode-Secret", "Hunter2-Registration-Secret"]

    @Test func passwordsAndPasscodesAreNeverRead() throws {
        let s = try Self.survey("all-answer-types.json")
        let passcode = try Self.row(s, "appPasscode")
        #expect(passcode.withheld == "secret" && passcode.value == nil && passcode.valueText == nil)
        #expect(!passcode.skipped, "a withheld answer is not a skipped question")

        let registration = try Self.survey("registration.json")
        let withheld = registration.answers.filter { $0.withheld == "secret" }.map(\.questionIdentifier)
        #expect(withheld == ["ORKRegistrationFormItemPassword", "ORKRegistrationFormItemConfirmPassword"])
        #expect(try Self.row(registration, "ORKRegistrationFormItemEmail").valueText == "ada@example.org")
        #expect(registration.warnings.contains("2 answers are secrets (password or passcode fields) and were not read"))
    }

    @Test(arguments: ["ORKRegistrationFormItemPassword", "ORKLoginFormItemPassword", "newPasscode", "PASSWD2"])
    func secretIdentifiers(identifier: String) { #expect(ResearchKit.isSecret(identifier)) }

    @Test(arguments: ["ORKRegistrationFormItemEmail", "pin", "spinalPain", "passage"])
    func ordinaryIdentifiers(identifier: String) { #expect(!ResearchKit.isSecret(identifier)) }

    /// A secret of the wrong JSON type is not an error whose message would quote it: it is withheld like any other.
    @Test func aMalformedSecretIsWithheldNotQuoted() throws {
        let json = #"""
            {"_class":"ORKStepResult","identifier":"login","results":[
              {"_class":"ORKTextQuestionResult","identifier":"ORKLoginFormItemPassword","textAnswer":982451653},
              {"_class":"ORKNumericQuestionResult","identifier":"pinPasscode","numericAnswer":"77331"}]}
            """#
        let document = try ResearchKitDecoder.decode(Data(json.utf8), file: "login.json")
        let root = try #require(document.result)
        let s = SurveyAnalysis.survey(root, source: "login.json")
        #expect(s.answers.map(\.withheld) == ["secret", "secret"])
        let text = try ResultEncoding.json(s) + document.warnings.map(\.message).joined()
        #expect(!text.contains("982451653") && !text.contains("77331"))
    }

    /// Every rendering of the library (the command-line formats, the exports and batch are in
    /// `SurveyEndToEndTests`).
    @Test func noRenderingHoldsASecret() throws {
        for name in ["all-answer-types.json", "registration.json"] {
            let s = try Self.survey(name)
            for format in [OutputFormat.json, .table, .csv] {
                let text = try ResultEncoding.render(s, as: format)
                for secret in Self.secrets { #expect(!text.contains(secret), "\(name) \(format): \(secret)") }
            }
        }
    }

    // MARK: Renderings

    @Test func csvIsOneTidyRowPerAnswer() throws {
        let s = try Self.survey("registration.json")
        let table = s.csvTable
        #expect(Array(table.header.prefix(16)) == [
            "taskRunUUID", "taskIdentifier", "stepIdentifier", "questionIdentifier", "answerType", "value",
            "valueNumber", "valueText", "valueDate", "unit", "choiceValues", "dontKnow", "skipped", "withheld",
            "startDate", "endDate",
        ])
        #expect(table.rows.count == s.answers.count && table.rows.allSatisfy { $0.count == table.header.count })
        let gender = try #require(table.rows.first { $0[3] == "ORKRegistrationFormItemGender" })
        #expect(gender[0] == "2C7D5C1E-3F1B-4B52-9B8E-0D1C2A3B4C5D" && gender[1] == "registrationTask")
        #expect(gender[4] == "singleChoice" && gender[5] == "female" && gender[10] == #"["female"]"#)
    }

    /// A walking task that also asks a question gives both results, walking first.
    @Test func aTaskWithAnswersAndActiveStepsGivesBoth() throws {
        let input = try AnalysisRegistry.load(path: Self.fixture("walking-with-mood"))
        #expect(input.kinds == [.walking, .survey], "\(input.kinds)")
        let analyses = AnalysisRegistry.analyze(input)
        let kinds = analyses.flatMap(\.results).map(\.kind)
        #expect(kinds.first == .walking && kinds.last == .survey, "\(kinds)")
        let survey = try #require(analyses.flatMap(\.results).last?.result as? SurveyResult)
        #expect(survey.answers.map(\.valueText) == ["Immediately before Parkinson medication"])
    }
}

/// `--format mork` for surveys: MORK's own test vectors (`MORKTests/MORKTests.m` in mdsol/MORK: a scale answer of
/// 10 is `"10"`, a choice of `["YES"]` is `"YES"`, a question result is `{data_value, item_oid = identifier,
/// date_time_entered}`, a step or task result gives its questions' items in order), then every answer type.
@Suite struct SurveyMORKTests {
    static func fieldData(_ json: String, configuration: MORKExport.Configuration = .init()) throws -> [JSONObject] {
        let document = try ResearchKitDecoder.decode(Data(json.utf8), file: "mork.json")
        let survey = SurveyAnalysis.survey(try #require(document.result), source: "mork.json")
        let items = try MORKExport.fieldData(
            try ExportRecord.records(of: survey), context: ExportContext(), configuration: configuration)
        return items.compactMap(\.objectValue)
    }

    static func entries(_ o: JSONObject) -> [String: String] {
        Dictionary(uniqueKeysWithValues: o.entries.map { ($0.key, $0.value.stringValue ?? "?") })
    }

    /// MORK's `testScaleQuestionResultReturnsCorrectRawResult`, `testChoiceQuestionResultReturnsCorrectRawResult`,
    /// `testFieldDataReturnsProperDictionary`, `testCollectionResultReturnsFieldDataArray` and
    /// `testNestedTaskResultsReturnsFieldDataArray`, with the 24-hour clock of ``ResultDate/morkText``.
    @Test func morksOwnTestVectors() throws {
        let step = #"""
            {"_class":"ORKStepResult","identifier":"steps","results":[
              {"_class":"ORKChoiceQuestionResult","identifier":"choice","choiceAnswers":["YES"],
               "endDate":"2015-04-24T15:02:39-0400"},
              {"_class":"ORKScaleQuestionResult","identifier":"scale","scaleAnswer":10,
               "endDate":"2015-04-24T15:02:39-0400"}]}
            """#
        let expected: [[String: String]] = [
            ["data_value": "YES", "item_oid": "choice", "date_time_entered": "2015-04-24T15:02:39"],
            ["data_value": "10", "item_oid": "scale", "date_time_entered": "2015-04-24T15:02:39"],
        ]
        #expect(try Self.fieldData(step).map(Self.entries) == expected)
        let task = #"{"_class":"ORKTaskResult","identifier":"task","results":["# + step + "]}"
        #expect(try Self.fieldData(task).map(Self.entries) == expected)
        // Each item has exactly MORK's three keys, in its order.
        #expect(try Self.fieldData(step).allSatisfy { $0.keys == ["data_value", "item_oid", "date_time_entered"] })
    }

    /// Every answer type gets an item (MORK itself supports only choice, date and scale); skipped, "I don't know"
    /// and withheld answers send nothing. The values are the fixture's.
    @Test func everyAnswerType() throws {
        let json = try String(contentsOfFile: SurveyTests.fixture("all-answer-types.json"), encoding: .utf8)
        let items = try Self.fieldData(json).map(Self.entries)
        let values = Dictionary(uniqueKeysWithValues: items.map { ($0["item_oid"] ?? "", $0["data_value"] ?? "") })
        #expect(values == [
            "painStep": "7", "medication": "Just took PD medication (0-1 hour ago)", "symptoms": "1|4|5", "fell": "0",
            "notes": "Slept badly, \"tired\", stiff", "weight": "71.25", "stepsToday": "3200", "lastDose": "07:45",
            "sleep": "25200", "diagnosed": "2019-11-04T00:00:00", "home": "46.948,7.4474", "bloodPressure": "120/80",
            "ladder": "6", "participant": "0", "webConsent": "agreed:v3", "webConsentSignature": "1",
        ])
        // The first answer's own end, in the device's local time (+02:00), 24-hour: 09:15:09, not 09:15:09 AM.
        #expect(items.first?["date_time_entered"] == "2024-05-02T09:15:09")
        for item in items { #expect(!SurveyTests.secrets.contains(item["data_value"] ?? "")) }
    }

    /// An afternoon time shows the difference from MORK's `hh` (which would write `03:02:39` for 15:02:39).
    @Test func dateTimeEnteredUsesTheTwentyFourHourClock() throws {
        let json = #"""
            {"_class":"ORKDateQuestionResult","identifier":"when","dateAnswer":"2015-04-24T15:02:39-0400",
             "endDate":"2015-04-24T23:59:01-0400"}
            """#
        let items = try Self.fieldData(json).map(Self.entries)
        #expect(items == [["data_value": "2015-04-24T15:02:39", "item_oid": "when", "date_time_entered": "2015-04-24T23:59:01"]])
    }

    @Test func itemOIDsCanBeMappedOrLeftOut() throws {
        var configuration = MORKExport.Configuration()
        configuration.itemOIDs = ["steps.choice": "RAVE_CHOICE", "scale": String?.none]
        let step = #"""
            {"_class":"ORKStepResult","identifier":"steps","results":[
              {"_class":"ORKChoiceQuestionResult","identifier":"choice","choiceAnswers":["YES"]},
              {"_class":"ORKScaleQuestionResult","identifier":"scale","scaleAnswer":10}]}
            """#
        #expect(try Self.fieldData(step, configuration: configuration).map { Self.entries($0)["item_oid"] } == ["RAVE_CHOICE"])
    }

    /// Without `--mork-config` the `field_data` array alone, with a note, instead of an error.
    @Test func withoutAnEnvelopeTheFieldDataArrayAlone() throws {
        let input = try AnalysisRegistry.load(path: SurveyTests.fixture("registration.json"))
        let survey = try #require(SurveyAnalysis.analyze(input, options: AnalysisOptions()).first)
        let options = ExportOptions(context: ExportContext(input: input))
        let text = try ResultEncoding.render(survey, as: .mork, export: options)
        let parsed = try JSONParser.parse(Data(text.utf8), file: "out")
        let items = try #require(parsed.arrayValue)
        #expect(items.count == 7, "9 answers, 2 withheld")
        #expect(options.notes.count == 1 && options.notes[0].contains("wrote the field_data array alone"))
        for secret in SurveyTests.secrets { #expect(!text.contains(secret)) }
    }
}

/// `--format fhir` for surveys: a `QuestionnaireResponse` per task (answer types after C3-PRO's mapping, in R4
/// form) and a `Consent` per consent signature with the sharing scope. The bundles pass the independent validator
/// in `SurveyEndToEndTests`.
@Suite struct SurveyFHIRTests {
    static func resources(_ name: String) throws -> (resources: [JSONObject], skipped: [String]) {
        let input = try AnalysisRegistry.load(path: SurveyTests.fixture(name))
        let survey = try #require(SurveyAnalysis.analyze(input, options: AnalysisOptions()).first)
        let output = FHIRExport.bundle(try ExportRecord.records(of: survey), context: ExportContext(input: input))
        let entries = output.bundle.objectValue?["entry"]?.arrayValue ?? []
        return (entries.compactMap { $0.objectValue?["resource"]?.objectValue }, output.skipped)
    }

    /// The answer objects of the item `linkId` anywhere in the response.
    static func answers(_ response: JSONObject, _ linkId: String) -> [JSONObject]? {
        func search(_ items: [JSONValue]) -> [JSONObject]? {
            for case .object(let item) in items {
                if item["linkId"]?.stringValue == linkId { return item["answer"]?.arrayValue?.compactMap(\.objectValue) }
                if let nested = item["item"]?.arrayValue, let found = search(nested) { return found }
            }
            return nil
        }
        return search(response["item"]?.arrayValue ?? [])
    }

    @Test func questionnaireResponseMapsEveryAnswerType() throws {
        let (resources, skipped) = try Self.resources("all-answer-types.json")
        #expect(resources.map { $0["resourceType"]?.stringValue } == ["QuestionnaireResponse", "Consent"])
        let response = resources[0]
        #expect(response["status"] == .string("completed"))
        #expect(response["questionnaire"] == .string("urn:researchkit:task:symptomSurvey"))
        #expect(response["authored"] == .string("2024-05-02T09:19:30+02:00"))
        // A question step is one item; a form step a group of its questions.
        let top = response["item"]?.arrayValue?.compactMap { $0.objectValue?["linkId"]?.stringValue }
        #expect(top == ["painStep", "aboutYou", "webConsent"])
        func value(_ linkId: String) -> [JSONObject] { Self.answers(response, linkId) ?? [] }
        #expect(value("painStep") == [JSONObject([("valueDecimal", .number(7))])])
        #expect(value("medication") == [JSONObject([("valueCoding", .object(JSONObject([("code", .string("Just took PD medication (0-1 hour ago)"))])))])])
        #expect(value("symptoms").count == 3)
        #expect(value("fell") == [JSONObject([("valueBoolean", .bool(false))])])
        #expect(value("notes") == [JSONObject([("valueString", .string("Slept badly, \"tired\", stiff"))])])
        #expect(value("weight") == [JSONObject([("valueQuantity", .object(JSONObject([("value", .number(71.25)), ("unit", .string("kg"))])))])])
        #expect(value("stepsToday") == [JSONObject([("valueInteger", .number(3200))])])
        #expect(value("lastDose") == [JSONObject([("valueTime", .string("07:45:00"))])])
        #expect(value("sleep").first?["valueQuantity"]?.objectValue?["code"] == .string("s"))
        #expect(value("diagnosed") == [JSONObject([("valueDate", .string("2019-11-04"))])])
        #expect(value("home") == [JSONObject([("valueString", .string("46.948,7.4474"))])])
        #expect(value("ladder") == [JSONObject([("valueInteger", .number(6))])])
        // No item for "I don't know", skipped and secret answers; each is noted.
        for linkId in ["mood", "comments", "appPasscode"] { #expect(Self.answers(response, linkId) == nil, "\(linkId)") }
        #expect(skipped.count == 3 && skipped.contains { $0.contains("appPasscode: withheld (secret)") }, "\(skipped)")
    }

    /// `--fhir-consent contract`: C3-PRO's signed Contract (a CONSENTER signer, its consent signature and the
    /// consents-to-data-sharing extension), in R4 form.
    @Test func contractShape() throws {
        let input = try AnalysisRegistry.load(path: SurveyTests.fixture("registration.json"))
        let survey = try #require(SurveyAnalysis.analyze(input, options: AnalysisOptions()).first)
        var context = ExportContext(input: input)
        context.participant = "P-7"
        let bundle = FHIRExport.bundle(try ExportRecord.records(of: survey), context: context, consentShape: .contract)
        let resources = (bundle.bundle.objectValue?["entry"]?.arrayValue ?? []).compactMap {
            $0.objectValue?["resource"]?.objectValue
        }
        #expect(resources.map { $0["resourceType"]?.stringValue } == ["QuestionnaireResponse", "Contract"])
        let contract = resources[1]
        #expect(contract["status"] == .string("executed"))
        let signer = try #require(contract["signer"]?.arrayValue?.first?.objectValue)
        #expect(signer["type"]?.objectValue?["code"] == .string("CONSENTER"))
        #expect(signer["party"]?.objectValue?["identifier"]?.objectValue?["value"] == .string("P-7"))
        let share = try #require(signer["extension"]?.arrayValue?.first?.objectValue)
        #expect(share["url"] == .string(FHIRExport.c3proSharingExtension) && share["valueBoolean"] == .bool(false))
        let signature = try #require(signer["signature"]?.arrayValue?.first?.objectValue)
        #expect(signature["type"]?.arrayValue?.first?.objectValue?["code"] == .string("1.2.840.10065.1.12.1.7"))
        #expect(signature["when"] == .string("2017-03-09T16:49:18-08:00"))
        // The policy reads it back: P-7 shares with the study only.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(try ResultEncoding.json(bundle.bundle).utf8).write(to: URL(fileURLWithPath: path))
        var policy = ConsentPolicy()
        #expect(try policy.addScopes(file: path) == 1 && policy.scopes == ["P-7": .sponsorsAndPartners])
    }

    @Test func consentCarriesTheDecisionAndTheSharingScope() throws {
        let declined = try Self.resources("all-answer-types.json").resources[1]
        #expect(declined["status"] == .string("rejected"))
        #expect(declined["policyRule"]?.objectValue?["coding"]?.arrayValue?.first?.objectValue?["code"] == .string("OPTOUT"))
        #expect(declined["extension"] == nil, "no sharing step in this task")
        let (resources, _) = try Self.resources("registration.json")
        let consent = try #require(resources.first { $0["resourceType"] == .string("Consent") })
        #expect(consent["status"] == .string("active"))
        let sharing = consent["extension"]?.arrayValue?.first?.objectValue
        #expect(sharing?["url"] == .string(FHIRExport.sharingScopeExtension))
        #expect(sharing?["valueCode"] == .string("sponsors_and_partners"), "choice 0: the study only")
        let response = try #require(resources.first { $0["resourceType"] == .string("QuestionnaireResponse") })
        #expect(response["identifier"]?.objectValue?["value"] == .string("urn:uuid:2c7d5c1e-3f1b-4b52-9b8e-0d1c2a3b4c5d"))
        // The signer's name stays out of the Consent.
        #expect(!(try ResultEncoding.json(JSONValue.object(consent))).contains("Muster"))
    }
}

/// `--format researchkit` for surveys: ResearchKit's own date form, and the answers written back as the question
/// results they were read from, so that reading the export gives the same rows (withheld secrets are left out).
@Suite struct SurveyResearchKitExportTests {
    @Test func datesAreInResearchKitsForm() {
        let date = ResultDate("2017-03-09T16:48:43.250-08:00")
        #expect(date?.researchKitText == "2017-03-09T16:48:43-0800")
        #expect(ResultDate("2024-05-02T09:15:01+0530")?.researchKitText == "2024-05-02T09:15:01+0530")
        #expect(ResultDate("2024-05-02T09:15:01Z")?.researchKitText == "2024-05-02T09:15:01+0000")
    }

    /// The export itself (a JSON array of step results) reads as one task, with a warning.
    @Test func theExportArrayReadsAsOneTask() throws {
        let input = try AnalysisRegistry.load(path: SurveyTests.fixture("registration.json"))
        let survey = try #require(SurveyAnalysis.analyze(input, options: AnalysisOptions()).first)
        let exported = ResearchKitExport.stepResults(
            try ExportRecord.records(of: survey), context: ExportContext(input: input))
        let document = try ResearchKitDecoder.decode(exported, file: "export.json")
        let task = try #require(document.taskResult)
        #expect(task.identifier.isEmpty && task.taskRunUUID?.uuidString == "2C7D5C1E-3F1B-4B52-9B8E-0D1C2A3B4C5D")
        #expect(document.warnings.contains { $0.kind == .arrayRoot && $0.path == "$" })
        let again = SurveyAnalysis.survey(try #require(document.result), source: "export.json")
        #expect(again.taskIdentifier == nil && again.taskRunUUID == survey.taskRunUUID)
        #expect(again.answers == survey.answers.filter { $0.withheld == nil })
    }

    @Test(arguments: ["all-answer-types.json", "registration.json"])
    func readingTheExportGivesTheSameAnswers(name: String) throws {
        let input = try AnalysisRegistry.load(path: SurveyTests.fixture(name))
        let survey = try #require(SurveyAnalysis.analyze(input, options: AnalysisOptions()).first)
        let exported = ResearchKitExport.stepResults(
            try ExportRecord.records(of: survey), context: ExportContext(input: input))
        var again: [SurveyAnswer] = []
        for (i, step) in (exported.arrayValue ?? []).enumerated() {
            let document = try ResearchKitDecoder.decode(step, file: "step\(i).json")
            // The only key ResearchKit's step results do not have is the run's UUID, which the export adds.
            #expect(document.warnings.allSatisfy { $0.message.contains("taskRunUUID") }, "\(document.warnings)")
            again += SurveyAnalysis.survey(try #require(document.result), source: name).answers
        }
        let expected = survey.answers.filter { $0.withheld == nil }
        #expect(again.count == expected.count)
        for (a, b) in zip(again, expected) { #expect(a == b, "\(b.questionIdentifier)") }
        let text = try ResultEncoding.json(exported)
        for secret in SurveyTests.secrets { #expect(!text.contains(secret)) }
    }
}

/// The report: a per-record answer table, and over several records the answer distributions (issue 18 item 8).
@Suite struct SurveyReportTests {
    static func record(_ name: String, participant: String, edit: (String) -> String = { $0 }) throws -> ReportRecord {
        let text = edit(try String(contentsOfFile: SurveyTests.fixture(name), encoding: .utf8))
        let document = try ResearchKitDecoder.decode(Data(text.utf8), file: name)
        let survey = SurveyAnalysis.survey(try #require(document.result), source: participant)
        let json = try JSONParser.parse(Data(try ResultEncoding.json(survey).utf8), file: "r")
        return ReportRecord(source: participant, kind: "survey", status: "ok", results: [try #require(json.objectValue)])
    }

    @Test func distributionsAndAnswerTables() throws {
        let records = [
            try Self.record("all-answer-types.json", participant: "P1"),
            try Self.record("all-answer-types.json", participant: "P2") {
                $0.replacingOccurrences(of: #""scaleAnswer": 7"#, with: #""scaleAnswer": 3"#)
                    .replacingOccurrences(of: #""choiceAnswers": [1, 4, 5]"#, with: #""choiceAnswers": [4]"#)
            },
            try Self.record("registration.json", participant: "P3"),
        ]
        let html = HTMLReport.render(records, readSources: false)
        #expect(html.contains("Survey answers"))
        // Each multiple-choice value counted once per answer: 1 once, 4 twice, 5 once; two answers.
        #expect(html.contains("symptomSurvey / symptoms <span class=\"meta\">(multipleChoice; 2 answers)"))
        #expect(html.contains("<td>4</td><td class=\"num\">2</td>"))
        #expect(html.contains("<td>1</td><td class=\"num\">1</td>"))
        #expect(html.contains("symptomSurvey / painStep <span class=\"meta\">(scale; 2 answers)"))
        #expect(html.contains("symptomSurvey / mood <span class=\"meta\">(scale; 0 answers, 2 I don't know)"))
        #expect(html.contains("registrationTask / participant") == false, "one consent: no distribution")
        // Free text is never summarised; the per-record tables show each answer, secrets as withheld.
        #expect(!html.contains("symptomSurvey / notes <span"))
        #expect(html.contains("<td>withheld (secret)</td>"))
        for secret in SurveyTests.secrets { #expect(!html.contains(secret)) }
    }
}

/// The `taskAnswers` column of batch CSVs: the same task's answers beside each active-task row.
@Suite struct TaskAnswersColumnTests {
    @Test func answersWithAValueOnlyAndNeverASecret() throws {
        #expect(RecordAnalysis.taskAnswers([]) == "")
        let input = try AnalysisRegistry.load(path: SurveyTests.fixture("registration.json"))
        let results = AnalysisRegistry.analyze(input).flatMap(\.results)
        let text = RecordAnalysis.taskAnswers(results)
        let object = try #require(try JSONParser.parse(Data(text.utf8), file: "cell").objectValue)
        #expect(object["ORKRegistrationFormItemGender"] == .string("female"))
        #expect(object["sharingStep"] == .string("0") && object["participant"] == .string("true"))
        #expect(object["ORKRegistrationFormItemPassword"] == nil)
        for secret in SurveyTests.secrets { #expect(!text.contains(secret)) }
    }

    /// A walking record without answers gets the column, empty, so every row of a kind has the same columns.
    @Test func aRecordWithoutAnswersHasAnEmptyCell() throws {
        let walk = FileManager.default.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: walk) }
        let rows = (0..<1000).map { i in "\(Double(i) / 100),0,0,\(1 + 0.2 * sin(Double(i) / 100 * 2 * .pi * 1.8))" }
        try ("t,x,y,z\n" + rows.joined(separator: "\n")).write(to: walk, atomically: true, encoding: .utf8)
        let outcome = RecordAnalysis.analyze(recordAt: walk.path)
        let walking = try #require(outcome.results.first { $0.kind == "walking" })
        #expect(walking.csvHeader.last == RecordAnalysis.taskAnswersColumn)
        #expect(walking.csvRows.allSatisfy { $0.last == "" && $0.count == walking.csvHeader.count })
    }
}

/// `--drop-identifiers`: names, e-mail, birth date, phone, locations and a consent signer's details withheld.
@Suite struct DropIdentifiersTests {
    @Test func identifyingAnswersAreWithheld() throws {
        var options = AnalysisOptions()
        options.dropsIdentifiers = true
        let input = try AnalysisRegistry.load(path: SurveyTests.fixture("registration.json"))
        let survey = try #require(SurveyAnalysis.analyze(input, options: options).first)
        let withheld = Dictionary(uniqueKeysWithValues: survey.answers.map { ($0.questionIdentifier, $0.withheld) })
        #expect(withheld["ORKRegistrationFormItemEmail"] == "identifier")
        #expect(withheld["ORKRegistrationFormItemGivenName"] == "identifier")
        #expect(withheld["ORKRegistrationFormItemFamilyName"] == "identifier")
        #expect(withheld["ORKRegistrationFormItemDOB"] == "identifier")
        #expect(withheld["ORKRegistrationFormItemPassword"] == "secret")
        #expect(withheld["ORKRegistrationFormItemGender"] == .some(nil) && withheld["sharingStep"] == .some(nil))
        let consent = try #require(survey.answers.first { $0.answerType == "consentSignature" })
        #expect(consent.consented == true && consent.signatureGivenName == nil && consent.signatureFamilyName == nil)
        #expect(consent.signatureDate == nil)
        let text = try ["json", "csv", "table"].map { try ResultEncoding.render(survey, as: OutputFormat(rawValue: $0)!) }
            .joined()
        for identifying in ["ada@example.org", "Muster", "1987-03-09", "3/9/17"] {
            #expect(!text.contains(identifying), "\(identifying)")
        }
        // Without the option, nothing is withheld but the secrets.
        let kept = try #require(SurveyAnalysis.analyze(input, options: AnalysisOptions()).first)
        #expect(kept.answers.filter { $0.withheld != nil }.count == 2)
    }

    /// The report says which kind of withholding it was (it once said "secret" for every withheld answer).
    @Test func theReportNamesTheWithholding() throws {
        let json = try String(contentsOfFile: SurveyTests.fixture("registration.json"), encoding: .utf8)
        let document = try ResearchKitDecoder.decode(Data(json.utf8), file: "r.json")
        let survey = SurveyAnalysis.survey(try #require(document.result), source: "r.json", dropsIdentifiers: true)
        let object = try #require(try JSONParser.parse(Data(try ResultEncoding.json(survey).utf8), file: "r").objectValue)
        let html = SurveyAnalysis.reportPlots(object, readSources: false)
        #expect(html.contains("<td>ORKRegistrationFormItemEmail</td><td>withheld (identifier)</td>"))
        #expect(html.contains("<td>ORKRegistrationFormItemPassword</td><td>withheld (secret)</td>"))
    }

    @Test func locationsAreIdentifying() throws {
        let json = try String(contentsOfFile: SurveyTests.fixture("all-answer-types.json"), encoding: .utf8)
        let document = try ResearchKitDecoder.decode(Data(json.utf8), file: "s.json")
        let survey = SurveyAnalysis.survey(try #require(document.result), source: "s.json", dropsIdentifiers: true)
        let home = try #require(survey.answers.first { $0.questionIdentifier == "home" })
        #expect(home.withheld == "identifier" && home.latitude == nil && home.value == nil)
    }

    @Test(arguments: ["ORKRegistrationFormItemDOB", "email_address", "Participant.FirstName", "mobilePhone", "birthDate"])
    func identifying(identifier: String) { #expect(ResearchKit.isIdentifying(identifier)) }

    @Test(arguments: ["medication", "gender", "painStep", "symptoms"])
    func notIdentifying(identifier: String) { #expect(!ResearchKit.isIdentifying(identifier)) }
}

/// ResearchKit results archived with NSKeyedArchiver (BridgeAppSDK): a binary property list whose object graph is
/// resolved into the serializer's JSON. The fixture is written by `Tests/Reference/make_keyed_archive.py` with the
/// values of `registration.json`, so the two readings must agree.
@Suite struct KeyedArchiveTests {
    @Test func anArchivedRegistrationReadsLikeItsJSON() throws {
        let input = try AnalysisRegistry.load(path: SurveyTests.fixture("registration.keyed.plist"))
        #expect(input.dialect == .researchKitResult && input.kinds == [.survey], "\(input.kinds)")
        #expect(!input.problems.contains { $0.severity == .error }, "\(input.problems)")
        let survey = try #require(SurveyAnalysis.analyze(input, options: AnalysisOptions()).first)
        #expect(survey.taskIdentifier == "registrationTask")
        #expect(survey.taskRunUUID == "2C7D5C1E-3F1B-4B52-9B8E-0D1C2A3B4C5D")
        func row(_ id: String) throws -> SurveyAnswer { try SurveyTests.row(survey, id) }
        #expect(try row("ORKRegistrationFormItemEmail").valueText == "ada@example.org")
        #expect(try row("ORKRegistrationFormItemPassword").withheld == "secret")
        #expect(try row("ORKRegistrationFormItemGender").choiceValues == [.string("female")])
        // The same instant as registration.json's 1987-03-09T16:48:33-0800; the archive's time zone is a name,
        // read as its offset at that date.
        let json = try SurveyTests.survey("registration.json")
        let dob = try row("ORKRegistrationFormItemDOB")
        #expect(dob.valueDate?.date == (try SurveyTests.row(json, "ORKRegistrationFormItemDOB")).valueDate?.date)
        #expect(dob.timeZone == -28_800 && dob.calendar == "gregorian")
        #expect(try row("pain").valueNumber == 7 && (try row("fell")).value == "false")
        #expect(try row("lastDose").valueText == "07:45")
        #expect(try row("weight").valueNumber == 71.25 && (try row("weight")).unit == "kg")
        let consent = try row("participant")
        #expect(consent.consented == true && consent.signatureName == "Ada Muster" && consent.signatureDate == "3/9/17")
        #expect(try row("ORKRegistrationFormItemEmail").startDate?.description == "2017-03-10T00:48:45Z")
        let text = try ResultEncoding.json(survey) + (try ResultEncoding.render(survey, as: .csv))
        for secret in SurveyTests.secrets { #expect(!text.contains(secret)) }
    }

    /// A binary property list of `objects` (encoded object bytes), 1-byte offsets and references, top object 0.
    static func plist(_ objects: [[UInt8]], top: UInt8 = 0) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for o in objects {
            offsets.append(UInt8(bytes.count))
            bytes += o
        }
        let table = bytes.count
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)]
        bytes += [0, 0, 0, 0, 0, 0, 0, top]
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        return Data(bytes)
    }

    /// 20 levels of an array holding its child twice, then a number.
    static var sharedLevels: Data {
        var objects: [[UInt8]] = []
        for i in 0..<20 {
            let child = UInt8(i + 1)
            objects.append([0xA2, child, child])
        }
        objects.append([0x10, 0x01])
        return plist(objects)
    }

    @Test func hostilePropertyListsAreErrorsNotTraps() throws {
        let good = try Data(contentsOf: URL(fileURLWithPath: SurveyTests.fixture("registration.keyed.plist")))
        var cases: [(String, Data)] = [
            ("truncated", good.prefix(good.count / 2)),
            ("header only", Data("bplist00".utf8)),
            ("an array that contains itself", Self.plist([[0xA1, 0x00]])),
            ("a reference past the objects", Self.plist([[0xA1, 0x05]])),
            ("a dictionary with a number key", Self.plist([[0xD1, 0x01, 0x01], [0x10, 0x07]])),
            ("a string longer than the file", Self.plist([[0x5F, 0x10, 0xFF, 0x61]])),
            ("an unknown marker", Self.plist([[0x70]])),
            // 20 levels of an array holding its child twice: 2^20 reads if shared objects were re-read freely.
            ("shared objects", Self.sharedLevels),
            ("not an archive", Self.plist([[0x10, 0x07]])),
        ]
        var bad = [UInt8](good)
        bad[bad.count - 9] ^= 0x40  // the offset table moved
        cases.append(("a corrupt trailer", Data(bad)))
        for (name, data) in cases {
            #expect(throws: InputError.self, "\(name)") { _ = try KeyedArchive.researchKitJSON(data, file: "x.plist") }
        }
    }
}

/// The front-facing camera step: its video as an answer row, with the duration FFmpeg reads from the file beside
/// the result (issue 18 item 1: "file, content type, duration via the existing FFmpeg path").
@Suite struct CameraStepTests {
    @Test func theVideoRowHasItsContentTypeAndDuration() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("camera-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // A 1.5 s video, 10 frames/s, no audio, made by FFmpeg (a dependency of taskproc).
        let video = dir.appendingPathComponent("face.mp4").path
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        ffmpeg.arguments = [
            "ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=duration=1.5:size=64x64:rate=10", "-pix_fmt",
            "yuv420p", video,
        ]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        try #require(ffmpeg.terminationStatus == 0, "ffmpeg could not make the test video")
        let task = #"""
            {"_class":"ORKTaskResult","identifier":"selfie","taskRunUUID":"9D0E4C2A-1B3F-4A5D-8C7E-6F5A4B3C2D1E",
             "results":[{"_class":"ORKStepResult","identifier":"camera","results":[
               {"_class":"ORKFrontFacingCameraStepResult","identifier":"camera","fileName":"face.mp4",
                "contentType":"video/mp4","retryCount":1},
               {"_class":"ORKFrontFacingCameraStepResult","identifier":"missing","fileName":"gone.mov",
                "contentType":"video/quicktime","retryCount":0}]}]}
            """#
        let file = dir.appendingPathComponent("taskResult.json").path
        try Data(task.utf8).write(to: URL(fileURLWithPath: file))
        let input = try AnalysisRegistry.load(path: file)
        let survey = try #require(SurveyAnalysis.analyze(input, options: AnalysisOptions()).first)
        let row = try SurveyTests.row(survey, "camera")
        #expect(row.answerType == "video" && row.value == "face.mp4" && row.contentType == "video/mp4")
        #expect(abs((row.valueNumber ?? 0) - 1.5) < 0.05 && row.unit == "s", "\(String(describing: row.valueNumber))")
        let missing = try SurveyTests.row(survey, "missing")
        #expect(missing.valueNumber == nil && missing.contentType == "video/quicktime")
        #expect(survey.warnings.contains { $0.contains("gone.mov") })
        // FHIR: an attachment; ResearchKit: the result written back.
        let bundle = FHIRExport.bundle(try ExportRecord.records(of: survey), context: ExportContext(input: input))
        #expect(try ResultEncoding.json(bundle.bundle).contains("\"valueAttachment\""))
    }

    @Test(arguments: ["1.500000", "0", "N/A", "inf", "1e300", "-2", "", "nan"])
    func durationsFromFFprobe(text: String) {
        let parsed = FFmpegMediaProbe.parsedDuration(text + "\n")
        let expected: Double? = ["1.500000": 1.5, "0": 0][text]
        #expect(parsed == expected, "\(text)")
    }
}
