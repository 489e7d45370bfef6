import Foundation
import ScanLibrary
import Testing

@testable import Upload

@Suite struct ResearchCalendarTests {
    func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test func everyDayOfAWeekMovesToItsMonday() {
        // 2026-04-27 is a Monday; the week runs to Sunday 2026-05-03 23:59:59 UTC.
        for day in ["2026-04-27T00:00:00Z", "2026-04-29T13:14:15Z", "2026-05-03T23:59:59Z"] {
            #expect(ResearchCalendar.instantText(ResearchCalendar.weekStart(date(day))) == "2026-04-27T00:00:00Z", "\(day)")
        }
        #expect(ResearchCalendar.instantText(ResearchCalendar.weekStart(date("2026-05-04T00:00:00Z"))) == "2026-05-04T00:00:00Z")
        // Across a year's end: Thursday 2027-01-01 belongs to the week of Monday 2026-12-28.
        #expect(ResearchCalendar.instantText(ResearchCalendar.weekStart(date("2027-01-01T09:00:00Z"))) == "2026-12-28T00:00:00Z")
        #expect(ResearchCalendar.isWeekStart(date("2026-04-27T00:00:00Z")))
        #expect(!ResearchCalendar.isWeekStart(date("2026-04-27T00:00:01Z")))
        #expect(!ResearchCalendar.isWeekStart(date("2026-04-28T00:00:00Z")))
    }

    @Test func agesAreWholeWeeksThenWholeMonths() {
        let birth = date("2026-01-01T00:00:00Z")
        #expect(ResearchCalendar.age(birth: birth, visit: date("2026-01-07T00:00:00Z")) == .weeks(0))
        #expect(ResearchCalendar.age(birth: birth, visit: date("2026-01-08T00:00:00Z")) == .weeks(1))
        #expect(ResearchCalendar.age(birth: birth, visit: date("2026-12-31T00:00:00Z")) == .weeks(52))
        #expect(ResearchCalendar.age(birth: birth, visit: date("2027-01-01T00:00:00Z")) == .months(12))
        #expect(ResearchCalendar.age(birth: birth, visit: date("2027-03-15T00:00:00Z")) == .months(14))
        #expect(ResearchCalendar.age(birth: birth, visit: date("2025-12-31T00:00:00Z")) == nil)
    }

    @Test func sessionTimestampsKeepTheWeekAndTheOrderOnly() {
        #expect(ResearchCalendar.sessionTimestamp("2026-05-01T10-30-00", sequence: 1) == "2026-04-27T00-00-01")
        #expect(ResearchCalendar.sessionTimestamp("2026-05-01T10-30-00", sequence: 61) == "2026-04-27T00-01-01")
        #expect(ResearchCalendar.sessionTimestamp("2026-05-01T10-30-00", sequence: 0) == nil)
        for good in ["2026-04-27T00-00-01", "2026-04-27T00-59-59"] { #expect(ResearchCalendar.isResearchTimestamp(good), "\(good)") }
        for bad in ["2026-05-01T10-30-00", "2026-04-27T10-30-00", "2026-04-28T00-00-01", "2026-04-27T00-00-00", "2026-04-27T00-00-1", "x"] {
            #expect(!ResearchCalendar.isResearchTimestamp(bad), "\(bad)")
        }
    }

    @Test func onlyWeekStartsPassAndEveryDateIsCoarsened() throws {
        let document = try JSONDecoder().decode(
            JSONValue.self,
            from: Data(
                """
                {"a": "2026-05-01T10:30:00Z", "b": [{"c": "2026-05-01T10:30:00.250Z"}], "d": "not a date", "e": 3}
                """.utf8))
        #expect(ResearchCalendar.preciseDate(in: document) == "2026-05-01T10:30:00Z")
        let coarse = ResearchCalendar.coarsened(document)
        #expect(ResearchCalendar.preciseDate(in: coarse) == nil)
        #expect(
            coarse
                == .object([
                    "a": .string("2026-04-27T00:00:00Z"), "b": .array([.object(["c": .string("2026-04-27T00:00:00Z")])]), "d": .string("not a date"),
                    "e": .number(3),
                ]))
        // A date in another format is refused, not passed over.
        #expect(ResearchCalendar.preciseDate(in: .string("2026-04-27")) == "2026-04-27")
        #expect(ResearchCalendar.preciseDate(in: .string("2026-04-27T00:00:00+00:00")) != nil)
    }

    @Test func researchNamesArePseudonymsOrNew() {
        #expect(ResearchFiles.problem(withSessionName: "1234567890123_2026-04-27T00-00-01_Scan") == nil)
        #expect(ResearchFiles.problem(withSessionName: "new_2026-04-27T00-00-01_Scan") == nil)
        for bad in [
            "12_2026-04-27T00-00-01_Scan", "Mueller-Anna_2026-04-27T00-00-01_Scan", "new-Anna_2026-04-27T00-00-01_Scan",
            "1234567890123_2026-05-01T10-30-00_Scan", "0123456789012_2026-04-27T00-00-01_Scan",
        ] {
            #expect(ResearchFiles.problem(withSessionName: bad) != nil, "\(bad)")
        }
    }
}
