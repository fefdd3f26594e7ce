import Foundation
import Testing

@testable import ActiveTasks

/// The recogniser's byte search (used on the first 4 KiB of every JSON file in batch discovery) against
/// hand-made cases.
@Suite struct InputRecognizerByteSearchTests {
    @Test(arguments: [
        ("{\"_class\":\"ORKTaskResult\"}", "\"ORKTaskResult\"", true),
        ("xx\"ORKTaskResult\"", "\"ORKTaskResult\"", true),  // at the very end
        ("\"ORKTaskResult", "\"ORKTaskResult\"", false),  // cut one byte short
        ("", "\"_class\"", false),
        ("abc", "", true),
        ("ab", "abc", false),  // needle longer than the data
        ("{\"name\":\"Müller\"}", "Müller", true),  // multi-byte UTF-8
        ("{\"name\":\"Muller\"}", "Müller", false),
        ("ORKTASKRESULT", "ORKTaskResult", false),  // case matters
    ])
    func findsExactlyTheBytes(haystack: String, needle: String, expected: Bool) {
        #expect(InputRecognizer.contains(Data(haystack.utf8), needle) == expected)
    }

    @Test func aSliceIsSearchedFromItsOwnStart() {
        let data = Data("ORKTaskResult....".utf8).dropFirst(3)
        #expect(!InputRecognizer.contains(data, "ORKTask"))
        #expect(InputRecognizer.contains(data, "TaskResult"))
    }
}
