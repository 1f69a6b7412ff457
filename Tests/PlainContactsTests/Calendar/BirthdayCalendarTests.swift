import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct BirthdayCalendarTests {
    private func date(_ text: String) throws -> ContactDate { try ContactDate(parsing: text) }

    /// The calendar's content lines, unfolded.
    private func lines(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n").filter { !$0.isEmpty }
    }

    /// The lines of each event, in order.
    private func events(_ text: String) -> [[String]] {
        var events: [[String]] = []
        var inEvent = false
        for line in lines(text) {
            switch line {
            case "BEGIN:VEVENT":
                events.append([])
                inEvent = true
            case "END:VEVENT":
                inEvent = false
            default:
                if inEvent { events[events.count - 1].append(line) }
            }
        }
        return events
    }

    @Test func theCalendarHasItsHeaderAndOneEventPerDate() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        katie.birthday = try date("1986-04-12")
        katie.dates = MultiValue([
            (value: try date("2016-06-01"), label: .anniversary), (value: try date("2020-01-01"), label: .other),
        ])
        let nobody = makePerson("No", "Dates")
        try book.add(katie)
        try book.add(nobody)
        try book.save()
        let text = try book.birthdayCalendar(people: [katie, nobody], name: "Family, friends")
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        #expect(Array(lines(text).prefix(8)) == [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//PlainContacts//Birthdays//EN", "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH", #"X-WR-CALNAME:Family\, friends"#, "REFRESH-INTERVAL;VALUE=DURATION:P1D",
            "X-PUBLISHED-TTL:P1D",
        ])
        let uid = try #require(CardMapping.matchKey(of: katie))
        let stamp = BirthdayCalendar.stamp(try #require(katie.modificationDate))
        let anniversaryID = katie.dates.entries[0].identifier
        #expect(events(text) == [
            [
                "UID:\(uid)-birthday", "DTSTAMP:\(stamp)", "DTSTART;VALUE=DATE:19860412", "DTEND;VALUE=DATE:19860413",
                "RRULE:FREQ=YEARLY", "SUMMARY:Katie Bell's birthday", "CATEGORIES:Birthday", "TRANSP:TRANSPARENT",
            ],
            [
                "UID:\(uid)-anniversary-\(anniversaryID)", "DTSTAMP:\(stamp)", "DTSTART;VALUE=DATE:20160601",
                "DTEND;VALUE=DATE:20160602", "RRULE:FREQ=YEARLY", "SUMMARY:Katie Bell's anniversary",
                "CATEGORIES:Anniversary", "TRANSP:TRANSPARENT",
            ],
        ])
        #expect(stamp.count == 16 && stamp.hasSuffix("Z"))
        #expect(try book.birthdayCalendar(people: [katie, nobody], name: "Family, friends") == text)
    }

    @Test func aLeapDayRepeatsOnTheLastDayOfFebruary() {
        let known = BirthdayCalendar.event(
            uid: "u", stamp: "19700101T000000Z", date: ContactDate(validYear: 2000, month: 2, day: 29), kind: .birthday,
            name: "Lea")
        #expect(known.contains("DTSTART;VALUE=DATE:20000229"))
        #expect(known.contains("DTEND;VALUE=DATE:20000301"))
        #expect(known.contains("RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1"))
        let yearless = BirthdayCalendar.event(
            uid: "u", stamp: "19700101T000000Z", date: ContactDate(validYear: nil, month: 2, day: 29), kind: .birthday,
            name: nil)
        #expect(yearless.contains("DTSTART;VALUE=DATE:16040229"))
        #expect(yearless.contains("RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1"))
        #expect(yearless.contains("SUMMARY:Birthday"))
        #expect(yearless.contains("DESCRIPTION:29 February: on 28 February in common years"))
        let other = BirthdayCalendar.event(
            uid: "u", stamp: "19700101T000000Z", date: ContactDate(validYear: nil, month: 2, day: 28), kind: .birthday,
            name: nil)
        #expect(other.contains("RRULE:FREQ=YEARLY"))
        #expect(!other.contains { $0.hasPrefix("DESCRIPTION") })
    }

    @Test func aDateWithoutAYearStartsInTheReferenceYear() {
        let event = BirthdayCalendar.event(
            uid: "u", stamp: "19700101T000000Z", date: ContactDate(validYear: nil, month: 12, day: 31), kind: .anniversary,
            name: "A; B")
        #expect(event.contains("DTSTART;VALUE=DATE:16041231"))
        #expect(event.contains("DTEND;VALUE=DATE:16050101"))
        #expect(event.contains("RRULE:FREQ=YEARLY"))
        #expect(event.contains(#"SUMMARY:A\; B's anniversary"#))
    }

    @Test func theLastDayOfTheCalendarLastsADay() {
        let event = BirthdayCalendar.event(
            uid: "u", stamp: "19700101T000000Z", date: ContactDate(validYear: 9999, month: 12, day: 31), kind: .birthday,
            name: "Far")
        #expect(event.contains("DURATION:P1D"))
        #expect(!event.contains { $0.hasPrefix("DTEND") })
    }

    @Test func aPersonOfAnotherBookIsRefused() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let otherStore = try TemporaryStore()
        let other = try otherStore.makeBook()
        let stranger = makePerson("Some", "One")
        try other.add(stranger)
        #expect {
            _ = try book.birthdayCalendar(people: [stranger])
        } throws: { ($0 as? ContactsError)?.code == .recordInAnotherBook }
    }
}
