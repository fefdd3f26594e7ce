import Foundation
import StudyInputs

extension TaskKind {
    /// Speech in noise (`ORKSpeechInNoiseResult`, scored against the transcription that follows it); registered
    /// before ``speechRecognition`` so that a speech-in-noise task is recognised as one.
    public static let speechInNoise = TaskKind("speechInNoise")
}

/// Speech in noise (`ORKSpeechInNoiseResult`, one object per sentence step): the sentence played in noise and how
/// many of its words the participant repeated.
///
/// ResearchKit writes the result only when the step has a `targetSentence` (a study's own steps; the predefined task
/// sets none), with `filename`, the sentence's audio file. The participant's repetition is in the speech-recognition
/// step that follows: the first `ORKSpeechRecognitionResult` after this result in document order, before the next
/// `ORKSpeechInNoiseResult`. When the step right after that recognition step holds a text answer
/// (`ORKTextQuestionResult`: ResearchKit pre-fills such a step with the transcription for the participant to
/// correct, `editSpeechTranscript0` in its tasks), that answer is the edited transcription. Words are counted and
/// matched by ``SpeechWords``. The noise level (`gainAppliedToNoise`, hence the SNR) is a property of the step and is
/// not written in any result, so no score gives it. Definitions: `docs/active-tasks.md`.
enum SpeechInNoiseAnalysis: ScoredTaskAnalysis {
    /// Speech-in-noise steps.
    public static let kinds: [TaskKind] = [.speechInNoise]
    /// Why an input gave no result.
    public static let nothingToAnalyse = "no speech-in-noise result (ORKSpeechInNoiseResult) to score"
    /// The sentence result's class.
    public static let classNames = ["ORKSpeechInNoiseResult"]

    /// What the participant said after one sentence.
    struct Response {
        /// The `ORKSpeechRecognitionResult` that follows, as written.
        var recognition: ScoredFields?
        /// The text answer of the step right after the recognition step, if any.
        var edited: String?
    }

    /// One result per step holding a sentence, each scored against the transcription that follows it.
    public static func analyze(_ input: LoadedInput, options: AnalysisOptions) -> [ScoredTaskResult] {
        guard let root = input.researchKit?.result else { return [] }
        let responses = self.responses(root.stepItems)
        return analyzeSteps(input) { step, objects, warnings in
            scores(objects, responses: responses[step] ?? [], warnings: &warnings)
        }
    }

    /// The response after each sentence result, by the sentence's step, in document order.
    static func responses(_ items: [ResearchKit.StepItem<ResearchKitResult>]) -> [String: [Response]] {
        var out: [String: [Response]] = [:]
        for (i, item) in items.enumerated() {
            guard case .unknown(let className, _, _) = item.result, classNames.contains(className) else { continue }
            var response = Response()
            var j = i + 1
            while j < items.count {
                if case .unknown(let next, _, let raw) = items[j].result {
                    if classNames.contains(next) { break }
                    if next == "ORKSpeechRecognitionResult" {
                        response.recognition = ScoredFields(
                            raw, path: "ORKSpeechRecognitionResult of step \(items[j].stepIdentifier)")
                        let recognitionStep = items[j].stepIdentifier
                        if let after = items[(j + 1)...].first(where: { $0.stepIdentifier != recognitionStep }),
                            case .question(let q) = after.result, q.header.className == "ORKTextQuestionResult",
                            case .text(let text)? = q.answer
                        {
                            response.edited = text
                        }
                        break
                    }
                }
                j += 1
            }
            out[item.stepIdentifier, default: []].append(response)
        }
        return out
    }

    /// Without the document (``analyze(_:options:)`` passes the responses): no transcription to score against.
    public static func scores(_ objects: [ScoredFields], warnings: inout [String]) -> [TaskScore] {
        scores(objects, responses: [], warnings: &warnings)
    }

    static func scores(_ objects: [ScoredFields], responses: [Response], warnings: inout [String]) -> [TaskScore] {
        if objects.count > 1 {
            warnings.append("the step holds \(objects.count) ORKSpeechInNoiseResult objects; the last is scored")
        }
        let sentence = objects.last
        let target = sentence?.string("targetSentence", &warnings).flatMap { $0.isEmpty ? nil : $0 }
        let file = sentence?.string("filename", &warnings).flatMap { $0.isEmpty ? nil : $0 }
        let response = responses.last
        var heard: String?
        if let recognition = response?.recognition {
            heard = SpeechRecognitionAnalysis.transcription(recognition, warnings: &warnings).text
        }
        if let sentence {
            if target == nil { warnings.append("\(sentence.path): no targetSentence; no word accuracy") }
            if response?.recognition == nil {
                warnings.append(
                    "\(sentence.path): no ORKSpeechRecognitionResult follows it; no transcription to score")
            } else if heard == nil {
                warnings.append("\(sentence.path): the speech recognition that follows has no transcription")
            }
        }
        let targetWords = target.map(SpeechWords.words) ?? []
        func correct(_ text: String?) -> Int? {
            guard target != nil, let text else { return nil }
            return SpeechWords.matched(target: targetWords, heard: SpeechWords.words(text))
        }
        func accuracy(_ n: Int?) -> Double? {
            guard let n, !targetWords.isEmpty else { return nil }
            return Double(n) / Double(targetWords.count)
        }
        let correctWords = correct(heard)
        let editedCorrectWords = correct(response?.edited)
        return [
            TaskScore("targetSentence", text: target),
            TaskScore("speechFile", text: file),
            TaskScore("transcription", text: heard),
            TaskScore("editedTranscription", text: response?.edited),
            TaskScore("targetWords", Double(targetWords.count), "count"),
            TaskScore("correctWords", correctWords.map(Double.init), "count"),
            TaskScore("wordAccuracy", accuracy(correctWords), "fraction"),
            TaskScore("editedCorrectWords", editedCorrectWords.map(Double.init), "count"),
            TaskScore("editedWordAccuracy", accuracy(editedCorrectWords), "fraction"),
        ]
    }
}

extension SpeechInNoiseAnalysis {
    /// The study tables' measures: word accuracy.
    public static let studyMeasures: [StudyMeasure] = [StudyMeasure("wordAccuracy", unit: "fraction")]
}
