import DAVTestSupport
import Testing
@testable import PlainContacts

@Suite struct AddressBookBirthdaysTests {
    private func date(_ text: String) throws -> ContactDate { try ContactDate(parsing: text) }

    /// A saved book with Katie (birthday today, 40 years ago), John (a year-less birthday and a
    /// wedding anniversary), Lea (born on a leap day) and Max (no dates, one date of another
    /// label).
    private func makeBook(_ store: TemporaryStore) throws -> (AddressBook, [Person]) {
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        katie.birthday = try date("1986-11-26")
        let john = makePerson("John", "Appleseed")
        john.birthday = try date("--12-03")
        john.dates = MultiValue([
            (value: try date("2016-01-10"), label: .anniversary), (value: try date("2020-11-30"), label: Label("first day")),
        ])
        let lea = makePerson("Lea", "Sprung")
        lea.birthday = try date("2000-02-29")
        let max = makePerson("Max", "Muster")
        max.dates = MultiValue([(value: try date("--11-27"), label: .other)])
        for person in [katie, john, lea, max] { try book.add(person) }
        try book.save()
        return (book, [katie, john, lea, max])
    }

    @Test func birthdaysAndAnniversariesComeSoonestFirstWithTheirAge() throws {
        let store = try TemporaryStore()
        let (book, people) = try makeBook(store)
        let upcoming = try book.upcomingDates(from: date("2026-11-26"), people: people)
        #expect(upcoming.map(\.recordID) == [people[0].recordID, people[1].recordID, people[1].recordID, people[2].recordID])
        #expect(upcoming.map(\.kind) == [.birthday, .birthday, .anniversary, .birthday])
        #expect(upcoming.map(\.next.description) == ["2026-11-26", "2026-12-03", "2027-01-10", "2027-02-28"])
        #expect(upcoming.map(\.days) == [0, 7, 45, 94])
        #expect(upcoming.map(\.age) == [40, nil, 11, 27])
        #expect(upcoming.map(\.date.description) == ["1986-11-26", "--12-03", "2016-01-10", "2000-02-29"])
        #expect(upcoming[0].name == "Katie Bell")
        #expect(upcoming[0].entryIdentifier == nil)
        #expect(upcoming[2].entryIdentifier == people[1].dates.entries[0].identifier)
    }

    @Test func aLimitOfDaysKeepsThoseWithinIt() throws {
        let store = try TemporaryStore()
        let (book, _) = try makeBook(store)
        #expect(try book.upcomingDates(from: date("2026-11-26"), within: 0).map(\.days) == [0])
        #expect(try book.upcomingDates(from: date("2026-11-26"), within: 7).map(\.days) == [0, 7])
        #expect(try book.upcomingDates(from: date("2026-11-26")).count == 4)
    }

    @Test func aLeapDayBirthdayIsOnTheTwentyNinthInLeapYears() throws {
        let store = try TemporaryStore()
        let (book, people) = try makeBook(store)
        let upcoming = try book.upcomingDates(from: date("2028-02-01"), within: 30, people: [people[2]])
        #expect(upcoming.map(\.next.description) == ["2028-02-29"])
        #expect(upcoming.map(\.age) == [28])
    }

    @Test func aDateAfterTheNextOccurrenceHasNoAge() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let baby = makePerson("Baby", "Due")
        baby.birthday = try date("2027-03-01")
        try book.add(baby)
        let upcoming = try book.upcomingDates(from: date("2026-11-26"))
        #expect(upcoming.map(\.next.description) == ["2027-03-01"])
        #expect(upcoming.map(\.age) == [0])
        #expect(try book.upcomingDates(from: date("2025-11-26")).map(\.age) == [nil])
    }

    @Test func aDayWithoutAYearOrANegativeLimitIsRefused() throws {
        let store = try TemporaryStore()
        let (book, _) = try makeBook(store)
        for call in [{ try book.upcomingDates(from: date("--11-26")) }, { try book.upcomingDates(from: date("2026-11-26"), within: -1) }] {
            #expect {
                _ = try call()
            } throws: { ($0 as? ContactsError)?.code == .invalidValue }
        }
    }
}
