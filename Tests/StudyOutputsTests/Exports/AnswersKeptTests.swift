import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs
@testable import StudyOutputs

/// Every answer kept or warned about, in the result itself (issue 54 item 2).
///
/// Fixtures written by hand from ResearchKit's headers and `ORKESerialization.m`: `page-edited-boolean.json` holds
/// a Boolean written as 123 (ResearchKit's own serializer sample's value), an `ORKPageResult` of two steps, a pain
/// step answered 3 then edited to 6 (the first step result `isPreviousResult`), and an `ORKVideoInstructionStepResult`;
/// `family-history.json` is ORKCatalog's family history step (parent and sibling groups, their form items and the
/// health-conditions item) with two relatives. Expected values are the fixtures', not the code's.
@Suite struct AnswersKeptTests {
    /// The registry's survey result of a fixture (so the record's warnings are in it), and the input.
    static func survey(_ name: String, text transform: (String) -> String = { $0 }, drop: Bool = false) throws
        -> (SurveyResult, LoadedInput)
    {
        let text = transform(try String(contentsOfFile: SurveyFixtures.path(name), encoding: .utf8))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("answers-kept-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let input = try AnalysisRegistry.load(path: path)
        var options = AnalysisOptions()
        options.dropsIdentifiers = drop
        let analyses = AnalysisRegistry.analyze(input, options: options)
        let surveys = analyses.flatMap(\.results).compactMap { $0.result as? SurveyResult }
        try #require(surveys.count == 1, "\(analyses.map(\.failure))")
        return (surveys[0], input)
    }

    static func values(_ s: SurveyResult) -> [String] {
        s.answers.map { "\($0.stepIdentifier)/\($0.questionIdentifier)=\($0.value ?? "-")" }
    }

    @Test func pageResultsEditsBooleansAndUnreadClassesAreKeptOrWarned() throws {
        let (s, _) = try Self.survey("page-edited-boolean.json")
        #expect(Self.values(s) == ["intro/intro=true", "mood/mood=4", "sleep/sleep=7.5", "pain/pain=6"])
        #expect(s.answers.first { $0.questionIdentifier == "sleep" }?.unit == "h")
        // The edited answer: 6 is the answer, 3 its history.
        #expect(s.previousAnswers.map(\.value) == ["3"])
        #expect(s.previousAnswers.first?.endDate?.description == "2025-03-04T10:00:30+01:00")
        #expect(s.answers.count == 4 && s.answeredCount == 4, "the superseded answer is not counted")
        // The Boolean read as NSNumber boolValue reads it, and said so on the record.
        #expect(s.answers[0].valueNumber == 1)
        #expect(s.warnings.contains { $0.contains("booleanAnswer") && $0.contains("123") }, "\(s.warnings)")
        // The class taskproc does not read is named on the record, with its step.
        #expect(
            s.warnings.contains { $0.contains("step video") && $0.contains("ORKVideoInstructionStepResult") },
            "\(s.warnings)")
        #expect(!s.warnings.contains { $0.contains("isPreviousResult") }, "the edit is marked: no guess to warn about")
        #expect(!s.warnings.contains { $0.contains("ORKPageResult") }, "a page result is read")
    }

    @Test func booleanEncodingsReadAsResearchKitDoes() throws {
        for (written, value, warned) in [("1", 1.0, false), ("0", 0, false), ("true", 1, false), ("-2", 1, true)] {
            let (s, _) = try Self.survey("page-edited-boolean.json") {
                $0.replacingOccurrences(of: "\"booleanAnswer\":123", with: "\"booleanAnswer\":\(written)")
            }
            #expect(s.answers[0].valueNumber == value, "\(written)")
            #expect(s.warnings.contains { $0.contains("booleanAnswer") } == warned, "\(written): \(s.warnings)")
        }
        // Text is not a Boolean: still an error naming the key.
        let text = try String(contentsOfFile: SurveyFixtures.path("page-edited-boolean.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"booleanAnswer\":123", with: "\"booleanAnswer\":\"yes\"")
        #expect(throws: InputError.self) { try ResearchKitDecoder.decode(Data(text.utf8), file: "b.json") }
    }

    @Test func repeatsWithoutTheMarkKeepTheLastAndSaySo() throws {
        let (s, _) = try Self.survey("page-edited-boolean.json") {
            $0.replacingOccurrences(
                of: "\"identifier\":\"pain\",\"isPreviousResult\":true,", with: "\"identifier\":\"pain\",")
        }
        #expect(s.answers.filter { $0.questionIdentifier == "pain" }.map(\.value) == ["6"])
        #expect(s.previousAnswers.map(\.value) == ["3"])
        #expect(
            s.warnings.contains { $0.contains("pain/pain is answered 2 times") && $0.contains("isPreviousResult") },
            "\(s.warnings)")
        // Both marked previous (a participant who backed out twice): the last is still the answer.
        let (both, _) = try Self.survey("page-edited-boolean.json") {
            $0.replacingOccurrences(
                of: "{\"_class\":\"ORKStepResult\",\"identifier\":\"pain\",\"results\"",
                with: "{\"_class\":\"ORKStepResult\",\"identifier\":\"pain\",\"isPreviousResult\":true,\"results\"")
        }
        #expect(both.answers.filter { $0.questionIdentifier == "pain" }.map(\.value) == ["6"])
    }

    @Test func familyHistoryGivesEachRelativesAnswers() throws {
        let (s, _) = try Self.survey("family-history.json")
        #expect(s.answers.count == 8)
        #expect(Set(s.answers.map(\.stepIdentifier)) == ["familyHistoryStep"])
        let parent = s.answers.filter { $0.relativeIdentifier == "8C3E1F2A-0000-4000-8000-000000000001" }
        #expect(
            parent.map(\.questionIdentifier) == [
                "ParentNameIdentifier", "ParentSexAtBirthIdentifier", "ParentVitalStatusIdentifier",
                "ParentAgeFormItemIdentifier", "HealthConditionsFormItem",
            ])
        #expect(parent.allSatisfy { $0.relativeGroup == "ParentGroupIdentifier" })
        #expect(parent.last?.choiceValues == [.string("heartDisease"), .string("diabetes")])
        let sibling = s.answers.filter { $0.relativeGroup == "SiblingGroupIdentifier" }
        #expect(sibling.map(\.value) == ["Sam", "male", "none"])
        #expect(s.warnings.isEmpty, "\(s.warnings)")

        // The relative's name (the cell title answer) is an identifier.
        let (dropped, _) = try Self.survey("family-history.json", drop: true)
        let withheld = dropped.answers.filter { $0.withheld == "identifier" }.map(\.questionIdentifier)
        #expect(withheld == ["ParentNameIdentifier", "SiblingNameIdentifier"])
        #expect(dropped.warnings.contains { $0.contains("2 identifying answers") }, "\(dropped.warnings)")
        #expect(!String(decoding: try JSONEncoder().encode(dropped), as: UTF8.self).contains("Mum"))
    }

    @Test func exportsKeepRelativesApartAndSendOnlyFinalAnswers() throws {
        let (s, input) = try Self.survey("family-history.json")
        let records = try ExportRecord.records(of: s)
        let context = ExportContext(input: input)
        // FHIR: one group per relative inside the step's group; linkIds unique among siblings.
        let bundle = FHIRExport.bundle(records, context: context).bundle
        let response = try #require(
            bundle.objectValue?["entry"]?.arrayValue?.first?.objectValue?["resource"]?.objectValue)
        let step = try #require(response["item"]?.arrayValue?.first?.objectValue)
        #expect(step["linkId"]?.stringValue == "familyHistoryStep")
        let relatives = step["item"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(
            relatives.map { $0["linkId"]?.stringValue } == [
                "familyHistoryStep/8C3E1F2A-0000-4000-8000-000000000001",
                "familyHistoryStep/8C3E1F2A-0000-4000-8000-000000000002",
            ])
        #expect(relatives.map { $0["text"]?.stringValue } == ["ParentGroupIdentifier", "SiblingGroupIdentifier"])
        #expect(relatives.map { $0["item"]?.arrayValue?.count } == [5, 3])
        // MORK: each item_oid once, the relative's place telling them apart.
        let items = try MORKExport.fieldData(records, context: context, configuration: MORKExport.Configuration())
        let oids = items.compactMap { $0.objectValue?["item_oid"]?.stringValue }
        #expect(oids.count == 8 && Set(oids).count == 8)
        #expect(oids.contains("HealthConditionsFormItem_1") && oids.contains("HealthConditionsFormItem_2"))
        #expect(oids.contains("SiblingNameIdentifier_2"))
        // researchkit: written as a family history result, read back to the same answers.
        let written = ResearchKitExport.stepResults(records, context: context)
        let back = try ResearchKitDecoder.decode(written, file: "export.json")
        let again = SurveyAnalysis.survey(try #require(back.result), source: nil)
        #expect(again.answers.map(\.value) == s.answers.map(\.value))
        #expect(again.answers.map(\.relativeIdentifier) == s.answers.map(\.relativeIdentifier))
        #expect(again.answers.map(\.relativeGroup) == s.answers.map(\.relativeGroup))

        // An edited answer: MORK sends pain once, FHIR has one pain item.
        let (edited, editedInput) = try Self.survey("page-edited-boolean.json")
        let editedRecords = try ExportRecord.records(of: edited)
        let editedItems = try MORKExport.fieldData(
            editedRecords, context: ExportContext(input: editedInput), configuration: MORKExport.Configuration())
        let pains = editedItems.compactMap(\.objectValue).filter { $0["item_oid"]?.stringValue == "pain" }
        #expect(pains.map { $0["data_value"]?.stringValue } == ["6"])
    }

    /// The shapes of ResearchKit's serializer samples (`samples.bundle/ORKPageResult.json`,
    /// `ORKFamilyHistoryResult.json`): every key documented, nothing unmodelled.
    @Test func serializerSampleShapesDecodeWithoutWarnings() throws {
        let page = """
            {"_class":"ORKPageResult","endDate":"2019-05-27T00:35:06-0700","startDate":"2019-05-27T00:35:06-0700",
             "device":{"_class":"ORKDevice","product":"","osVersion":"","osBuild":"","platform":""},
             "taskRunUUID":"637A93BE-FE56-4397-8D6B-D42378A6C977","identifier":"","results":[],"userInfo":{}}
            """
        let decodedPage = try ResearchKitDecoder.decode(Data(page.utf8), file: "page.json")
        #expect(decodedPage.warnings.isEmpty, "\(decodedPage.warnings)")
        #expect(decodedPage.result?.task?.header.className == "ORKPageResult")
        let history = """
            {"_class":"ORKFamilyHistoryResult","relatedPersons":[],"displayedConditions":[],
             "endDate":"2019-05-27T00:35:06-0700","startDate":"2019-05-27T00:35:06-0700","identifier":"","userInfo":{}}
            """
        let decodedHistory = try ResearchKitDecoder.decode(Data(history.utf8), file: "history.json")
        #expect(decodedHistory.warnings.isEmpty, "\(decodedHistory.warnings)")
        #expect(decodedHistory.result?.familyHistory?.relatedPersons == [])
        // A relative must be an ORKRelatedPerson, and a displayed condition a string.
        for bad in [
            history.replacingOccurrences(
                of: "\"relatedPersons\":[]", with: "\"relatedPersons\":[{\"_class\":\"ORKDevice\"}]"),
            history.replacingOccurrences(of: "\"displayedConditions\":[]", with: "\"displayedConditions\":[3]"),
        ] {
            #expect(throws: InputError.self) { try ResearchKitDecoder.decode(Data(bad.utf8), file: "history.json") }
        }
    }
}
