import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyBatch
@testable import StudyInputs

/// The `taskAnswers` column of batch CSVs: the same task's answers beside each active-task row.
@Suite struct TaskAnswersColumnTests {
    @Test func answersWithAValueOnlyAndNeverASecret() throws {
        #expect(RecordAnalysis.taskAnswers([]) == "")
        let input = try AnalysisRegistry.load(path: SurveyFixtures.path("registration.json"))
        let results = AnalysisRegistry.analyze(input).flatMap(\.results)
        let text = RecordAnalysis.taskAnswers(results)
        let object = try #require(try JSONParser.parse(Data(text.utf8), file: "cell").objectValue)
        #expect(object["ORKRegistrationFormItemGender"] == .string("female"))
        #expect(object["sharingStep"] == .string("0") && object["participant"] == .string("true"))
        #expect(object["ORKRegistrationFormItemPassword"] == nil)
        for secret in SurveyFixtures.secrets { #expect(!text.contains(secret)) }
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
