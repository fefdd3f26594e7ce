import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs
@testable import StudyOutputs

/// The report: a per-record answer table, and over several records the answer distributions (issue 18 item 8).
@Suite struct SurveyReportTests {
    static func record(_ name: String, participant: String, edit: (String) -> String = { $0 }) throws -> ReportRecord {
        let text = edit(try String(contentsOfFile: SurveyFixtures.path(name), encoding: .utf8))
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
        for secret in SurveyFixtures.secrets { #expect(!html.contains(secret)) }
    }
}
