import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyBatch
@testable import StudyInputs

/// MyDataHelps survey exports (issue 18 item 1): `SurveyQuestionResults.csv` and
/// `SurveyConsentSignatureResults.csv` with the export's `SurveyResults.csv` and `SurveyStepResults.csv` beside them,
/// and the survey answers API's JSON. The fixtures are written by hand from CareEvolution's documented field lists
/// (the API's answer object verbatim from its documentation); every expected value below is read off the fixture.
@Suite struct MyDataHelpsSurveyTests {
    static func fixture(_ name: String) -> String {
        fixturePath("mydatahelps-survey/" + name)
    }

    static func surveys(_ path: String, options: AnalysisOptions = AnalysisOptions()) throws -> [SurveyResult] {
        let input = try AnalysisRegistry.load(path: path)
        #expect(input.kinds == [.survey] && input.dialect == .myDataHelps, "\(input.kinds) \(input.dialect)")
        #expect(!input.problems.contains { $0.severity == .error }, "\(input.problems)")
        return SurveyAnalysis.analyze(input, options: options)
    }

    static func answer(_ survey: SurveyResult, _ question: String) throws -> SurveyAnswer {
        try #require(survey.answers.first { $0.questionIdentifier == question }, "no row for \(question)")
    }

    @Test func questionResultsGroupByParticipantAndSurveyResultWithTheJoinTables() throws {
        let results = try Self.surveys(Self.fixture("SurveyQuestionResults.csv"))
        #expect(results.map(\.surveyResultKey) == ["SR-1", "SR-2"])
        #expect(results.map(\.participantIdentifier) == ["P-0001", "P-0002"])
        let first = results[0]
        // SurveyResults.csv gives the name and the dates; SurveyStepResults.csv the steps and theirs.
        #expect(first.taskIdentifier == "Daily Check-in")
        #expect(first.startDate?.description == "2024-05-02T08:00:05-04:00")
        #expect(first.endDate?.description == "2024-05-02T08:01:40-04:00")
        #expect(first.answers.map(\.stepIdentifier) == ["Mood", "Medication", "About you", "About you", "About you", "About you"])
        #expect(first.warnings == ["1 answer is a secret (a password or passcode field) and was not read"])

        let mood = try Self.answer(first, "Mood")
        #expect(mood.answerType == "untyped" && mood.className == MyDataHelpsSurveys.questionClass)
        #expect(mood.value == "4" && mood.valueNumber == 4 && mood.valueText == nil && mood.choiceValues == [.string("4")])
        #expect(mood.startDate?.description == "2024-05-02T08:00:05-04:00")
        #expect(mood.endDate?.description == "2024-05-02T08:00:20-04:00")

        let medication = try Self.answer(first, "Medication")
        #expect(medication.choiceValues == [.string("Just took it"), .string("Before breakfast")])
        #expect(medication.value == "Just took it|Before breakfast")
        #expect(medication.valueNumber == nil && medication.valueText == nil, "several answers: no single typed value")

        let comment = try Self.answer(first, "Comment")
        #expect(comment.valueText == "Fine, a little tired" && comment.valueNumber == nil)
        // Only a decimal number as written is a number: an exponent stays text.
        let sleep = try Self.answer(first, "Sleep hours")
        #expect(sleep.valueText == "-0.5e1" && sleep.valueNumber == nil)
        let weight = try Self.answer(first, "Weight")
        #expect(weight.skipped && weight.value == nil && weight.choiceValues == nil)
        let password = try Self.answer(first, "ORKRegistrationFormItemPassword")
        #expect(password.withheld == "secret" && password.value == nil && password.choiceValues == nil)

        let second = results[1]
        #expect(second.startDate?.description == "2024-05-02T21:10:00+02:00")
        #expect(try Self.answer(second, "Medication").valueText == "I don't take medication")
    }

    /// No value of a secret reaches any rendering of the results.
    @Test func theSecretIsNeverRead() throws {
        let results = try Self.surveys(Self.fixture("SurveyQuestionResults.csv"))
        for result in results {
            let json = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
            let csv = result.csvTable.rows.flatMap { $0 }.joined(separator: ",")
            #expect(!json.contains("hunter2") && !csv.contains("hunter2"))
        }
    }

    @Test func consentSignaturesAreConsentRowsAndDecisions() throws {
        let results = try Self.surveys(Self.fixture("SurveyConsentSignatureResults.csv"))
        #expect(results.map(\.participantIdentifier) == ["P-0001", "P-0002"])
        #expect(results.map(\.taskIdentifier) == ["Consent", "Consent"])
        let signed = try #require(results[0].answers.first)
        #expect(signed.answerType == "consentSignature" && signed.stepIdentifier == "CONSENT")
        #expect(signed.consented == true && signed.signatureGivenName == "Ada" && signed.signatureFamilyName == "Muster")
        #expect(signed.signatureDate == "2024-04-30" && signed.startDate?.description == "2024-04-30T10:00:00-04:00")
        let decision = ConsentDecision(results[0])
        #expect(decision.status == .signed && decision.flow == .consentReview && !decision.declined)
        #expect(decision.signerName == "Ada Muster")
        #expect(decision.signedAt?.description == results[0].answers[0].endDate?.description)
        let declined = try #require(results[1].answers.first)
        #expect(declined.consented == false && declined.value == "false" && declined.valueNumber == 0)
        #expect(ConsentDecision(results[1]).declined)

        // --drop-identifiers withholds the signer's name and date, as for ResearchKit.
        var options = AnalysisOptions()
        options.dropsIdentifiers = true
        let dropped = try Self.surveys(Self.fixture("SurveyConsentSignatureResults.csv"), options: options)
        #expect(dropped[0].answers[0].signatureGivenName == nil && dropped[0].answers[0].signatureDate == nil)
        #expect(dropped[0].answers[0].consented == true)
    }

    /// The JSON export nests the same fields as the CSV tables: the same survey result read from either gives the
    /// same answers; a step without results (an instruction) gives none.
    @Test func theJSONExportGivesTheAnswersOfTheCSVExport() throws {
        let json = try Self.surveys(Self.fixture("SurveyResults.json"))
        #expect(json.map(\.surveyResultKey) == ["SR-1", "SR-4"])
        let csv = try Self.surveys(Self.fixture("SurveyQuestionResults.csv"))
        #expect(json[0].answers == csv[0].answers)
        #expect(json[0].taskIdentifier == csv[0].taskIdentifier && json[0].startDate == csv[0].startDate)
        #expect(json[0].endDate == csv[0].endDate && json[0].warnings == csv[0].warnings)
        let consents = try Self.surveys(Self.fixture("SurveyConsentSignatureResults.csv"))
        var declined = try #require(json[1].answers.first)
        #expect(declined.questionIdentifier == "CONSENT" && declined.consented == false)
        declined.questionIdentifier = consents[1].answers[0].questionIdentifier
        #expect(declined == consents[1].answers[0])
    }

    /// Only a decimal number as written is a number; what a Double would round or reinterpret stays text.
    @Test func decimalNumbersAsWritten() {
        let numbers: [(String, Double)] = [("5", 5), ("-0.5", -0.5), ("+3", 3), ("12.75", 12.75), ("0", 0)]
        for (text, x) in numbers { #expect(MyDataHelpsSurveys.decimalNumber(text) == x, "\(text)") }
        for text in ["1e3", " 5", "5 ", "inf", "nan", ".", "-", "1.2.3", "0x10", "12345678901234567890", "1,5", ""] {
            #expect(MyDataHelpsSurveys.decimalNumber(text) == nil, "\(text)")
        }
    }

    /// The API's documented answer object, verbatim, and a second answer with two values.
    @Test func apiAnswersAreRead() throws {
        let results = try Self.surveys(Self.fixture("survey-answers-api.json"))
        try #require(results.count == 1)
        let r = results[0]
        #expect(r.surveyResultKey == "230b27b1-df0d-441d-8485-a929cdf4895a" && r.participantIdentifier == "P-0003")
        #expect(r.taskIdentifier == "Sleep Time" && r.warnings.isEmpty)
        let hours = try Self.answer(r, "Sleep Hours")
        #expect(hours.valueNumber == 5 && hours.value == "5" && hours.endDate?.description == "2020-11-09T15:38:00.196-05:00")
        let quality = try Self.answer(r, "Quality")
        #expect(quality.stepIdentifier == "Sleep Quality" && quality.value == "Restless|Woke up twice")
    }

    /// Without `SurveyStepResults.csv` or a `StepIdentifier` column, the question identifier stands in for the step,
    /// and the result says so; a bad cell fails its row only, located.
    @Test func withoutTheStepTableTheStepIsSaidToBeTheQuestion() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mdh-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let csv = """
            SurveyResultKey,ParticipantIdentifier,ResultIdentifier,Answers,StartDate
            SR-9,P-9,Mood,3,2024-01-01T10:00:00Z
            SR-9,P-9,Energy,4,yesterday
            SR-9,,Sleep,7,
            """
        try csv.write(toFile: folder + "/SurveyQuestionResults.csv", atomically: true, encoding: .utf8)
        let input = try AnalysisRegistry.load(path: folder + "/SurveyQuestionResults.csv")
        let errors = input.problems.filter { $0.severity == .error }.map(\.description)
        #expect(errors.count == 2, "\(errors)")
        #expect(errors.contains { $0.contains("line 3, column 5") && $0.contains("yesterday") }, "\(errors)")
        #expect(errors.contains { $0.contains("line 4, column 2") && $0.contains("ParticipantIdentifier") }, "\(errors)")
        let results = SurveyAnalysis.analyze(input, options: AnalysisOptions())
        try #require(results.count == 1)
        #expect(results[0].answers.map(\.questionIdentifier) == ["Mood"])
        #expect(results[0].answers[0].stepIdentifier == "Mood")
        #expect(results[0].warnings.contains { $0.contains("its ResultIdentifier") }, "\(results[0].warnings)")
    }

    /// The index tables are read beside the result tables, never as inputs of their own.
    @Test func indexTablesAreNotInputs() throws {
        for name in ["SurveyResults.csv", "SurveyStepResults.csv"] {
            let path = Self.fixture(name)
            guard case .myDataHelpsJoinTable = InputRecognizer.recognizeFile(path) else {
                Issue.record("\(name) is not recognised as an index table")
                continue
            }
            let outcome = RecordAnalysis.analyze(recordAt: path)
            #expect(outcome.results.isEmpty)
            #expect(outcome.failure?.contains("index table of a MyDataHelps export") == true, "\(outcome.failure ?? "")")
        }
        #expect(InputRecognizer.recognizeFile("/x/surveyresults.csv.gz") == .myDataHelpsJoinTable("surveyresults"))
        #expect(InputRecognizer.recognizeFile("/x/MySurveyResults.csv") == .table)
    }

    /// A batch with `--consent-from-records` over the export: the declined participant's rows of every table are
    /// not read (counted in a warning), the index tables are skipped, nothing fails.
    @Test func consentFromRecordsDecidesTheRowsOfTables() async throws {
        let folder = try BatchSupport.temporaryFolder("mdh-consent")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: Self.fixture(""), toPath: folder + "/export")
        var policy = ConsentPolicy()
        policy.fromRecords = true
        let summary = try await BatchRunner.run(
            configuration: BatchConfiguration(inputs: [.init(folder + "/export")], consent: policy),
            analysis: RecordAnalysis.Options(), outputFolder: folder + "/out", mode: .fresh(force: false), jobs: 2)
        #expect(summary.counts.failed == 0 && summary.skippedFiles == 2)
        #expect(summary.consentScan?.declined == ["P-0002"] && summary.consentScan?.unattributed == [])
        let csv = try String(contentsOfFile: folder + "/out/survey.csv", encoding: .utf8)
        #expect(csv.contains("P-0001") && csv.contains("P-0003") && !csv.contains("P-0002"))
        let results = try String(contentsOfFile: folder + "/out/results.jsonl", encoding: .utf8)
        #expect(results.contains("consent policy: 2 rows of 1 participant not read (2 withdrawn)"))
        #expect(results.contains("consent policy: 1 row of 1 participant not read (1 withdrawn)"))
    }
}
