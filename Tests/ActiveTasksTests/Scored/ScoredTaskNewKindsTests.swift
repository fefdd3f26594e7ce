import Foundation
import RealModule
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs

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
        let input = try AnalysisRegistry.load(path: file)
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

    // MARK: Speech

    /// "Today is a sunny day." — 5 words, 5 segments with confidences 0.5, 0.75, 1, 1, 0.75 (mean 4 / 5 = 0.8);
    /// iOS 14.5 metadata: 120 words/min, pauses 0.25 s, speech from 0.5 s for 2.5 s.
    @Test func speechRecognitionScoresAKnownTranscription() throws {
        let results = try ScoredTaskTests.results("speechrecognition.json", kind: .speechRecognition)
        try #require(results.count == 1)
        let r = results[0]
        #expect(r.stepIdentifier == "speech.recognition" && r.text("transcription") == "Today is a sunny day.")
        Self.expect(r, [
            ("words", 5), ("segments", 5), ("meanConfidence", 0.8), ("speakingRate", 120),
            ("averagePauseDuration", 0.25), ("speechStartTimestamp", 0.5), ("speechDuration", 2.5),
        ])
        #expect(r.scores.first { $0.key == "speakingRate" }?.unit == "words/min")
        #expect(r.warnings.isEmpty)
    }

    /// Before iOS 14.5 the rate and pauses are on the transcription; segments all at confidence 0 (a partial
    /// transcription) give no mean confidence and a warning.
    @Test func olderSpeechRecognitionFields() {
        var warnings: [String] = []
        let o = ScoredFields(
            JSONObject([
                ("transcription", .object(JSONObject([
                    ("formattedString", .string("hello there")), ("speakingRate", .number(90)),
                    ("averagePauseDuration", .number(0.5)),
                    ("segments", .array([
                        .object(JSONObject([("substring", .string("hello")), ("confidence", .number(0))])),
                        .object(JSONObject([("substring", .string("there")), ("confidence", .number(0))])),
                    ])),
                ]))),
            ]), path: "ORKSpeechRecognitionResult 1")
        let scores = SpeechRecognitionAnalysis.scores([o], warnings: &warnings)
        let value = { (key: String) in scores.first { $0.key == key }?.value }
        #expect(value("words") == 2 && value("segments") == 2 && value("meanConfidence") == nil)
        #expect(value("speakingRate") == 90 && value("averagePauseDuration") == 0.5 && value("speechDuration") == nil)
        #expect(warnings == [
            "ORKSpeechRecognitionResult 1: every segment's confidence is 0, as in a partial (hypothesised) transcription; no mean confidence"
        ])
    }

    /// Two sentences. 1: target "The actor tried three green pictures" (6 words), heard "The actor tried 3 green
    /// picture." → the, actor, tried, green = 4 of 6; edited "the actor tried three green pictures" → 6 of 6.
    /// 2: target "The girl saved two great roses", heard "the girl saved to great roses, roses" → the, girl, saved,
    /// great, roses (once: the target has one) = 5 of 6; no edit step follows (the conclusion does).
    @Test func speechInNoiseScoresEachSentenceAgainstWhatFollows() throws {
        let input = try AnalysisRegistry.load(path: ScoredTaskTests.fixture("speechinnoise.json"))
        #expect(input.kinds == [.speechInNoise, .speechRecognition, .survey], "\(input.kinds)")
        #expect(!input.problems.contains { $0.message.contains("not modelled") }, "\(input.problems)")
        let all = AnalysisRegistry.analyze(input).flatMap(\.results)
        let results = all.compactMap { $0.result as? ScoredTaskResult }
        let sentences = results.filter { $0.kind == "speechInNoise" }
        try #require(sentences.count == 2)
        #expect(results.filter { $0.kind == "speechRecognition" }.map(\.stepIdentifier) == ["speech.in.noise2", "speech.in.noise4"])
        let first = sentences[0]
        #expect(first.stepIdentifier == "speech.in.noise1")
        #expect(first.text("targetSentence") == "The actor tried three green pictures")
        #expect(first.text("speechFile") == "Sentence1.wav")
        #expect(first.text("transcription") == "The actor tried 3 green picture.")
        #expect(first.text("editedTranscription") == "the actor tried three green pictures")
        Self.expect(first, [
            ("targetWords", 6), ("correctWords", 4), ("wordAccuracy", 4.0 / 6), ("editedCorrectWords", 6),
            ("editedWordAccuracy", 1),
        ])
        #expect(first.warnings.isEmpty)
        let second = sentences[1]
        #expect(second.text("editedTranscription") == nil)
        Self.expect(second, [
            ("targetWords", 6), ("correctWords", 5), ("wordAccuracy", 5.0 / 6), ("editedCorrectWords", nil),
            ("editedWordAccuracy", nil),
        ])
    }

    /// The word rule: split at whitespace, lowercase, drop everything but letters and numbers; matching is a
    /// multiset intersection.
    @Test func theWordRule() {
        #expect(SpeechWords.words("  Don't STOP — well-known, 4 roses!\n") == ["dont", "stop", "wellknown", "4", "roses"])
        #expect(SpeechWords.words("…  ,") == [])
        #expect(SpeechWords.matched(target: ["a", "a", "b"], heard: ["a", "b", "b", "c"]) == 2)
        #expect(SpeechWords.matched(target: ["four"], heard: ["4"]) == 0)
    }

    /// A sentence without a recognition after it, or without a target, is still a result: counts and warnings.
    @Test func aSentenceWithoutItsParts() {
        var warnings: [String] = []
        let scores = SpeechInNoiseAnalysis.scores(
            [ScoredFields(JSONObject([("targetSentence", .string("")), ("filename", .string(""))]), path: "ORKSpeechInNoiseResult 1")],
            warnings: &warnings)
        #expect(scores.first { $0.key == "targetWords" }?.value == 0)
        #expect(scores.first { $0.key == "wordAccuracy" }?.value == nil)
        #expect(warnings == [
            "ORKSpeechInNoiseResult 1: no targetSentence; no word accuracy",
            "ORKSpeechInNoiseResult 1: no ORKSpeechRecognitionResult follows it; no transcription to score",
        ])
    }

    // MARK: Amsler grid

    /// Left eye: a result (something marked) in ResearchKit's JSON, which has no `path`: marked, path count unknown.
    /// Right eye: an empty predefined step, nothing marked: eye 2, marked 0, 0 paths.
    @Test func amslerGridScoresEachEye() throws {
        let results = try ScoredTaskTests.results("amslergrid.json", kind: .amslerGrid)
        try #require(results.count == 2)
        #expect(results.map(\.stepIdentifier) == ["amsler.grid.left", "amsler.grid.right"])
        Self.expect(results[0], [("eyeSide", 1), ("marked", 1), ("paths", nil)])
        #expect(results[0].warnings == [
            "the drawn paths are not in the result (ResearchKit's JSON leaves path out; they are in its drawing-path "
                + "file amsler.grid.left.dat, which taskproc does not read): no path count"
        ])
        Self.expect(results[1], [("eyeSide", 2), ("marked", 0), ("paths", 0)])
        #expect(results[1].warnings.last == "ResearchKit writes no ORKAmslerGridResult when nothing is marked: read as no marked area")
    }

    /// The keyed-archive form keeps `path` (three `UIBezierPath` objects, written by
    /// `Tools/fixtures/make_amsler_keyed_archive.py`): right eye, marked, 3 paths.
    @Test func anArchivedAmslerGridCountsItsPaths() throws {
        let input = try AnalysisRegistry.load(path: fixturePath("scored-archive/amslergrid.keyed.plist"))
        #expect(input.kinds == [.amslerGrid], "\(input.kinds) \(input.problems)")
        let r = try #require(AnalysisRegistry.analyze(input).flatMap(\.results).first?.result as? ScoredTaskResult)
        Self.expect(r, [("eyeSide", 2), ("marked", 1), ("paths", 3)])
        #expect(r.warnings.isEmpty)
    }

    /// An eye side outside 0…2 and a `path` that is not an array are warnings.
    @Test func oddAmslerFields() {
        var warnings: [String] = []
        let scores = AmslerGridAnalysis.scores(
            [ScoredFields(JSONObject([("eyeSide", .number(7)), ("path", .string("M0 0"))]), path: "ORKAmslerGridResult 1")],
            warnings: &warnings)
        #expect(scores.first { $0.key == "eyeSide" }?.value == nil && scores.first { $0.key == "paths" }?.value == nil)
        #expect(warnings == [
            "ORKAmslerGridResult 1: eyeSide 7 is not 0, 1 or 2; left out",
            "ORKAmslerGridResult 1: path is string \"M0 0\", not an array; left out",
        ])
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

/// The 3D-model selection (`ORKUSDZModelManagerResult`): the selection as recorded, worked by hand.
@Suite struct ModelSelectionTests {
    static func scores(_ fields: String) -> ([String: TaskScore], [String]) {
        let json = #"{"_class":"ORKUSDZModelManagerResult","identifier":"usdz.model","# + fields + "}"
        guard case .object(let object)? = try? JSONParser.parse(Data(json.utf8), file: "test") else { return ([:], ["unparsable"]) }
        var warnings: [String] = []
        let scores = ModelSelectionAnalysis.scores([ScoredFields(object, path: "ORKUSDZModelManagerResult 1")], warnings: &warnings)
        return (Dictionary(uniqueKeysWithValues: scores.map { ($0.key, $0) }), warnings)
    }

    @Test func selectionIsReportedAsRecorded() {
        let (s, warnings) = Self.scores(#""identifiersOfSelectedObjects":["knee","hip"],"identifierOfObjectSelectedAtClose":"hip""#)
        #expect(s["selectedObjects"]?.value == 2)
        #expect(s["selectedObjectIdentifiers"]?.text == "knee | hip")
        #expect(s["objectSelectedAtClose"]?.text == "hip")
        #expect(warnings.isEmpty)
    }

    @Test func anEmptySelectionIsAZeroWithAWarning() {
        let (s, warnings) = Self.scores(#""identifiersOfSelectedObjects":[],"identifierOfObjectSelectedAtClose":"""#)
        #expect(s["selectedObjects"]?.value == 0)
        #expect(s["objectSelectedAtClose"]?.text == nil)
        #expect(warnings == ["no object of the 3D model was selected"])
    }

    @Test func aWrongTypeIsLeftOutWithAWarning() {
        let (s, warnings) = Self.scores(#""identifiersOfSelectedObjects":["knee",3]"#)
        #expect(s["selectedObjects"]?.value == 1)
        #expect(warnings.contains { $0.contains("identifiersOfSelectedObjects holds") })
    }
}
