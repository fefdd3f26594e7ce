import Foundation
import TestSupport
import Testing

/// `--consent-contract` end to end (issue 54 item 5): `analyze --consent-document` and batch's `consent/`, checked
/// with coreutils' `sha1sum` and `sha256sum` (not taskproc's own digests) and the FHIR validator.
@Suite struct ConsentArtefactsEndToEndTests {
    static let contract = E2E.fixture("survey/consent-contract.json")
    static let consent = E2E.fixture("survey/consent-eligibility.json")

    static func coreutils(_ tool: String, _ arguments: [String], in folder: String? = nil) throws -> ProcessOutput {
        if let folder {
            return try runProcess(
                URL(fileURLWithPath: "/bin/sh"), ["-c", "cd \"$0\" && \(tool) \"$@\"", folder] + arguments)
        }
        return try runProcess(URL(fileURLWithPath: "/usr/bin/" + tool), arguments)
    }

    @Test func analyzeWritesTheDocumentTheExportPointsTo() throws {
        let dir = try E2E.temporaryDirectory("consent-doc")
        defer { E2E.remove(dir) }
        let html = dir.appendingPathComponent("P1.html").path
        let bundle = dir.appendingPathComponent("bundle.json").path
        let run = try E2E.run([
            "analyze", Self.consent, "--consent-contract", Self.contract, "--consent-document", html, "--format",
            "fhir", "--fhir-consent", "contract", "--participant", "P1", "-o", bundle,
        ])
        #expect(run.status == ExpectedExit.success, "\(run.stderr)")
        let sha256 = try Self.coreutils("sha256sum", [html]).stdout.prefix(64)
        #expect(run.stderr.contains("SHA-256 \(sha256)"))
        // The Contract's attachment: R4's SHA-1 hash (base64) of the very file written.
        let sha1Hex = String(try Self.coreutils("sha1sum", [html]).stdout.prefix(40))
        var bytes: [UInt8] = []
        var i = sha1Hex.startIndex
        while i < sha1Hex.endIndex {
            let j = sha1Hex.index(i, offsetBy: 2)
            bytes.append(UInt8(sha1Hex[i..<j], radix: 16) ?? 0)
            i = j
        }
        let object = try E2E.object(try String(contentsOfFile: bundle, encoding: .utf8))
        let contract = try #require(
            (object["entry"] as? [[String: Any]])?.compactMap { $0["resource"] as? [String: Any] }
                .first { $0["resourceType"] as? String == "Contract" })
        let attachment = try #require(contract["legallyBindingAttachment"] as? [String: Any])
        #expect(attachment["hash"] as? String == Data(bytes).base64EncodedString())
        #expect(attachment["url"] as? String == "P1.html")
        let validation = try E2E.validateFHIR([bundle])
        #expect(validation.status == 0, "\(validation.output)")
        // The record's JSON carries the eligibility it was checked with.
        let json = try E2E.run(["analyze", Self.consent, "--consent-contract", Self.contract])
        let result = try #require(try E2E.objects(json.stdout).first)
        #expect((result["eligibility"] as? [String: Any])?["status"] as? String == "eligible")
    }

    @Test func analyzeRefusesWhatItCannotAttest() throws {
        let dir = try E2E.temporaryDirectory("consent-refuse")
        defer { E2E.remove(dir) }
        let html = dir.appendingPathComponent("doc.html").path
        let noContract = try E2E.run(["analyze", Self.consent, "--consent-document", html])
        #expect(noContract.status == ExpectedExit.usage && noContract.stderr.contains("--consent-contract"))
        let noDecision = try E2E.run([
            "analyze", E2E.fixture("survey/family-history.json"), "--consent-contract", Self.contract,
            "--consent-document", html,
        ])
        #expect(noDecision.status == ExpectedExit.dataError && noDecision.stderr.contains("no consent decision"))
        #expect(!FileManager.default.fileExists(atPath: html))
        let bad = dir.appendingPathComponent("bad.json").path
        try E2E.write(##"{"resourceType": "Contract", "subject": [{"reference": "#missing"}]}"##, to: bad)
        let unreadable = try E2E.run(["analyze", Self.consent, "--consent-contract", bad])
        #expect(unreadable.status == ExpectedExit.dataError && unreadable.stderr.contains("subject[0]"))
        let missing = try E2E.run([
            "analyze", Self.consent, "--consent-contract", dir.appendingPathComponent("none.json").path,
        ])
        #expect(missing.status == ExpectedExit.missingInput)
    }

    @Test func batchWritesOneDocumentPerConsentWithEligibilityOverAllAnswers() throws {
        let dir = try E2E.temporaryDirectory("consent-batch")
        defer { E2E.remove(dir) }
        let input = dir.appendingPathComponent("in").path
        // P1 signs and answers eligibility in the consent task; P2 signs ResearchKit 3's way and answers the
        // eligibility questions in a survey of its own, taken before: one ineligible answer (age 16).
        try FileManager.default.createDirectory(atPath: input + "/healthCode=P1", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: input + "/healthCode=P2", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.consent, toPath: input + "/healthCode=P1/consent.json")
        try FileManager.default.copyItem(
            atPath: E2E.fixture("survey/consent-researchkit3.json"), toPath: input + "/healthCode=P2/consent.json")
        try E2E.write(
            """
            {"_class": "ORKTaskResult", "identifier": "eligibility", "taskRunUUID": "1B2C3D4E-0000-4000-8000-000000000002",
             "startDate": "2025-03-01T09:00:00+0100", "endDate": "2025-03-01T09:01:00+0100", "results": [
              {"_class": "ORKStepResult", "identifier": "eligibilityStep", "results": [
                {"_class": "ORKNumericQuestionResult", "identifier": "age", "questionType": 5, "numericAnswer": 16,
                 "endDate": "2025-03-01T09:00:30+0100"},
                {"_class": "ORKBooleanQuestionResult", "identifier": "pregnant", "questionType": 1, "booleanAnswer": 0,
                 "endDate": "2025-03-01T09:00:40+0100"}]},
              {"_class": "ORKStepResult", "identifier": "livesInUS", "results": [
                {"_class": "ORKBooleanQuestionResult", "identifier": "livesInUS", "questionType": 1, "booleanAnswer": 1,
                 "endDate": "2025-03-01T09:00:50+0100"}]}]}
            """, to: input + "/healthCode=P2/eligibility.json")
        let out = dir.appendingPathComponent("out").path
        let run = try E2E.run(["batch", input, "-o", out, "--consent-contract", Self.contract])
        #expect(run.status == ExpectedExit.success, "\(run.stderr)")
        #expect(run.stderr.contains("consent documents: 2 in consent/"))
        let folder = out + "/consent"
        let check = try Self.coreutils("sha256sum", ["-c", "SHA256SUMS"], in: folder)
        #expect(
            check.status == 0 && check.stdout.components(separatedBy: ": OK").count - 1 == 2,
            "\(check.stdout)\(check.stderr)")
        let index = try E2E.csvTable(try String(contentsOfFile: folder + "/index.csv", encoding: .utf8))
        #expect(index.rows.map { $0["participant"] } == ["P1", "P2"])
        #expect(index.rows.map { $0["eligibility"] } == ["eligible", "ineligible"])
        #expect(index.rows.map { $0["sharingScope"] } == ["all_qualified_researchers", "sponsors_and_partners"])
        #expect(index.rows.map { $0["status"] } == ["signed", "signed"])
        // Each signed Contract passes the R4 models and the structure checks, and points to its document.
        var bundles: [String] = []
        for row in index.rows {
            let name = try #require(row["document"]).replacingOccurrences(of: ".html", with: "")
            let text = try String(contentsOfFile: folder + "/" + name + ".contract.json", encoding: .utf8)
            let contract = try E2E.object(text)
            #expect((contract["legallyBindingAttachment"] as? [String: Any])?["url"] as? String == name + ".html")
            let bundle = dir.appendingPathComponent(name + ".bundle.json").path
            try E2E.write(
                #"{"resourceType": "Bundle", "type": "collection", "entry": [{"fullUrl": "urn:uuid:\#(contract["id"] as? String ?? "")", "resource": \#(text)}]}"#,
                to: bundle)
            bundles.append(bundle)
        }
        let validation = try E2E.validateFHIR(bundles)
        #expect(validation.status == 0, "\(validation.output)")
        // A second output of the same run (resume of a finished run) leaves the documents byte-identical.
        let before = try String(contentsOfFile: folder + "/SHA256SUMS", encoding: .utf8)
        let resumed = try E2E.run(["batch", input, "-o", out, "--resume"])
        #expect(resumed.status == ExpectedExit.success, "\(resumed.stderr)")
        #expect(try String(contentsOfFile: folder + "/SHA256SUMS", encoding: .utf8) == before)
    }
}
