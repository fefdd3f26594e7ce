import Foundation
import StudyInputs

extension TaskKind {
    /// Speech recognition (`ORKSpeechRecognitionResult`).
    public static let speechRecognition = TaskKind("speechRecognition")
}

/// Speech recognition (`ORKSpeechRecognitionResult`, one object per step): what Apple's speech recogniser heard and
/// how fast the participant spoke.
///
/// ResearchKit writes the recogniser's best transcription (`transcription`: `formattedString` and `segments`, each
/// with its `confidence`) and, from iOS 14.5, `recognitionMetadata` (`speakingRate`, `averagePauseDuration`,
/// `speechStartTimestamp`, `speechDuration`); before iOS 14.5 `speakingRate` and `averagePauseDuration` are on the
/// transcription. Words are counted by ``SpeechWords``. Definitions: `docs/active-tasks.md`.
enum SpeechRecognitionAnalysis: ScoredTaskAnalysis {
    /// Speech-recognition steps.
    public static let kinds: [TaskKind] = [.speechRecognition]
    /// Why an input gave no result.
    public static let nothingToAnalyse = "no speech-recognition result (ORKSpeechRecognitionResult) to score"
    /// The result's class.
    public static let classNames = ["ORKSpeechRecognitionResult"]
    /// The predefined speech-recognition task's active step.
    public static let stepIdentifiers = ["speech.recognition"]

    /// The recogniser's output of one result object.
    struct Transcription {
        var text: String?
        var segments = 0
        var meanConfidence: Double?
        var speakingRate, averagePauseDuration, speechStartTimestamp, speechDuration: Double?
    }

    /// Reads one `ORKSpeechRecognitionResult`.
    static func transcription(_ o: ScoredFields, warnings: inout [String]) -> Transcription {
        var t = Transcription()
        let transcription = o.object("transcription", &warnings)
        let metadata = o.object("recognitionMetadata", &warnings)
        t.text = transcription?.string("formattedString", &warnings)
        let segments = transcription?.objects("segments", &warnings) ?? []
        t.segments = segments.count
        let confidences = segments.compactMap { $0.number("confidence", &warnings) }
        if !confidences.isEmpty && confidences.allSatisfy({ $0 == 0 }) {
            warnings.append(
                "\(o.path): every segment's confidence is 0, as in a partial (hypothesised) transcription; "
                    + "no mean confidence")
        } else {
            t.meanConfidence = ScoreStatistics.mean(confidences)
        }
        t.speakingRate =
            metadata?.number("speakingRate", &warnings) ?? transcription?.number("speakingRate", &warnings)
        t.averagePauseDuration =
            metadata?.number("averagePauseDuration", &warnings)
            ?? transcription?.number("averagePauseDuration", &warnings)
        t.speechStartTimestamp = metadata?.number("speechStartTimestamp", &warnings)
        t.speechDuration = metadata?.number("speechDuration", &warnings)
        return t
    }

    /// The scores of one step (one object; of several, the last, with a warning).
    public static func scores(_ objects: [ScoredFields], warnings: inout [String]) -> [TaskScore] {
        if objects.count > 1 {
            warnings.append("the step holds \(objects.count) ORKSpeechRecognitionResult objects; the last is scored")
        }
        let t = objects.last.map { transcription($0, warnings: &warnings) } ?? Transcription()
        if let o = objects.last, t.text == nil {
            warnings.append("\(o.path): no transcription (the recogniser returned nothing)")
        }
        return [
            TaskScore("transcription", text: t.text),
            TaskScore("words", Double(t.text.map(SpeechWords.words)?.count ?? 0), "count"),
            TaskScore("segments", Double(t.segments), "count"),
            TaskScore("meanConfidence", t.meanConfidence, "fraction"),
            TaskScore("speakingRate", t.speakingRate, "words/min"),
            TaskScore("averagePauseDuration", t.averagePauseDuration, "s"),
            TaskScore("speechStartTimestamp", t.speechStartTimestamp, "s"),
            TaskScore("speechDuration", t.speechDuration, "s"),
        ]
    }
}

extension SpeechRecognitionAnalysis {
    /// The study tables' measures: speaking rate and mean confidence.
    public static let studyMeasures: [StudyMeasure] = [
        StudyMeasure("speakingRate", unit: "words/min"),
        StudyMeasure("meanConfidence", unit: "fraction"),
    ]
}
