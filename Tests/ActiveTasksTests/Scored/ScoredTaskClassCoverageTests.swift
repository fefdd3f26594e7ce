import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs

/// Every active-task result class ResearchKit serializes (its `ResearchKitActiveTask` module's result classes, plus
/// the timed walk), as a hand-made minimal instance with every value zero or empty, goes through the path `taskproc
/// analyze` uses (``InputLoader/load(path:)`` then ``AnalysisRegistry/analyze(_:options:)``) and gives a result of
/// its kind, not a failure.
///
/// The touch-ability results (`ORKTouchAbility…Result`) have no serializer entry, so no JSON of them exists; a
/// result of such a class still says why it gives nothing (``unknownClassesSayWhy()``).
@Suite struct ScoredTaskClassCoverageTests {
    /// Class, its fields beyond the `ORKResult` header (zero-valued), the kind of the result expected.
    static let classes: [(String, String, TaskKind)] = [
        ("ORKStroopResult", #""startTime":0,"endTime":0,"color":"","text":"","colorSelected":"""#, .stroop),
        ("ORKAccuracyStroopResult", #""didSelectCorrectColor":false,"timeTakenToSelect":0,"distanceToClosestCenter":0"#, .accuracyStroop),
        ("ORKTrailmakingResult", #""taps":[],"numberOfErrors":0"#, .trailMaking),
        (
            "ORKPSATResult",
            #""presentationMode":0,"interStimulusInterval":0,"stimulusDuration":0,"length":0,"totalCorrect":0,"totalDyad":0,"totalTime":0,"initialDigit":0,"samples":[]"#,
            .psat
        ),
        ("ORKSpatialSpanMemoryResult", #""score":0,"numberOfGames":0,"numberOfFailures":0,"gameRecords":[]"#, .spatialSpanMemory),
        ("ORKTowerOfHanoiResult", #""puzzleWasSolved":false,"moves":[]"#, .towerOfHanoi),
        ("ORKUSDZModelManagerResult", #""identifiersOfSelectedObjects":[],"identifierOfObjectSelectedAtClose":"""#, .modelSelection),
        (
            "ORKHolePegTestResult",
            #""movingDirection":0,"dominantHandTested":false,"numberOfPegs":0,"threshold":0,"rotated":false,"totalSuccesses":0,"totalFailures":0,"totalTime":0,"totalDistance":0,"samples":[]"#,
            .holePeg
        ),
        ("ORKRangeOfMotionResult", #""start":0,"finish":0,"minimum":0,"maximum":0,"range":0"#, .rangeOfMotion),
        ("ORKReactionTimeResult", #""timestamp":0,"fileResults":[]"#, .reactionTime),
        (
            "ORKNormalizedReactionTimeResult",
            #""currentInterval":0,"timerStartDate":"2019-05-27T00:35:06-0700","timerEndDate":"2019-05-27T00:35:06-0700","stimulusStartDate":"2019-05-27T00:35:06-0700","reactionDate":"2019-05-27T00:35:06-0700""#,
            .normalizedReactionTime
        ),
        ("ORKSpeechRecognitionResult", #""transcription":{}"#, .speechRecognition),
        ("ORKSpeechInNoiseResult", #""targetSentence":"","filename":"""#, .speechInNoise),
        ("ORKAmslerGridResult", #""eyeSide":0"#, .amslerGrid),
        (
            "ORKTappingIntervalResult",
            #""samples":[],"stepViewSize":{"h":0,"w":0},"buttonRect1":{"origin":{"x":0,"y":0},"size":{"h":0,"w":0}},"buttonRect2":{"origin":{"x":0,"y":0},"size":{"h":0,"w":0}}"#,
            .tapping
        ),
        ("ORKToneAudiometryResult", #""outputVolume":0,"samples":[]"#, .toneAudiometry),
        (
            "ORKdBHLToneAudiometryResult",
            #""outputVolume":0,"headphoneType":"","tonePlaybackDuration":0,"postStimulusDelay":0,"samples":[]"#,
            .dBHLToneAudiometry
        ),
        ("ORKEnvironmentSPLMeterResult", #""sensitivityOffset":0,"recordedSPLMeterSamples":[]"#, .environmentSPLMeter),
        ("ORKTimedWalkResult", #""distanceInMeters":0,"timeLimit":0,"duration":0"#, .walking),
    ]

    static func analyse(_ className: String, _ fields: String) throws -> (LoadedInput, [InputAnalysis]) {
        let dir = TemporaryDirectory()
        let file = dir.path(className + ".json")
        try (#"{"_class":"\#(className)","identifier":"","startDate":"2019-05-27T00:35:06-0700","endDate":"2019-05-27T00:35:06-0700","userInfo":{},"#
            + fields + "}").write(toFile: file, atomically: true, encoding: .utf8)
        let input = try AnalysisRegistry.load(path: file)
        return (input, AnalysisRegistry.analyze(input, options: AnalysisOptions()))
    }

    @Test(arguments: classes.map { $0.0 })
    func aZeroValuedInstanceIsAResultOfItsKind(className: String) throws {
        let (_, fields, kind) = try #require(Self.classes.first { $0.0 == className })
        let (input, outcomes) = try Self.analyse(className, fields)
        #expect(!input.problems.contains { $0.severity == .error }, "\(input.problems)")
        #expect(!input.problems.contains { $0.message.contains("not modelled") }, "\(input.problems)")
        try #require(outcomes.count == 1)
        #expect(outcomes[0].failure == nil, "\(String(describing: outcomes[0].failure))")
        #expect(!outcomes[0].results.isEmpty && outcomes[0].results.allSatisfy { $0.kind == kind },
            "\(outcomes[0].results.map(\.kind))")
        for scored in outcomes[0].results.compactMap({ $0.result as? ScoredTaskResult }) {
            #expect(scored.kind == kind.rawValue)
            // A result with nothing in it (no samples, moves, taps, pegs, games, transcription, …) says so. A Stroop
            // or accuracy Stroop object is itself one trial, and range-of-motion angles of 0 are angles.
            if ![.stroop, .accuracyStroop, .rangeOfMotion].contains(kind) {
                #expect(!scored.warnings.isEmpty, "\(className): an empty result without a warning")
            }
        }
    }

    /// Every registered scored kind is covered above.
    @Test func everyScoredKindIsCovered() {
        let covered = Set(Self.classes.map(\.2))
        for kind in AnalysisRegistry.taskKinds where ScoredTasks.isScored(kind) { #expect(covered.contains(kind), "\(kind)") }
    }

    /// A result class taskproc has no analysis for says why there is no result, naming itself.
    @Test func unknownClassesSayWhy() throws {
        let (_, outcomes) = try Self.analyse("ORKTouchAbilityTapResult", #""trials":[]"#)
        try #require(outcomes.count == 1)
        #expect(outcomes[0].results.isEmpty)
        #expect(outcomes[0].failure == "nothing to analyse: the result holds ORKTouchAbilityTapResult, which taskproc does not analyse yet")
    }
}
