import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs

/// Scored ResearchKit active tasks (issue 19): hand-made results whose scores are worked out by hand in the comments,
/// never taken from the code's output.
@Suite struct ScoredTaskTests {
    static func fixture(_ name: String) -> String {
        fixturePath("scored/" + name)
    }

    static func results(_ name: String, kind: TaskKind) throws -> [ScoredTaskResult] {
        let input = try AnalysisRegistry.load(path: fixture(name))
        #expect(input.kinds == [kind], "\(input.kinds)")
        #expect(!input.problems.contains { $0.message.contains("not modelled") }, "\(input.problems)")
        return AnalysisRegistry.analyze(input, options: AnalysisOptions()).flatMap(\.results).compactMap {
            $0.result as? ScoredTaskResult
        }
    }

    /// Six trials (color/text/selected, start→end s):
    /// 1 RED/RED/RED 10→10.5, 2 GREEN/GREEN/GREEN 12→12.75 (congruent, correct);
    /// 3 BLUE/RED/BLUE 14→15 (incongruent, correct), 4 RED/GREEN/GREEN 16→16.5 (incongruent, wrong: the word),
    /// 5 YELLOW/BLUE/YELLOW 18→19.25 (incongruent, correct), 6 BLUE/BLUE/— 20→— (congruent, no answer: wrong).
    @Test func stroopScoresAKnownRun() throws {
        let results = try Self.results("stroop.json", kind: .stroop)
        try #require(results.count == 1)
        let r = results[0]
        #expect(r.kind == "stroop" && r.stepIdentifier == "stroop")
        #expect(r.startDate?.description == "2024-05-01T10:00:08-04:00", "the step's own dates")
        let expected: [(String, Double?)] = [
            ("trials", 6), ("correct", 4), ("accuracy", 4.0 / 6),
            ("meanResponseTime", (0.5 + 0.75 + 1.0 + 0.5 + 1.25) / 5), ("medianResponseTime", 0.75),
            ("meanCorrectResponseTime", (0.5 + 0.75 + 1.0 + 1.25) / 4), ("medianCorrectResponseTime", (0.75 + 1.0) / 2),
            ("congruentTrials", 3), ("incongruentTrials", 3), ("congruentAccuracy", 2.0 / 3),
            ("incongruentAccuracy", 2.0 / 3), ("congruentMeanCorrectResponseTime", (0.5 + 0.75) / 2),
            ("incongruentMeanCorrectResponseTime", (1.0 + 1.25) / 2), ("interferenceEffect", 1.125 - 0.625),
        ]
        #expect(r.scores.map(\.key) == expected.map { $0.0 })
        for (key, value) in expected {
            let found = r.value(key)
            #expect(found == value, "\(key): \(String(describing: found))")
        }
        #expect(r.warnings == ["1 of 6 trials have no colorSelected (counted as wrong)"])
    }

    static func expect(_ r: ScoredTaskResult, _ expected: [(String, Double?)], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.scores.map(\.key) == expected.map { $0.0 }, sourceLocation: sourceLocation)
        for (key, value) in expected {
            let found = r.value(key)
            #expect(found == value, "\(r.stepIdentifier) \(key): \(String(describing: found))", sourceLocation: sourceLocation)
        }
    }

    /// Trail of 13 targets tapped in order at 1, 2, …, 13 s, with two wrong taps (4.5 s, 8.5 s) in between.
    @Test func trailMakingScoresAKnownTrail() throws {
        let r = try #require(try Self.results("trailmaking.json", kind: .trailMaking).first)
        Self.expect(r, [
            ("taps", 15), ("correctTaps", 13), ("errors", 2), ("completed", 1), ("completionTime", 13),
            ("timePerTarget", 1),
        ])
        #expect(r.warnings.isEmpty)
    }

    /// Six digits: correct T T T F F T (the fourth unanswered), times 1.5 2 2.5 3 1 2.5 s; dyads (1,2) (2,3).
    @Test func psatScoresAKnownRun() throws {
        let r = try #require(try Self.results("psat.json", kind: .psat).first)
        Self.expect(r, [
            ("presentationMode", 1), ("interStimulusInterval", 3), ("stimulusDuration", 0), ("digits", 6),
            ("totalCorrect", 4), ("totalDyad", 2), ("totalTime", 12.5), ("accuracy", 4.0 / 6), ("unanswered", 1),
            ("meanResponseTime", (1.5 + 2.0 + 2.5 + 1.0 + 2.5) / 5), ("meanCorrectResponseTime", (1.5 + 2.0 + 2.5 + 2.5) / 4),
            ("firstHalfAccuracy", 1), ("secondHalfAccuracy", 1.0 / 3), ("fatigue", 1.0 / 3 - 1),
        ])
    }

    /// Four games: spans 2 and 3 succeeded, 4 failed, 4 timed out: the maximum span is 3, not the board's 9 tiles.
    @Test func spatialSpanScoresTheLongestSuccessfulSequence() throws {
        let r = try #require(try Self.results("spatialspan.json", kind: .spatialSpanMemory).first)
        Self.expect(r, [
            ("score", 50), ("numberOfGames", 4), ("numberOfFailures", 2), ("successfulGames", 2), ("failedGames", 1),
            ("timedOutGames", 1), ("maximumSpan", 3),
        ])
    }

    /// Seven moves 1.5 s apart (the first at 0), solved.
    @Test func towerOfHanoiScoresAKnownSolution() throws {
        let r = try #require(try Self.results("towerofhanoi.json", kind: .towerOfHanoi).first)
        Self.expect(r, [("solved", 1), ("moves", 7), ("time", 9), ("meanTimePerMove", 1.5)])
    }

    /// Dominant hand: 9 of 9 pegs in 22.5 s; non-dominant: 8 of 9 in 30 s (not completed, with a warning).
    @Test func holePegScoresEachHand() throws {
        let results = try Self.results("holepeg.json", kind: .holePeg)
        try #require(results.count == 2)
        Self.expect(results[0], [
            ("dominantHand", 1), ("movingDirection", 1), ("numberOfPegs", 9), ("successes", 9), ("failures", 1),
            ("totalTime", 22.5), ("totalDistance", 1800), ("timePerPeg", 2.5), ("meanPegTime", 2.5), ("completed", 1),
        ])
        Self.expect(results[1], [
            ("dominantHand", 0), ("movingDirection", 1), ("numberOfPegs", 9), ("successes", 8), ("failures", 3),
            ("totalTime", 30), ("totalDistance", 1600), ("timePerPeg", 3.75), ("meanPegTime", 3.75), ("completed", 0),
        ])
        #expect(results[1].warnings == ["8 of 9 pegs moved"])
    }

    /// Knee: the recorded angles, range = |88 − 10.5| = 77.5°. Shoulder: a recorded range of 90° where
    /// |160 − 79| = 81°, kept as recorded with a warning.
    @Test func rangeOfMotionKeepsTheRecordedAnglesAndChecksTheRange() throws {
        let results = try Self.results("rangeofmotion.json", kind: .rangeOfMotion)
        try #require(results.count == 2)
        Self.expect(results[0], [("start", 87.5), ("finish", 12.25), ("minimum", 10.5), ("maximum", 88), ("range", 77.5)])
        #expect(results[0].warnings.isEmpty && results[0].stepIdentifier == "knee.range.of.motion")
        #expect(results[1].value("range") == 90)
        #expect(results[1].warnings == ["range 90° is not |maximum − minimum| = 81°"])
    }

    /// ResearchKit's own serializer sample (every value 0) is a result of its kind.
    @Test func theSerializerSampleIsAResult() throws {
        let input = try AnalysisRegistry.load(path: sharedDataPath("researchkit-samples/ORKRangeOfMotionResult.json"))
        let results = AnalysisRegistry.analyze(input, options: AnalysisOptions()).flatMap(\.results)
        try #require(results.count == 1)
        let r = try #require(results[0].result as? ScoredTaskResult)
        #expect(r.kind == "rangeOfMotion" && r.scores.allSatisfy { $0.value == 0 })
    }

    /// A predefined task's active step without any result object (the participant quit it) is still a result of
    /// its kind: zero counts, no scores, and a warning; instruction steps give nothing.
    @Test(arguments: [
        ("stroop", TaskKind.stroop, "trials", "ORKStroopResult"), ("psat", .psat, "digits", "ORKPSATResult"),
        ("hole.peg.test.dominant.place", .holePeg, "successes", "ORKHolePegTestResult"),
        ("speech.recognition", .speechRecognition, "words", "ORKSpeechRecognitionResult"),
        ("amsler.grid.left", .amslerGrid, "paths", "ORKAmslerGridResult"),
    ])
    func anEmptyPredefinedStepIsAResult(step: String, kind: TaskKind, count: String, className: String) throws {
        let dir = TemporaryDirectory()
        let file = dir.path("empty.json")
        try #"{"_class":"ORKTaskResult","identifier":"t","taskRunUUID":"5B1E9F0C-2D3A-4B5C-8D7E-6F5A4B3C2D1E","results":["#
            .appending(#"{"_class":"ORKStepResult","identifier":"instruction","results":[]},"#)
            .appending(#"{"_class":"ORKStepResult","identifier":"\#(step)","results":[]}]}"#)
            .write(toFile: file, atomically: true, encoding: .utf8)
        let input = try AnalysisRegistry.load(path: file)
        #expect(input.kinds == [kind])
        let results = AnalysisRegistry.analyze(input, options: AnalysisOptions()).flatMap(\.results)
        try #require(results.count == 1)
        let r = try #require(results[0].result as? ScoredTaskResult)
        #expect(r.stepIdentifier == step && r.kind == kind.rawValue)
        #expect(r.value(count) == (kind == .holePeg ? nil : 0), "\(r.scores)")
        #expect(r.warnings.first == "the step holds no \(className) (the participant may have skipped or quit it)")
    }

    /// Two accuracy Stroop steps: a correct tap after 1.25 s, 12.5 pt from the centre; a tap on no circle after 2.5 s.
    @Test func accuracyStroopScoresEachStep() throws {
        let results = try Self.results("accuracystroop.json", kind: .accuracyStroop)
        try #require(results.count == 2)
        Self.expect(results[0], [("correct", 1), ("timeTakenToSelect", 1.25), ("distanceToClosestCenter", 12.5)])
        Self.expect(results[1], [("correct", 0), ("timeTakenToSelect", 2.5), ("distanceToClosestCenter", 80)])
    }

    /// A reaction-time task folder: three attempts with stimuli at 10, 20 and 30 s (uptime), whose device-motion
    /// files end at 10.25, 20.5 and 30.375 s: reaction times 0.25, 0.5 and 0.375 s (mean and median 0.375 s, sample
    /// SD 0.125 s). The motion files belong to the task (no walking result is made of them).
    @Test func reactionTimeReadsEachAttemptsMotionFile() throws {
        let input = try AnalysisRegistry.load(path: Self.fixture("reactiontime"))
        #expect(input.kinds == [.reactionTime] && input.dialect == .researchKitTaskFolder, "\(input.kinds)")
        #expect(input.recordings.count == 3 && input.children.isEmpty)
        let results = AnalysisRegistry.analyze(input, options: AnalysisOptions()).flatMap(\.results)
        try #require(results.count == 1)
        let r = try #require(results[0].result as? ScoredTaskResult)
        Self.expect(r, [
            ("attempts", 3), ("timedAttempts", 3), ("meanReactionTime", (0.25 + 0.5 + 0.375) / 3),
            ("medianReactionTime", 0.375), ("sdReactionTime", 0.125), ("minimumReactionTime", 0.25),
            ("maximumReactionTime", 0.5),
        ])
        #expect(r.warnings.isEmpty)
        // A lone result file has no motion files beside it: the attempts are counted, without reaction times.
        var warnings: [String] = []
        let alone = ReactionTimeAnalysis.scores(
            [ScoredFields(JSONObject([("timestamp", .number(10))]), path: "ORKReactionTimeResult 1")], warnings: &warnings)
        #expect(alone.first { $0.key == "attempts" }?.value == 1 && alone.first { $0.key == "meanReactionTime" }?.value == nil)
        #expect(warnings.count == 1)
    }

    /// A mistyped field excludes what it belongs to, with a warning; the step is still a result.
    @Test func aMistypedFieldIsLeftOutWithAWarning() throws {
        var warnings: [String] = []
        let trial = ScoredFields(
            JSONObject([
                ("startTime", .string("soon")), ("endTime", .number(3)), ("color", .string("RED")),
                ("text", .string("RED")), ("colorSelected", .string("RED")),
            ]), path: "ORKStroopResult 1")
        let scores = StroopAnalysis.scores([trial], warnings: &warnings)
        #expect(scores.first { $0.key == "correct" }?.value == 1)
        #expect(scores.first { $0.key == "meanResponseTime" }?.value == nil)
        #expect(warnings == ["ORKStroopResult 1: startTime is string \"soon\", not a finite number; left out"])
    }
}
