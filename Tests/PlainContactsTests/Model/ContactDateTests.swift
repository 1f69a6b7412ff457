import Testing
@testable import PlainContacts

@Suite struct ContactDateTests {
    @Test(arguments: ["1990-05-01", "--04-12", "2000-02-29", "--02-29", "0001-01-01"])
    func validDatesRoundTripThroughText(_ text: String) throws {
        #expect(try ContactDate(parsing: text).description == text)
    }

    @Test(arguments: ["1990-13-01", "1990-02-30", "2001-02-29", "--00-10", "19900501", "1990-5-1", "", "--4-12", "abcd-ef-gh"])
    func impossibleOrMalformedDatesAreRefused(_ text: String) {
        #expect {
            _ = try ContactDate(parsing: text)
        } throws: { ($0 as? ContactsError)?.code == .invalidValue }
    }

    @Test func aBirthdayWithoutAYearHasNoYear() throws {
        let date = try ContactDate(parsing: "--12-24")
        #expect(date.year == nil)
        #expect(date.month == 12)
        #expect(date.day == 24)
    }

    @Test func datesOrderByYearMonthAndDay() throws {
        let dates = try ["2001-01-02", "--05-05", "2000-12-31", "2001-01-01"].map(ContactDate.init(parsing:))
        #expect(dates.sorted().map(\.description) == ["--05-05", "2000-12-31", "2001-01-01", "2001-01-02"])
    }
}
