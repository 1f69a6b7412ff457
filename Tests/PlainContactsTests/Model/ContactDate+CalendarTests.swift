import Testing
@testable import PlainContacts

@Suite struct ContactDateCalendarTests {
    private func date(_ text: String) throws -> ContactDate { try ContactDate(parsing: text) }

    @Test func aLeapDayFallsOnTheTwentyEighthOfFebruaryInCommonYears() throws {
        #expect(try date("--02-29").occurrence(in: 2027) == date("2027-02-28"))
        #expect(try date("2000-02-29").occurrence(in: 2028) == date("2028-02-29"))
        #expect(try date("2000-02-29").occurrence(in: 2100) == date("2100-02-28"))
        #expect(try date("1990-04-12").occurrence(in: 2026) == date("2026-04-12"))
    }

    @Test func theNextOccurrenceIsTodayOrLaterWithinAYear() throws {
        let today = try date("2026-11-26")
        #expect(try date("1986-11-26").nextOccurrence(onOrAfter: today) == date("2026-11-26"))
        #expect(try date("--11-25").nextOccurrence(onOrAfter: today) == date("2027-11-25"))
        #expect(try date("--12-31").nextOccurrence(onOrAfter: today) == date("2026-12-31"))
        #expect(try date("--02-29").nextOccurrence(onOrAfter: today) == date("2027-02-28"))
        #expect(try date("--02-29").nextOccurrence(onOrAfter: date("2027-02-28")) == date("2027-02-28"))
        #expect(try date("--02-29").nextOccurrence(onOrAfter: date("2027-03-01")) == date("2028-02-29"))
    }

    @Test func countingFromADayWithoutAYearIsRefused() throws {
        #expect {
            _ = try date("--04-12").nextOccurrence(onOrAfter: date("--01-01"))
        } throws: { ($0 as? ContactsError)?.code == .invalidValue }
    }

    @Test func daysAreAddedAcrossMonthsAndYears() throws {
        #expect(try date("2028-02-28").adding(days: 1) == date("2028-02-29"))
        #expect(try date("2027-02-28").adding(days: 1) == date("2027-03-01"))
        #expect(try date("2026-12-31").adding(days: 1) == date("2027-01-01"))
        #expect(try date("--12-31").adding(days: 1) == nil)
        #expect(try date("9999-12-31").adding(days: 1) == nil)
    }

    @Test func todayHasAYear() {
        #expect(ContactDate.today().year != nil)
    }
}
