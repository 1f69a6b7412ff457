/// Birthdays and anniversaries: which come next, and a calendar of them.
///
/// A person's birthday is ``Person/birthday``; an anniversary is an entry of ``Person/dates``
/// labelled ``Label/anniversary``. A 29 February falls on 28 February in common years, as
/// most calendar apps and legal conventions count it.
extension AddressBook {
    /// The birthdays and anniversaries of people, each at its next occurrence on or after
    /// `today`, soonest first.
    ///
    /// Each date appears once, at most 365 days ahead. `today` itself counts: a birthday today
    /// is 0 days away. ``UpcomingDate/age`` is the age reached (the years completed, for an
    /// anniversary) on that day when the stored date has a year. Occurrences on the same day
    /// keep the order of `people` (everyone in the book's sort ordering by default), a person's
    /// birthday before their anniversaries.
    ///
    /// ```swift
    /// for upcoming in try book.upcomingDates(from: .today(), within: 7) {
    ///     print(upcoming.next, upcoming.name ?? "", upcoming.kind)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - today: The day to count from; it must have a year.
    ///   - days: Keep only occurrences at most this many days ahead (0: today's only); `nil`
    ///     keeps every one.
    ///   - people: The people to look at; `nil` for everyone (``allPeople(sortedBy:)``).
    /// - Throws: ``ContactsError/Code/invalidValue`` when `today` has no year, `days` is
    ///   negative, or an occurrence would fall after the year 9999.
    public func upcomingDates(
        from today: ContactDate, within days: Int? = nil, people: [Person]? = nil
    ) throws -> [UpcomingDate] {
        guard let start = today.dayNumber else {
            throw ContactsError(.invalidValue, "the day to count from needs a year")
        }
        if let days, days < 0 { throw ContactsError(.invalidValue, "the number of days cannot be negative") }
        var found: [UpcomingDate] = []
        for person in people ?? allPeople(sortedBy: nil) {
            for (kind, date, identifier) in AddressBook.celebratedDates(of: person) {
                let next = try date.nextOccurrence(onOrAfter: today)
                let distance = (next.dayNumber ?? start) - start
                if let days, distance > days { continue }
                let age = date.year.flatMap { year in next.year.map { $0 - year } }.flatMap { $0 >= 0 ? $0 : nil }
                found.append(
                    UpcomingDate(
                        recordID: person.recordID, name: person.compositeName, kind: kind, date: date,
                        entryIdentifier: identifier, next: next, days: distance, age: age))
            }
        }
        return found.enumerated().sorted { ($0.element.days, $0.offset) < ($1.element.days, $1.offset) }.map(\.element)
    }

    /// A person's birthday and anniversaries, in that order, each with its entry's identifier
    /// (none for the birthday).
    static func celebratedDates(
        of person: Person
    ) -> [(kind: UpcomingDate.Kind, date: ContactDate, identifier: MultiValueIdentifier?)] {
        var dates: [(kind: UpcomingDate.Kind, date: ContactDate, identifier: MultiValueIdentifier?)] = []
        if let birthday = person.birthday { dates.append((.birthday, birthday, nil)) }
        for entry in person.dates.entries where entry.label == .anniversary {
            dates.append((.anniversary, entry.value, entry.identifier))
        }
        return dates
    }

    /// The birthdays and anniversaries of people as an iCalendar (RFC 5545) calendar, with CRLF
    /// line ends: one all-day event per date, repeating yearly, to subscribe to or import in a
    /// calendar app.
    ///
    /// Each event's `UID` is made from the person's UID and the kind of date (and the
    /// anniversary's entry identifier), so importing the calendar again updates the same
    /// events; a date without a year starts in 1604, as Apple's apps write it; a 29 February
    /// repeats on the last day of February (`BYMONTH=2;BYMONTHDAY=-1`), the 28th in common
    /// years. The same people give the same bytes. A person never saved and without a stored
    /// UID has no event.
    ///
    /// ```swift
    /// let text = try book.birthdayCalendar()
    /// try Data(text.utf8).write(to: URL(filePath: "birthdays.ics"))
    /// ```
    ///
    /// - Parameters:
    ///   - people: The people whose dates to write, in the events' order; `nil` for everyone in
    ///     the book's sort ordering.
    ///   - name: The calendar's name (`X-WR-CALNAME`), shown by calendar apps.
    /// - Throws: ``ContactsError/Code/recordInAnotherBook`` for a person of another book.
    public func birthdayCalendar(people: [Person]? = nil, name: String = "Birthdays") throws -> String {
        let people = people ?? allPeople(sortedBy: nil)
        try requireOwnPeople(people)
        return BirthdayCalendar(name: name).text(for: people)
    }
}
