import Archives
import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs
@testable import StudyOutputs

/// Consent in, consent out (issue 54 item 5, C3-PRO parity): a signed Contract that follows the study's consent
/// Contract, and a self-contained consent document it points to by its hashes.
///
/// Expected values: the fixture's terms and answers, R4's Contract and Attachment elements, and the validator's
/// R4 models and structure checks.
@Suite struct ConsentDocumentTests {
    static func records(contract: ConsentContract) throws -> [ExportRecord] {
        let input = try AnalysisRegistry.load(path: SurveyFixtures.path("consent-eligibility.json"))
        var options = AnalysisOptions()
        options.consentContract = contract
        let results = AnalysisRegistry.analyze(input, options: options).flatMap(\.results)
        return try results.flatMap { try ExportRecord.records(of: $0.result) }
    }

    @Test func theDocumentAttestsTermsEligibilityAndSignature() throws {
        let contract = try ConsentContract(file: SurveyFixtures.path("consent-contract.json"))
        let record = try #require(try Self.records(contract: contract).first)
        let at = try #require(ResultDate("2026-12-01T09:00:00+00:00"))
        let document = try #require(
            ConsentDocument(record: record, participant: "P1", contract: contract, generatedAt: at))
        let html = document.html
        // The terms, escaped where they are text and as written where they are the study's HTML.
        #expect(html.contains("<h3>1. Welcome</h3>") && html.contains("<p>This study measures how you walk.</p>"))
        #expect(html.contains("Your data are coded &amp; stored &lt;securely&gt;."))
        #expect(html.contains(contract.sha256))
        // Eligibility: three criteria met.
        #expect(html.contains("<h2>Eligibility: eligible</h2>"))
        #expect(html.components(separatedBy: "<td>yes</td>").count - 1 == 3)
        // Who signed, when, and the signature image embedded (no external resource anywhere).
        #expect(html.contains("<td>Erika Muster</td>") && html.contains("<td>2025-03-04T10:04:58+01:00</td>"))
        #expect(html.contains("src=\"data:image/png;base64,iVBORw0KGgo"))
        #expect(!html.contains("src=\"http") && !html.contains("href=") && !html.contains("url("))
        #expect(!html.contains("<script") && !html.contains("<link"))
        // The same inputs give the same bytes.
        let again = try #require(
            ConsentDocument(record: record, participant: "P1", contract: contract, generatedAt: at))
        #expect(again.html == html && again.sha256 == document.sha256)
        #expect(document.size == html.utf8.count)
    }

    @Test func withIdentifiersDroppedTheDocumentHasNoNameAndNoImage() throws {
        let contract = try ConsentContract(file: SurveyFixtures.path("consent-contract.json"))
        let input = try AnalysisRegistry.load(path: SurveyFixtures.path("consent-eligibility.json"))
        var options = AnalysisOptions()
        options.consentContract = contract
        options.dropsIdentifiers = true
        let results = AnalysisRegistry.analyze(input, options: options).flatMap(\.results)
        let record = try #require(try results.flatMap { try ExportRecord.records(of: $0.result) }.first)
        #expect(record.json["consent"]?.objectValue?["signatureImage"] == nil)
        let at = try #require(ResultDate("2026-12-01T09:00:00+00:00"))
        let html = try #require(ConsentDocument(record: record, participant: "P1", contract: contract, generatedAt: at))
            .html
        #expect(!html.contains("Erika") && !html.contains("Muster") && !html.contains("data:image"))
    }

    @Test func theSignedContractFollowsTheStudysAndPassesTheChecks() throws {
        let contract = try ConsentContract(file: SurveyFixtures.path("consent-contract.json"))
        let records = try Self.records(contract: contract)
        var bundles: [JSONValue] = []
        for shape in FHIRConsentShape.allCases {
            for type in FHIRBundleType.allCases {
                var settings = FHIRExport.Settings()
                settings.consentShape = shape
                settings.bundleType = type
                settings.includesPatient = true
                settings.subjectSystem = "https://example.org/participants"
                settings.consentContract = contract
                settings.consentDocumentURL = "P1.html"
                var context = ExportContext()
                context.participant = "P1"
                let bundle = FHIRExport.bundle(records, context: context, settings: settings).bundle
                bundles.append(bundle)
                let resources = FHIRServerShapeTests.resources(bundle)
                let name = shape == .contract ? "Contract" : "Consent"
                let signed = try #require(resources.first { $0["resourceType"]?.stringValue == name })
                let attachment = try #require(
                    signed[shape == .contract ? "legallyBindingAttachment" : "sourceAttachment"]?.objectValue)
                let document = try #require(
                    ConsentDocument(
                        record: records[0], participant: "P1", contract: contract, generatedAt: context.exportedAt))
                #expect(
                    attachment["hash"]?.stringValue
                        == Data(SHA1.digest(Array(document.html.utf8))).base64EncodedString())
                #expect(
                    attachment["url"]?.stringValue == "P1.html" && attachment["contentType"]?.stringValue == "text/html"
                )
                let eligibility = signed["extension"]?.arrayValue?.compactMap(\.objectValue)
                    .first { $0["url"]?.stringValue == FHIRExport.eligibilityExtension }
                #expect(eligibility?["valueCode"]?.stringValue == "eligible")
                if shape == .contract {
                    #expect(signed["status"]?.stringValue == "executed")
                    #expect(signed["instantiatesUri"]?.stringValue == contract.url)
                    #expect(signed["term"]?.arrayValue?.count == 2)
                    // R4 requires a term's offer; C3-PRO's terms have none, so the term's text is offered.
                    #expect(
                        signed["term"]?.arrayValue?.first?.objectValue?["offer"]?.objectValue?["text"]?.stringValue
                            == "You will walk for six minutes once a week.")
                    #expect(signed["subject"]?.arrayValue?.count == 2)
                }
            }
        }
        let validation = try FHIRServerShapeTests.validate(bundles)
        #expect(validation.status == 0, "\(validation.output)")
    }
}
