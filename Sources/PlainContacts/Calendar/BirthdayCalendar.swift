import FoundationEssentials

/// Writes people's birthdays and anniversaries as an iCalendar (RFC 5545) calendar: one
/// all-day event per date, repeating every year, for a calendar app to subscribe to or import.
///
/// The calendar holds `VERSION:2.0`, `PRODID`, `CALSCALE:GREGORIAN`, `METHOD:PUBLISH`, its name
/// as `X-WR-CALNAME`, and `REFRESH-INTERVAL` and `X-PUBLISHED-TTL` of a day (how often a
/// subscriber reads it again). Each event has:
///
/// - `UID`: the person's UID (the stored one, else the one export derives from the record
///   key, as ``AddressBook/exportVCards(_:version:)`` writes it) followed by `-birthday`, or
///   by `-anniversary-` and the entry's identifier, so that importing the calendar again, or
///   reading it again as a subscription, updates the events instead of adding new ones. A
///   person never saved and without a stored UID has none, and gets no event.
/// - `DTSTAMP`: the person's modification date (else the creation date, else 1970), so that
///   the same store gives the same bytes.
/// - `DTSTART;VALUE=DATE`: the date itself when it has a year; for a date without a year, the
///   same day in 1604, the reference year Apple's Contacts and iCloud use for it (a leap year,
///   so that 29 February exists). `DTEND;VALUE=DATE` the next day: one all-day event.
/// - `RRULE:FREQ=YEARLY`; for 29 February `RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1`, the last
///   day of February: the 29th in leap years and the 28th in common years, as most calendar
///   apps and legal conventions count a leap-day birthday; its `DESCRIPTION` says so. Plain
///   `FREQ=YEARLY` from a 29 February would skip common years (RFC 5545 section 3.3.10).
/// - `SUMMARY`: "Katie Bell's birthday" or "Katie Bell's anniversary" ("Birthday" without a
///   name); `CATEGORIES:Birthday` or `Anniversary`; `TRANSP:TRANSPARENT`, since a birthday
///   does not make anyone busy.
///
/// Text is escaped and lines folded as ``ICalendarText`` does; lines end with CRLF.
///
/// ```swift
/// let text = BirthdayCalendar(name: "Birthdays").text(for: book.allPeople(sortedBy: nil))
/// ```
struct BirthdayCalendar {
    /// The calendar's `PRODID`.
    static let productID = "-//PlainContacts//Birthdays//EN"
    /// The year given to a date without one: Apple's choice, a leap year.
    static let referenceYear = 1604
    /// The `DESCRIPTION` of a 29 February's event.
    static let leapDayNote = "29 February: on 28 February in common years"
    /// How often subscribers should read the calendar again.
    static let refreshInterval = "P1D"

    /// The calendar's name, shown by the apps that subscribe to it.
    var name: String

    /// The calendar of `people`, events in their order: each person's birthday, then their
    /// anniversaries.
    func text(for people: [Person]) -> String {
        var text: [UInt8] = []
        func line(_ line: String) { ICalendarText.appendLine(line, to: &text) }
        line("BEGIN:VCALENDAR")
        line("VERSION:2.0")
        line("PRODID:" + Self.productID)
        line("CALSCALE:GREGORIAN")
        line("METHOD:PUBLISH")
        line("X-WR-CALNAME:" + ICalendarText.escape(name))
        line("REFRESH-INTERVAL;VALUE=DURATION:" + Self.refreshInterval)
        line("X-PUBLISHED-TTL:" + Self.refreshInterval)
        for person in people {
            guard let uid = CardMapping.matchKey(of: person) else { continue }
            let stamp = Self.stamp(person.modificationDate ?? person.creationDate ?? Date(timeIntervalSince1970: 0))
            for (kind, date, identifier) in AddressBook.celebratedDates(of: person) {
                let suffix = identifier.map { "-\(kind.rawValue)-\($0)" } ?? "-\(kind.rawValue)"
                for eventLine in Self.event(
                    uid: uid + suffix, stamp: stamp, date: date, kind: kind, name: person.compositeName)
                {
                    line(eventLine)
                }
            }
        }
        line("END:VCALENDAR")
        return String(decoding: text, as: UTF8.self)
    }

    /// The content lines of one event, unfolded.
    static func event(uid: String, stamp: String, date: ContactDate, kind: UpcomingDate.Kind, name: String?) -> [String] {
        let start = date.year == nil ? date.occurrence(in: referenceYear) : date
        let what = kind == .birthday ? "birthday" : "anniversary"
        let title = kind == .birthday ? "Birthday" : "Anniversary"
        let summary = name.map { "\($0)'s \(what)" } ?? title
        var lines = [
            "BEGIN:VEVENT",
            "UID:" + ICalendarText.escape(uid),
            "DTSTAMP:" + stamp,
            "DTSTART;VALUE=DATE:" + basic(start),
        ]
        if let end = start.adding(days: 1) {
            lines.append("DTEND;VALUE=DATE:" + basic(end))
        } else {
            lines.append("DURATION:P1D")
        }
        let isLeapDay = date.month == 2 && date.day == 29
        lines.append(isLeapDay ? "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1" : "RRULE:FREQ=YEARLY")
        lines.append("SUMMARY:" + ICalendarText.escape(summary))
        if isLeapDay { lines.append("DESCRIPTION:" + ICalendarText.escape(leapDayNote)) }
        lines += [
            "CATEGORIES:" + title,
            "TRANSP:TRANSPARENT",
            "END:VEVENT",
        ]
        return lines
    }

    /// A date with a year in iCalendar's basic form, `YYYYMMDD`.
    static func basic(_ date: ContactDate) -> String {
        String(date.description.filter { $0 != "-" })
    }

    /// A timestamp as a UTC `DATE-TIME`, `YYYYMMDDTHHMMSSZ`.
    static func stamp(_ date: Date) -> String {
        String(Timestamp.format(date).filter { $0 != "-" && $0 != ":" })
    }
}
