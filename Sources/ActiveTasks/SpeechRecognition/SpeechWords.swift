import Foundation
import StudyInputs

/// How speech scores count words and match a transcription against a target sentence.
///
/// A text's **words**: the text is split at whitespace; each piece is lowercased (Unicode default case mapping, no
/// locale) and every character that is neither a letter nor a number is removed (`"Roses."` → `roses`, `"don't"` →
/// `dont`, `"well-known"` → `wellknown`); pieces left empty are dropped. Nothing else is normalised: `4` and `four`
/// are different words, and ResearchKit's substitutions (`for` → `four`, `to` → `two`, …, applied only to pre-fill
/// the edit-transcript step) are not applied.
///
/// **Matched words**: each target word counts once for each time it occurs in the transcription, at most as often as
/// it occurs in the target, in any order: Σ over distinct target words w of min(count in target, count in
/// transcription).
enum SpeechWords {
    /// The words of `text` (see the type's rule).
    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: \.isWhitespace).compactMap { piece in
            let kept = String(piece.lowercased().filter { $0.isLetter || $0.isNumber })
            return kept.isEmpty ? nil : kept
        }
    }

    /// The number of target words found in `heard` (see the type's rule).
    static func matched(target: [String], heard: [String]) -> Int {
        var available: [String: Int] = [:]
        for word in heard { available[word, default: 0] += 1 }
        var found = 0
        for word in target {
            if let n = available[word], n > 0 {
                available[word] = n - 1
                found += 1
            }
        }
        return found
    }
}
