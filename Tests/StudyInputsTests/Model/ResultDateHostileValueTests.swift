import Foundation
import TestSupport
import Testing

@testable import StudyInputs

/// Issue 16 in result dates: a date beyond four-digit years is written at the end of the range, never a trap.
@Suite(.tags(.hostileInput)) struct ResultDateHostileValueTests {
    /// Only a program can make such a date; it is written with four digits, never a trap or a 7-digit year.
    @Test func datesOutsideFourDigitYearsAreWrittenAtTheEndOfTheRange() {
        #expect(
            ResultDate(date: Date(timeIntervalSince1970: 1e300), utcOffset: 0).description.hasPrefix(
                "9999-12-31T23:59:59"))
        #expect(
            ResultDate(date: Date(timeIntervalSince1970: -1e300), utcOffset: 0).description.hasPrefix(
                "0000-01-01T00:00:00"))
    }
}
