import Foundation
import TestSupport
import Testing

@testable import StudyInputs

/// ResearchKit's tap button identifiers, written for a mutation of `make mutants` that no other test caught (M20);
/// the expected values come from the definition it cites, not from the code under test.
@Suite(.tags(.mutant)) struct TapSpellingsTests {
    /// M20. ResearchKit's `ORKTappingButtonIdentifier` (ORKTypes.h): None = 0, Left = 1, Right = 2; the integer
    /// form is what `ORKESerialization` writes for older results.
    @Test func researchKitButtonIdentifiersAreNoneLeftRight() {
        #expect(TapSpellings.button(JSONValue.number(0)) == TapButton.none)
        #expect(TapSpellings.button(JSONValue.number(1)) == .left)
        #expect(TapSpellings.button(JSONValue.number(2)) == .right)
        #expect(TapSpellings.button(JSONValue.number(3)) == nil)
    }
}
