import Foundation
import TestSupport
import Testing

@testable import StudyInputs

/// M39. RFC 8259 §7: the four hex digits of a `\u` escape may be upper or lower case.
@Suite(.tags(.mutant)) struct JSONEscapeTests {
    @Test func upperAndLowerCaseHexEscapesAreTheSameCharacter() throws {
        let upper = try JSONParser.parse(Data(#"["\u00C9\u00E9\u20AC"]"#.utf8), file: "upper.json")
        let lower = try JSONParser.parse(Data(#"["\u00c9\u00e9\u20ac"]"#.utf8), file: "lower.json")
        #expect(upper.arrayValue?.first?.stringValue == "Éé€")
        #expect(lower.arrayValue?.first?.stringValue == "Éé€")
        // A surrogate pair with upper-case digits: U+1F600.
        let pair = try JSONParser.parse(Data(#"["\uD83D\uDE00"]"#.utf8), file: "pair.json")
        #expect(pair.arrayValue?.first?.stringValue == "\u{1F600}")
    }
}
