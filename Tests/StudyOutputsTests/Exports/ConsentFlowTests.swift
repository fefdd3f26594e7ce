import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs
@testable import StudyOutputs

/// ResearchKit 3's consent flow (issue 54 item 1).
///
/// On a task result written by hand from ResearchKit's own sources:
/// ORKCatalog's sharing form step (`ConsentSharingFormStepIdentifier`, choices 1 = share widely, 2 = institution
/// only) and the web-view review whose step result holds an `ORKWebViewStepResult` and, when the participant
/// signed, the `ORKSignatureResult` (`ORKWebViewStepViewController.result`; `ORKESerialization.m` writes `result`
/// and no key of the signature's own). Expected values are the fixture's, not the code's.
@Suite struct ConsentFlowTests {
    static let fixture = "consent-researchkit3.json"

    /// The fixture with `replacements` made, analysed with `rules`.
    static func survey(
        _ replacements: [(String, String)] = [], rules: ConsentRules? = nil
    ) throws -> (SurveyResult, LoadedInput) {
        var text = try String(contentsOfFile: SurveyFixtures.path(fixture), encoding: .utf8)
        for (a, b) in replacements {
            try #require(text.contains(a), "the fixture holds \(a)")
            text = text.replacingOccurrences(of: a, with: b)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("consent-flow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("consent.json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let input = try AnalysisRegistry.load(path: path)
        var options = AnalysisOptions()
        options.consent = rules
        let results = SurveyAnalysis.analyze(input, options: options)
        try #require(results.count == 1)
        return (results[0], input)
    }

    static func resources(_ survey: SurveyResult, _ input: LoadedInput, shape: FHIRConsentShape = .consent) throws
        -> (resources: [JSONObject], skipped: [String])
    {
        let output = FHIRExport.bundle(
            try ExportRecord.records(of: survey), context: ExportContext(input: input), consentShape: shape)
        let entries = output.bundle.objectValue?["entry"]?.arrayValue ?? []
        return (entries.compactMap { $0.objectValue?["resource"]?.objectValue }, output.skipped)
    }

    @Test func webViewSignatureIsASignedConsentWithTheFormStepsSharingChoice() throws {
        let (survey, _) = try Self.survey()
        let consent = try #require(survey.consent)
        #expect(consent.status == .signed && consent.flow == .webView)
        #expect(consent.stepIdentifier == "WebViewStepIdentifier")
        #expect(consent.signedAt?.description == "2025-03-04T10:04:18+01:00", "the signature result's end")
        #expect(consent.signerName == nil, "ResearchKit 3's signature carries no name")
        // Choice 2 is ORKCatalog's "Only institution and its partners".
        #expect(consent.scope == .sponsorsAndPartners)
        #expect(consent.sharing?.stepIdentifier == "ConsentSharingFormStepIdentifier")
        #expect(consent.sharing?.questionIdentifier == "TextChoiceFormItem" && consent.sharing?.value == "2")
        #expect(consent.warnings.isEmpty && survey.warnings.isEmpty, "\(survey.warnings)")
        #expect(
            try Self.survey([(#""choiceAnswers": [2]"#, #""choiceAnswers": [1]"#)]).0.consent?.scope
                == .allQualifiedResearchers)
    }

    @Test func fhirConsentAndContractOfTheWebViewFlow() throws {
        let (survey, input) = try Self.survey()
        let (resources, skipped) = try Self.resources(survey, input)
        #expect(resources.map { $0["resourceType"]?.stringValue } == ["QuestionnaireResponse", "Consent"])
        let consent = resources[1]
        #expect(consent["status"] == .string("active"))
        #expect(consent["dateTime"] == .string("2025-03-04T10:04:18+01:00"))
        let sharing = consent["extension"]?.arrayValue?.first?.objectValue
        #expect(sharing?["url"] == .string(ConsentPolicy.sharingScopeExtension))
        #expect(sharing?["valueCode"] == .string("sponsors_and_partners"))
        // The page posted nothing: no empty valueString (invalid R4), and the note says why.
        let text = try ResultEncoding.json(JSONValue.object(resources[0]))
        #expect(!text.contains(#""valueString" : """#) && !text.contains(#""valueString":"""#), "\(text)")
        #expect(skipped.contains { $0.contains("WebViewStepIdentifier") && $0.contains("empty text") }, "\(skipped)")

        let (contracts, _) = try Self.resources(survey, input, shape: .contract)
        let contract = try #require(contracts.first { $0["resourceType"]?.stringValue == "Contract" })
        #expect(contract["status"] == .string("executed"))
        #expect(contract["applies"]?.objectValue?["start"] == .string("2025-03-04T10:04:18+01:00"))
        let signer = contract["signer"]?.arrayValue?.first?.objectValue
        #expect(
            signer?["extension"]?.arrayValue?.first?.objectValue?["valueBoolean"] == .bool(false), "institution only")
    }

    /// A review the participant did not sign (ResearchKit adds no signature result) is no decision: unknown, with a
    /// warning, and no Consent resource.
    @Test func reviewWithoutSignatureIsUnknownAndSaysSo() throws {
        let signature = """
                    },
                    {
                      "_class": "ORKSignatureResult",
                      "identifier": "Signature",
                      "startDate": "2025-03-04T10:04:18+0100",
                      "endDate": "2025-03-04T10:04:18+0100"
                    }
            """
        let (survey, input) = try Self.survey([(signature, "        }")])
        let consent = try #require(survey.consent)
        #expect(consent.status == .unknown && consent.flow == .webView)
        #expect(consent.scope == .sponsorsAndPartners, "the sharing choice still counts")
        #expect(
            survey.warnings.contains { $0.contains("WebViewStepIdentifier holds no signature") }, "\(survey.warnings)")
        let (resources, skipped) = try Self.resources(survey, input)
        #expect(!resources.contains { $0["resourceType"]?.stringValue == "Consent" })
        #expect(skipped.contains { $0.contains("without a decision") }, "\(skipped)")
    }

    /// A choice no rule knows leaves the scope unknown with a warning; `--consent-config` maps it.
    @Test func consentConfigMapsOtherChoices() throws {
        let three = [(#""choiceAnswers": [2]"#, #""choiceAnswers": [3]"#)]
        let (unknown, _) = try Self.survey(three)
        #expect(unknown.consent?.status == .signed && unknown.consent?.scope == nil)
        #expect(
            unknown.warnings.contains { $0.contains("is \"3\", not a choice taskproc knows") }, "\(unknown.warnings)")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "consent-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("consent.json").path
        try #"""
        {"sharing": [{"step": "ConsentSharingFormStepIdentifier", "question": "TextChoiceFormItem",
                      "values": {"1": "all_qualified_researchers", "2": "sponsors_and_partners", "3": "no_sharing"}}]}
        """#.write(toFile: file, atomically: true, encoding: .utf8)
        let rules = try ConsentRules(file: file)
        let (mapped, _) = try Self.survey(three, rules: rules)
        #expect(mapped.consent?.scope == SharingScope.noSharing && mapped.warnings.isEmpty, "\(mapped.warnings)")

        // A decision rule: an answer that says declined wins over the signature.
        var declining = ConsentRules()
        declining.decision = [.init(step: "ConsentSharingFormStepIdentifier", values: ["3": .declined])]
        let (declined, _) = try Self.survey(three, rules: declining)
        #expect(declined.consent?.status == .declined && declined.consent?.flow == .answer)

        // Bad files are refused naming the file, the rule and what is expected.
        for (json, says) in [
            (#"{"sharing": [{"values": {"1": "everyone"}}]}"#, "sharing[0]: values.1: \"everyone\" is not one of"),
            (#"{"sharnig": []}"#, "unknown key \"sharnig\""),
            (#"{"decision": [{"step": 3, "values": {"y": "signed"}}]}"#, "decision[0]: step: expected an identifier"),
            (#"["x"]"#, "expected a JSON object"),
        ] {
            try json.write(toFile: file, atomically: true, encoding: .utf8)
            #expect {
                _ = try ConsentRules(file: file)
            } throws: { error in
                "\(error)".contains(file) && "\(error)".contains(says)
            }
        }
    }

    /// The legacy review keeps its reading: a signed `ORKConsentSignatureResult` is signed with the signer's name, a
    /// declined one declined, and its sharing step's 0 is the study only.
    @Test func legacyReviewIsReadAsBefore() throws {
        let input = try AnalysisRegistry.load(path: SurveyFixtures.path("registration.json"))
        let survey = try #require(SurveyAnalysis.analyze(input, options: AnalysisOptions()).first)
        let consent = try #require(survey.consent)
        #expect(consent.status == .signed && consent.flow == .consentReview)
        #expect(consent.scope == .sponsorsAndPartners)
    }
}
