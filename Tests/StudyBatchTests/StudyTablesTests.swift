import Foundation
import Testing

@testable import StudyBatch

/// The arithmetic of the study tables against its definitions: ISO 8601 weeks (the week of its Thursday) and R's
/// type-7 quantiles.
@Suite struct StudyTablesTests {
    /// ISO weeks at the year boundaries, checked against ISO 8601's rule (and `date +%G-W%V`).
    @Test(arguments: [
        ("2024-04-29", "2024-W18", "2024-04-29"),  // a Monday
        ("2024-05-05", "2024-W18", "2024-04-29"),  // its Sunday
        ("2024-12-30", "2025-W01", "2024-12-30"),  // a December Monday in the next year's week 1
        ("2021-01-03", "2020-W53", "2020-12-28"),  // a January Sunday in the last year's week 53
        ("2016-02-29", "2016-W09", "2016-02-29"),  // a leap day
        ("1970-01-01", "1970-W01", "1969-12-29"),  // day 0, a Thursday
    ])
    func isoWeeks(date: String, week: String, monday: String) throws {
        let found = try #require(StudyTables.isoWeek(date))
        #expect(found.week == week && found.monday == monday)
        #expect(StudyTables.weekStart(week) == monday)
        #expect(StudyTables.civil(try #require(StudyTables.dayNumber(date))) == date)
    }

    @Test func notADateHasNoWeek() {
        for text in ["", "2024-13-01", "2024-1-01", "24-01-01", "2024-01-0x"] {
            #expect(StudyTables.isoWeek(text) == nil)
        }
        #expect(StudyTables.weekStart("2024-W54") == nil && StudyTables.weekStart("2024-18") == nil)
    }

    /// R: `quantile(c(1, 2, 3, 4), c(.25, .5, .75))` gives 1.75, 2.5, 3.25 (type 7, the default).
    @Test func quantilesAreRsType7() {
        let x: [Double] = [1, 2, 3, 4]
        let q = StudyTables.quartiles(x)
        #expect(q?.q1 == 1.75)
        #expect(q?.median == 2.5)
        #expect(q?.q3 == 3.25)
        #expect(StudyTables.quartiles([7])?.q1 == 7)
        #expect(StudyTables.quartiles([]) == nil)
    }

    @Test func numbersReadBackExactly() {
        #expect(StudyTables.number(4) == "4")
        #expect(StudyTables.number(-0.1) == "-0.1")
        #expect(Double(StudyTables.number(1.0 / 3)) == 1.0 / 3)
    }
}
