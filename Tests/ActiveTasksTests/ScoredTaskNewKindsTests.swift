import Foundation
import RealModule
import Testing
import TestSupport

@testable import ActiveTasks

/// The scored kinds added for issue 19's second round (normalized reaction time, speech recognition, speech in
/// noise, Amsler grid): hand-made results whose scores are worked out by hand in the comments.
@Suite struct ScoredTaskNewKindsTests {
    /// Compares every score with the expected value (times within 10⁻⁹ s: they are differences of parsed dates;
    /// counts exactly), and the keys in order.
    static func expect(
        _ r: ScoredTaskResult, _ expected: [(String, Double?)], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let numeric = r.scores.filter { !$0.isText }
        #expect(numeric.map(\.key) == expected.map { $0.0 }, sourceLocation: sourceLocation)
        for (key, value) in expected {
            let found = r.value(key)
            switch (found, value) {
            case (nil, nil): continue
            case (let f?, let v?):
                #expect(
                    f.isApproximatelyEqual(to: v, absoluteTolerance: 1e-9),
                    "\(r.stepIdentifier) \(key): \(f), expected \(v)", sourceLocation: sourceLocation)
            default:
                Issue.record(
                    "\(r.stepIdentifier) \(key): \(String(describing: found)), expected \(String(describing: value))",
                    sourceLocation: sourceLocation)
            }
        }
    }

    // MARK: Normalized reaction time

    /// Five attempts on step `reactionTime` (ResearchKit's predefined normalized task reuses the reaction-time
    /// task's identifier), dates with fractional seconds (s after 09:00):
    /// 1 stimulus 12, release 12.25, tap 12.5 → reaction 0.5, release 0.25, movement 0.25;
    /// 2 stimulus 20, release 20.5, tap 21 → 1.0, 0.5, 0.5; 3 stimulus 30, release 30.375, tap 30.75 → 0.75, 0.375,
    /// 0.375; 4 no stimulus (false start); 5 stimulus 50, no tap (timeout).
    /// Reaction times 0.5, 1, 0.75: mean 0.75, median 0.75, SD √((0.0625 + 0.0625 + 0) / 2) = 0.25, min 0.5, max 1;
    /// mean release (0.25 + 0.5 + 0.375) / 3 = 0.375, mean movement the same.
    @Test func normalizedReactionTimeScoresAKnownRun() throws {
        let results = try ScoredTaskTests.results("normalizedreactiontime.json", kind: .normalizedReactionTime)
        try #require(results.count == 1, "an empty reactionTime result must not be made of the normalized step")
        let r = results[0]
        #expect(r.kind == "normalizedReactionTime" && r.stepIdentifier == "reactionTime")
        Self.expect(r, [
            ("attempts", 5), ("validAttempts", 3), ("falseStarts", 1), ("timeouts", 1), ("meanReactionTime", 0.75),
            ("medianReactionTime", 0.75), ("sdReactionTime", 0.25), ("minimumReactionTime", 0.5),
            ("maximumReactionTime", 1), ("meanReleaseTime", 0.375), ("meanMovementTime", 0.375),
        ])
        #expect(r.warnings == ["2 of 5 attempts have no reaction time (false starts: 1, timeouts: 1)"])
    }

    /// ResearchKit's serializer writes whole seconds: reaction times 1, 0 and 2 s (mean 1, SD 1) come with the
    /// 1 s resolution warning.
    @Test func wholeSecondDatesAreFlagged() throws {
        func attempt(_ stimulus: String, _ release: String, _ tap: String) -> String {
            #"{"_class":"ORKNormalizedReactionTimeResult","identifier":"reactionTime","currentInterval":2,"stimulusStartDate":"2019-05-27T00:35:\#(stimulus)-0700","timerStartDate":"2019-05-27T00:35:\#(release)-0700","reactionDate":"2019-05-27T00:35:\#(tap)-0700","timerEndDate":"2019-05-27T00:35:\#(tap)-0700"}"#
        }
        let dir = TemporaryDirectory()
        let file = dir.path("result.json")
        try (#"{"_class":"ORKStepResult","identifier":"reactionTime","results":["#
            + [attempt("10", "10", "11"), attempt("20", "20", "20"), attempt("30", "31", "32")].joined(separator: ",")
            + "]}").write(toFile: file, atomically: true, encoding: .utf8)
        let input = try InputLoader.load(path: file)
        #expect(input.kinds == [.normalizedReactionTime], "\(input.kinds)")
        let r = try #require(AnalysisRegistry.analyze(input).flatMap(\.results).first?.result as? ScoredTaskResult)
        #expect(r.value("meanReactionTime") == 1 && r.value("sdReactionTime") == 1)
        #expect(r.warnings.contains { $0.hasPrefix("every time is a whole number of seconds: the dates have 1 s resolution") })
    }

    /// A reaction before the stimulus and a release outside stimulus…tap are left out with warnings; a date that does
    /// not parse is a warning, never a trap.
    @Test func oddNormalizedAttemptsAreWarnings() {
        var warnings: [String] = []
        let backwards = ScoredFields(
            JSONObject([
                ("stimulusStartDate", .string("2024-01-01T00:00:10Z")), ("reactionDate", .string("2024-01-01T00:00:09Z")),
            ]), path: "ORKNormalizedReactionTimeResult 1")
        let lateRelease = ScoredFields(
            JSONObject([
                ("stimulusStartDate", .string("2024-01-01T00:00:20Z")), ("timerStartDate", .string("2024-01-01T00:00:22Z")),
                ("reactionDate", .string("2024-01-01T00:00:21.5Z")),
            ]), path: "ORKNormalizedReactionTimeResult 2")
        let garbled = ScoredFields(
            JSONObject([("stimulusStartDate", .string("yesterday")), ("reactionDate", .number(3))]),
            path: "ORKNormalizedReactionTimeResult 3")
        let scores = NormalizedReactionTimeAnalysis.scores([backwards, lateRelease, garbled], warnings: &warnings)
        let value = { (key: String) in scores.first { $0.key == key }?.value }
        // Only attempt 2 has a reaction time: 21.5 − 20 = 1.5 s; the garbled one counts as a false start.
        #expect(value("validAttempts") == 1 && value("meanReactionTime") == 1.5 && value("falseStarts") == 1)
        #expect(value("meanReleaseTime") == nil)
        #expect(warnings.contains("ORKNormalizedReactionTimeResult 1: reactionDate is before stimulusStartDate; no reaction time"))
        #expect(warnings.contains { $0.hasPrefix("ORKNormalizedReactionTimeResult 2: timerStartDate (the release) is not between") })
        #expect(warnings.contains("ORKNormalizedReactionTimeResult 3: stimulusStartDate \"yesterday\" is not an ISO 8601 date with an offset; left out"))
        #expect(warnings.contains("ORKNormalizedReactionTimeResult 3: reactionDate is number 3, not a date string; left out"))
    }

    // MARK: Text outputs

    /// A text output is a JSON string, a CSV cell and a table row, and never a coded measure.
    @Test func textOutputsRenderAndAreNotExported() throws {
        let r = ScoredTaskResult(
            kind: "speechRecognition", stepIdentifier: "speech.recognition",
            scores: [TaskScore("transcription", text: "hello, world"), TaskScore("words", 2, "count")])
        let json = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(r)) as? [String: Any])
        #expect(json["transcription"] as? String == "hello, world")
        #expect((json["units"] as? [String: String])?["transcription"] == "text")
        #expect(r.csvTable.header.contains("transcription") && r.csvTable.rows[0].contains("hello, world"))
        #expect(r.tableSections.flatMap(\.rows).contains { $0 == ("transcription", "hello, world") })
        var skipped: [String] = []
        let measures = StroopAnalysis.exportMeasures(of: r, skipped: &skipped)  // any scored analysis: codes come from the result
        #expect(measures.map(\.code) == ["speechRecognition.words"])
    }
}
