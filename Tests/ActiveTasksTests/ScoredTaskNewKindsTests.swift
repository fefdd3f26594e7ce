import Foundation
import RealModule
import Testing
import TestSupport

@testable import ActiveTasks

/// The scored kinds added for issue 19's second round (normalized reaction time, speech recognition, speech in
/// noise, Amsler grid) and the text outputs they need: hand-made results whose scores are worked out by hand in the
/// comments.
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
