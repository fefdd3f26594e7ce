import Foundation
import TestSupport
import Testing

/// Surveys through the command line (issue 18): every output format, `inspect` and `batch` (its CSV, JSON lines,
/// errors and SQLite files), and the rule that no secret (password, passcode) reaches any of them.
@Suite struct SurveyEndToEndTests {
    static let secrets = ["Zx9-passcode-Secret", "Hunter2-Registration-Secret"]
    static let inputs = ["survey/all-answer-types.json", "survey/registration.json"]

    /// Every byte of every file under `folder`, as text (SQLite pages included: a secret would show as its UTF-8).
    static func allText(under folder: URL) throws -> String {
        var text = ""
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = files?.nextObject() as? URL {
            if let data = try? Data(contentsOf: url) { text += String(decoding: data, as: UTF8.self) }
        }
        return text
    }

    @Test(arguments: ["json", "table", "csv", "researchkit", "mork", "fhir"])
    func analyzeInEveryFormatHoldsNoSecret(format: String) throws {
        let dir = try E2E.temporaryDirectory("survey-\(format)")
        defer { E2E.remove(dir) }
        let config = dir.appendingPathComponent("mork.json").path
        try E2E.write(
            #"{"envelope": {"subject_name": "P-0001", "study_uuid": "S-1", "folder_oid": "SCREENING", "form_oid": "TASK"}}"#,
            to: config)
        for input in Self.inputs {
            var arguments = ["analyze", E2E.fixture(input), "--format", format]
            if format == "mork" { arguments += ["--mork-config", config] }
            let run = try E2E.run(arguments)
            for secret in Self.secrets {
                #expect(!run.stdout.contains(secret) && !run.stderr.contains(secret), "\(input) --format \(format)")
            }
            if ["json", "table", "csv"].contains(format) {
                #expect(run.status == ExpectedExit.success, "\(input) --format \(format): \(run.stderr)")
            }
        }
    }

    @Test func jsonAndCSVCarryTheRows() throws {
        let json = try E2E.run(["analyze", E2E.fixture("survey/registration.json")])
        #expect(json.status == ExpectedExit.success, "\(json.stderr)")
        // A task result's results are a JSON array (one element here), as for every ResearchKit task.
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        try #require(array.count == 1)
        let object = array[0]
        #expect(object["kind"] as? String == "survey" && object["answerCount"] as? Int == 9)
        #expect(object["withheldCount"] as? Int == 2)
        let csv = try E2E.run(["analyze", E2E.fixture("survey/registration.json"), "--format", "csv"])
        let lines = csv.stdout.split(separator: "\n")
        #expect(lines.count == 10, "header and 9 answer rows")
        #expect(lines.first?.hasPrefix("taskRunUUID,taskIdentifier,stepIdentifier,questionIdentifier,answerType,value,") == true)
    }

    /// Without `--mork-config`: exit 0, the `field_data` array alone, a note on standard error.
    @Test func morkWithoutAConfigurationWritesTheFieldDataArray() throws {
        let run = try E2E.run(["analyze", E2E.fixture("survey/registration.json"), "--format", "mork"])
        #expect(run.status == ExpectedExit.success, "\(run.stderr)")
        let items = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: String]])
        #expect(items.map { $0["item_oid"] ?? "" } == [
            "ORKRegistrationFormItemEmail", "ORKRegistrationFormItemGivenName", "ORKRegistrationFormItemFamilyName",
            "ORKRegistrationFormItemGender", "ORKRegistrationFormItemDOB", "sharingStep", "participant",
        ])
        #expect(items.first { $0["item_oid"] == "ORKRegistrationFormItemDOB" }?["data_value"] == "1987-03-09T16:48:33")
        #expect(run.stderr.contains("wrote the field_data array alone"), "\(run.stderr)")
    }

    /// The survey bundles pass the independent FHIR validator (`Tools/validators/fhir_validate.py`).
    @Test func fhirBundlesAreValid() throws {
        let dir = try E2E.temporaryDirectory("survey-fhir")
        defer { E2E.remove(dir) }
        var files: [String] = []
        for (input, shape) in (Self.inputs + ["survey/walking-with-mood"]).flatMap({ i in ["consent", "contract"].map { (i, $0) } }) {
            let run = try E2E.run(["analyze", E2E.fixture(input), "--format", "fhir", "--fhir-consent", shape])
            #expect(run.status == ExpectedExit.success, "\(input): \(run.stderr)")
            #expect(run.stdout.contains("\"QuestionnaireResponse\""), "\(input)")
            let file = dir.appendingPathComponent("\(files.count).json").path
            try E2E.write(run.stdout, to: file)
            files.append(file)
        }
        let validation = try E2E.validateFHIR(files)
        #expect(validation.status == 0, "\(validation.output)")
    }

    /// The consent tests' participants: P1 shares broadly (choice 1), P2 with the study only (0), P3 declined.
    static let people: [(id: String, consented: Bool, sharing: Int)] = [("P1", true, 1), ("P2", true, 0), ("P3", false, 1)]

    /// The registration task with `person`'s consent decision and sharing choice.
    static func consent(_ person: (id: String, consented: Bool, sharing: Int)) throws -> String {
        try String(contentsOfFile: E2E.fixture("survey/registration.json"), encoding: .utf8)
            .replacingOccurrences(of: #""consented":true"#, with: "\"consented\":\(person.consented)")
            .replacingOccurrences(of: #""choiceAnswers":[0]"#, with: "\"choiceAnswers\":[\(person.sharing)]")
    }

    /// Consent drives processing (issue 18 item 6), in two runs: the consent records' FHIR export
    /// (`export.fhir.jsonl`: each signature's decision and the task's sharing choice) is the next run's
    /// `--sharing-scopes` and `--withdrawals`. P1 shares broadly, P2 with the study only, P3 declined.
    @Test(arguments: ["consent", "contract"])
    func consentRecordsDriveTheNextBatch(shape: String) throws {
        let dir = try E2E.temporaryDirectory("survey-consent")
        defer { E2E.remove(dir) }
        for person in Self.people {
            try E2E.write(try Self.consent(person), to: dir.path + "/consents/healthCode=\(person.id)/consent.json")
            try FileManager.default.createDirectory(
                atPath: dir.path + "/study/healthCode=\(person.id)", withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: E2E.fixture("survey/all-answer-types.json"),
                toPath: dir.path + "/study/healthCode=\(person.id)/survey.json")
        }
        let first = try E2E.run([
            "batch", dir.path + "/consents", "--out", dir.path + "/c", "--format", "fhir", "--fhir-consent", shape,
            "--no-progress",
        ])
        #expect(try String(contentsOfFile: dir.path + "/c/export.fhir.jsonl", encoding: .utf8).contains(
            shape == "contract" ? "\"Contract\"" : "\"Consent\""))
        #expect(first.status == ExpectedExit.success, "\(first.stderr)")
        let consents = dir.path + "/c/export.fhir.jsonl"

        let scoped = try E2E.run([
            "batch", dir.path + "/study", "--out", dir.path + "/s1", "--sharing-scope", "all_qualified_researchers",
            "--sharing-scopes", consents, "--no-progress",
        ])
        #expect(scoped.status == ExpectedExit.success, "\(scoped.stderr)")
        let rows = try String(contentsOfFile: dir.path + "/s1/survey.csv", encoding: .utf8)
        #expect(rows.contains("healthCode=P1") && !rows.contains("healthCode=P2") && !rows.contains("healthCode=P3"))
        #expect(scoped.stderr.contains("2 excluded by consent") && scoped.stderr.contains("2 sharingScope"), "\(scoped.stderr)")

        let withdrawn = try E2E.run([
            "batch", dir.path + "/study", "--out", dir.path + "/s2", "--withdrawals", consents, "--no-progress",
        ])
        #expect(withdrawn.status == ExpectedExit.success, "\(withdrawn.stderr)")
        let kept = try String(contentsOfFile: dir.path + "/s2/survey.csv", encoding: .utf8)
        #expect(kept.contains("healthCode=P1") && kept.contains("healthCode=P2") && !kept.contains("healthCode=P3"))
        #expect(withdrawn.stderr.contains("1 withdrawn"), "\(withdrawn.stderr)")
    }

    /// Consent drives processing within one run (`--consent-from-records`): the consent records among the inputs
    /// are read before anything is analysed. P1 shares broadly, P2 with the study only, P3 declined; each has a
    /// consent record and a survey record under `healthCode=…/`, and one consent record names no participant.
    @Test func consentRecordsDriveTheSameBatch() throws {
        let dir = try E2E.temporaryDirectory("survey-consent-one-run")
        defer { E2E.remove(dir) }
        let template = try String(contentsOfFile: E2E.fixture("survey/registration.json"), encoding: .utf8)
        for person in Self.people {
            try E2E.write(try Self.consent(person), to: dir.path + "/study/healthCode=\(person.id)/consent/consent.json")
            // A walking task with a mood question (no consent in it).
            try FileManager.default.copyItem(
                atPath: E2E.fixture("survey/walking-with-mood"), toPath: dir.path + "/study/healthCode=\(person.id)/walk")
        }
        try E2E.write(template, to: dir.path + "/study/unfiled/consent.json")

        // Declines only: P3's two records are withdrawn, everything else is analysed.
        let declines = try E2E.run([
            "batch", dir.path + "/study", "--out", dir.path + "/d", "--consent-from-records", "--no-progress",
        ])
        #expect(declines.status == ExpectedExit.success, "\(declines.stderr)")
        let kept = try String(contentsOfFile: dir.path + "/d/survey.csv", encoding: .utf8)
        #expect(kept.contains("healthCode=P1") && kept.contains("healthCode=P2") && !kept.contains("healthCode=P3"))
        #expect(declines.stderr.contains("2 excluded by consent (2 withdrawn)"), "\(declines.stderr)")
        #expect(
            declines.stderr.contains(
                "consent from records: 4 consent records read: 1 participant key declined, 3 with a sharing choice; "
                    + "1 without a participant key in the path"), "\(declines.stderr)")
        #expect(declines.stderr.contains("no participant key in the path: \(dir.path)/study/unfiled/consent.json"))
        let log = try String(contentsOfFile: dir.path + "/d/.taskproc-batch/runlog.jsonl", encoding: .utf8)
        #expect(log.contains("\"consent-records\""), "the run log records the scan")

        // With a minimum scope: only P1's records remain (P2 chose the study only); the unfiled record has no scope.
        let scoped = try E2E.run([
            "batch", dir.path + "/study", "--out", dir.path + "/s", "--consent-from-records", "--sharing-scope",
            "all_qualified_researchers", "--no-progress",
        ])
        #expect(scoped.status == ExpectedExit.success, "\(scoped.stderr)")
        let rows = try String(contentsOfFile: dir.path + "/s/survey.csv", encoding: .utf8)
        #expect(rows.contains("healthCode=P1") && !rows.contains("healthCode=P2") && !rows.contains("healthCode=P3"))
        #expect(
            scoped.stderr.contains("5 excluded by consent (2 sharingScope, 1 sharingScopeUnknown, 2 withdrawn)"),
            "\(scoped.stderr)")

        // The option is part of the stored run: --resume of the complete run changes nothing.
        let resumed = try E2E.run(["batch", "--resume", "--out", dir.path + "/s", "--no-progress"])
        #expect(resumed.status == ExpectedExit.success, "\(resumed.stderr)")
        #expect(try String(contentsOfFile: dir.path + "/s/survey.csv", encoding: .utf8) == rows)
        let again = try E2E.run([
            "batch", "--resume", "--out", dir.path + "/s", "--consent-from-records", "--no-progress",
        ])
        #expect(again.status == ExpectedExit.usage, "the stored policy cannot be changed on resume: \(again.stderr)")
    }

    /// ResearchKit 3's consent flow drives the same batch (issue 54): ORKCatalog's sharing choice 2 ("Only
    /// institution and its partners") is sponsors_and_partners, so that participant stays in a study-only run
    /// (it was excluded as sharingScopeUnknown); a choice no rule knows is a warning and a line in the summary, and
    /// `--consent-config` maps it.
    @Test func researchKit3ConsentDrivesTheSameBatch() throws {
        let dir = try E2E.temporaryDirectory("survey-consent-rk3")
        defer { E2E.remove(dir) }
        let template = try String(contentsOfFile: E2E.fixture("survey/consent-researchkit3.json"), encoding: .utf8)
        for (id, choice) in [("P1", 1), ("P2", 2), ("P3", 3)] {
            try E2E.write(
                template.replacingOccurrences(of: #""choiceAnswers": [2]"#, with: "\"choiceAnswers\": [\(choice)]"),
                to: dir.path + "/study/healthCode=\(id)/consent/consent.json")
            try FileManager.default.copyItem(
                atPath: E2E.fixture("survey/walking-with-mood"), toPath: dir.path + "/study/healthCode=\(id)/walk")
        }
        let run = try E2E.run([
            "batch", dir.path + "/study", "--out", dir.path + "/a", "--consent-from-records", "--sharing-scope",
            "sponsors_and_partners", "--no-progress",
        ])
        #expect(run.status == ExpectedExit.success, "\(run.stderr)")
        let rows = try String(contentsOfFile: dir.path + "/a/survey.csv", encoding: .utf8)
        #expect(rows.contains("healthCode=P1") && rows.contains("healthCode=P2") && !rows.contains("healthCode=P3"))
        #expect(run.stderr.contains("2 excluded by consent (2 sharingScopeUnknown)"), "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "3 consent records read: 0 participant keys declined, 2 with a sharing choice; 1 whose decision or "
                    + "sharing choice cannot be read"), "\(run.stderr)")

        let config = dir.path + "/consent-config.json"
        try E2E.write(
            #"{"sharing": [{"step": "ConsentSharingFormStepIdentifier", "values": {"3": "sponsors_and_partners"}}]}"#,
            to: config)
        let mapped = try E2E.run([
            "batch", dir.path + "/study", "--out", dir.path + "/b", "--consent-from-records", "--sharing-scope",
            "sponsors_and_partners", "--consent-config", config, "--no-progress",
        ])
        #expect(mapped.status == ExpectedExit.success, "\(mapped.stderr)")
        let all = try String(contentsOfFile: dir.path + "/b/survey.csv", encoding: .utf8)
        #expect(all.contains("healthCode=P1") && all.contains("healthCode=P2") && all.contains("healthCode=P3"))
        #expect(!mapped.stderr.contains("excluded by consent"), "\(mapped.stderr)")

        // analyze shows the decision, and a bad configuration is a data error naming the file.
        let shown = try E2E.run(["analyze", E2E.fixture("survey/consent-researchkit3.json"), "--format", "table"])
        #expect(shown.stdout.contains("signed (webView, step WebViewStepIdentifier)"), "\(shown.stdout)")
        #expect(
            shown.stdout.contains("sponsors_and_partners (ConsentSharingFormStepIdentifier / TextChoiceFormItem = 2)"))
        try E2E.write(#"{"sharing": "all"}"#, to: config)
        let bad = try E2E.run(["analyze", E2E.fixture("survey/consent-researchkit3.json"), "--consent-config", config])
        #expect(bad.status == ExpectedExit.dataError, "\(bad.stderr)")
        #expect(bad.stderr.contains(config + ": sharing: expected an array"), "\(bad.stderr)")
    }

    /// MyDataHelps survey tables and API answers through every format: the rows, no secret anywhere, FHIR bundles
    /// that pass the validator (one QuestionnaireResponse per participant's result, each with its own id and
    /// subject), MORK refusing to put two participants in one form, and the researchkit export saying what it leaves
    /// out.
    @Test func myDataHelpsSurveysInEveryFormat() throws {
        let dir = try E2E.temporaryDirectory("survey-mdh")
        defer { E2E.remove(dir) }
        let questions = E2E.fixture("mydatahelps-survey/SurveyQuestionResults.csv")
        let consents = E2E.fixture("mydatahelps-survey/SurveyConsentSignatureResults.csv")
        let api = E2E.fixture("mydatahelps-survey/survey-answers-api.json")
        let nested = E2E.fixture("mydatahelps-survey/SurveyResults.json")
        var bundles: [String] = []
        for input in [questions, consents, api, nested] {
            for format in ["json", "table", "csv", "fhir", "researchkit"] {
                let run = try E2E.run(["analyze", input, "--format", format])
                #expect(run.status == ExpectedExit.success, "\(input) \(format): \(run.stderr)")
                #expect(!run.stdout.contains("hunter2") && !run.stderr.contains("hunter2"), "\(input) \(format)")
                if format == "fhir" {
                    let file = dir.appendingPathComponent("\(bundles.count).json").path
                    try E2E.write(run.stdout, to: file)
                    bundles.append(file)
                }
                if format == "researchkit" {
                    #expect(run.stdout.filter { !$0.isWhitespace } == "[]", "\(input)")
                    #expect(run.stderr.contains("MyDataHelps survey result"), "\(input): \(run.stderr)")
                }
            }
        }
        #expect(try E2E.validateFHIR(bundles).status == 0)
        let fhir = try String(contentsOfFile: bundles[0], encoding: .utf8)
        #expect(fhir.contains("\"P-0001\"") && fhir.contains("\"P-0002\""), "each response has its subject")
        #expect(fhir.contains("\"valueString\" : \"Just took it\"") && fhir.contains("\"valueString\" : \"Before breakfast\""))

        let csv = try E2E.csvTable(try E2E.run(["analyze", questions, "--format", "csv"]).stdout)
        #expect(csv.rows.count == 8 && csv.rows.allSatisfy { ($0["answerType"] ?? "") == "untyped" })
        #expect(csv.rows.map { $0["participantIdentifier"] ?? "" } == Array(repeating: "P-0001", count: 6) + ["P-0002", "P-0002"])

        let mork = try E2E.run(["analyze", questions, "--format", "mork"])
        #expect(mork.status == ExpectedExit.dataError && mork.stderr.contains("2 participants"), "\(mork.stderr)")
        let one = try E2E.run(["analyze", api, "--format", "mork"])
        #expect(one.status == ExpectedExit.success && one.stdout.contains("\"item_oid\" : \"Quality\""), "\(one.stderr)")
    }

    /// analyze → `--format researchkit` → analyze gives the same answer rows (issue 18 item 7); the secrets were
    /// never exported, and the task identifier is not part of ResearchKit step results.
    @Test func researchKitRoundTripThroughTheCommandLine() throws {
        let dir = try E2E.temporaryDirectory("survey-roundtrip")
        defer { E2E.remove(dir) }
        for input in Self.inputs {
            let exported = try E2E.run(["analyze", E2E.fixture(input), "--format", "researchkit"])
            #expect(exported.status == ExpectedExit.success, "\(exported.stderr)")
            let file = dir.appendingPathComponent("export.json").path
            try E2E.write(exported.stdout, to: file)
            let again = try E2E.run(["analyze", file, "--format", "csv"])
            #expect(again.status == ExpectedExit.success, "\(again.stderr)")
            let original = try E2E.run(["analyze", E2E.fixture(input), "--format", "csv"])
            let before = try E2E.csvTable(original.stdout).rows.filter { ($0["withheld"] ?? "").isEmpty }
            let after = try E2E.csvTable(again.stdout).rows
            #expect(before.count == after.count, "\(input)")
            for (a, b) in zip(before, after) {
                var a = a, b = b
                for key in ["source", "taskIdentifier"] {
                    a[key] = nil
                    b[key] = nil
                }
                #expect(a == b, "\(input): \(a["questionIdentifier"] ?? "")")
            }
        }
    }

    /// `batch --drop-identifiers`: no name, e-mail or birth date in any file, and the option is stored with the run.
    @Test func batchDropsIdentifiers() throws {
        let dir = try E2E.temporaryDirectory("survey-identifiers")
        defer { E2E.remove(dir) }
        let out = dir.appendingPathComponent("out")
        let run = try E2E.run([
            "batch", E2E.fixture("survey/registration.json"), "--out", out.path, "--drop-identifiers", "--format", "fhir",
            "--no-progress",
        ])
        #expect(run.status == ExpectedExit.success, "\(run.stderr)")
        let everything = try Self.allText(under: out)
        for identifying in ["ada@example.org", "Muster", "1987-03-09"] + Self.secrets {
            #expect(!everything.contains(identifying), "\(identifying)")
        }
        #expect(everything.contains("\"withheld\":\"identifier\""))
        #expect(everything.contains("--drop-identifiers"), "stored with the run for --resume")
    }

    @Test func inspectHoldsNoSecret() throws {
        for input in Self.inputs {
            let run = try E2E.run(["inspect", E2E.fixture(input)])
            #expect(run.status == ExpectedExit.success, "\(run.stderr)")
            for secret in Self.secrets { #expect(!run.stdout.contains(secret) && !run.stderr.contains(secret)) }
        }
    }

    /// Batch over the surveys and the walking task with a mood question: a `survey` CSV and SQLite table, no error
    /// records, no secret in any file it writes.
    @Test func batchCarriesSurveysWithoutSecrets() throws {
        let dir = try E2E.temporaryDirectory("survey-batch")
        defer { E2E.remove(dir) }
        let inputs = dir.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        for input in Self.inputs + ["survey/walking-with-mood"] {
            try FileManager.default.copyItem(
                atPath: E2E.fixture(input), toPath: inputs.appendingPathComponent((input as NSString).lastPathComponent).path)
        }
        let out = dir.appendingPathComponent("out")
        let run = try E2E.run(["batch", inputs.path, "--out", out.path])
        #expect(run.status == ExpectedExit.success, "\(run.stderr)")
        let csv = try String(contentsOf: out.appendingPathComponent("survey.csv"), encoding: .utf8)
        #expect(csv.split(separator: "\n").count == 1 + 19 + 9 + 1, "\(csv)")
        let errors = (try? String(contentsOf: out.appendingPathComponent("errors.jsonl"), encoding: .utf8)) ?? ""
        #expect(errors.isEmpty, "\(errors)")
        // The walking row carries the same task's answers (issue 18 item 3: medication timing beside the walk).
        let walking = try E2E.csvTable(
            try String(contentsOf: out.appendingPathComponent("walking.csv"), encoding: .utf8))
        #expect(walking.header.last == "taskAnswers")
        #expect(walking.rows.map { $0["taskAnswers"] } == [#"{"momentInDayFormat":"Immediately before Parkinson medication"}"#])
        let everything = try Self.allText(under: out) + run.stdout + run.stderr
        for secret in Self.secrets { #expect(!everything.contains(secret), "\(secret) in the batch output") }
    }
}
