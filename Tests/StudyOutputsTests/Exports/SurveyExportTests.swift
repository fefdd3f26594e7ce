import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import SensorSignal
@testable import StudyInputs
@testable import StudyOutputs

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
        let json = try String(contentsOfFile: SurveyFixtures.path("all-answer-types.json"), encoding: .utf8)
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
        for item in items { #expect(!SurveyFixtures.secrets.contains(item["data_value"] ?? "")) }
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
        let input = try AnalysisRegistry.load(path: SurveyFixtures.path("registration.json"))
        let survey = try #require(SurveyAnalysis.analyze(input, options: AnalysisOptions()).first)
        let options = ExportOptions(context: ExportContext(input: input))
        let text = try ResultEncoding.render(survey, as: .mork, export: options)
        let parsed = try JSONParser.parse(Data(text.utf8), file: "out")
        let items = try #require(parsed.arrayValue)
        #expect(items.count == 7, "9 answers, 2 withheld")
        #expect(options.notes.count == 1 && options.notes[0].contains("wrote the field_data array alone"))
        for secret in SurveyFixtures.secrets { #expect(!text.contains(secret)) }
    }
}

/// `--format fhir` for surveys: a `QuestionnaireResponse` per task (answer types after C3-PRO's mapping, in R4
/// form) and a `Consent` per consent signature with the sharing scope. The bundles pass the independent validator
/// in `SurveyEndToEndTests`.
@Suite struct SurveyFHIRTests {
    static func resources(_ name: String) throws -> (resources: [JSONObject], skipped: [String]) {
        let input = try AnalysisRegistry.load(path: SurveyFixtures.path(name))
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
        let input = try AnalysisRegistry.load(path: SurveyFixtures.path("registration.json"))
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
        let input = try AnalysisRegistry.load(path: SurveyFixtures.path("registration.json"))
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
        let input = try AnalysisRegistry.load(path: SurveyFixtures.path(name))
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
        for secret in SurveyFixtures.secrets { #expect(!text.contains(secret)) }
    }
}
