import Glibc

/// Counting days between dates, and the date of a day: what finding a birthday's next
/// occurrence and writing a birthday calendar need.
///
/// Dates are proleptic Gregorian, as the store's timestamps are; a date without a year has no
/// place on the calendar until ``occurrence(in:)`` gives it one.
extension ContactDate {
    /// Today in the machine's time zone (`localtime_r`), with its year.
    ///
    /// ```swift
    /// let upcoming = book.upcomingDates(from: .today())
    /// ```
    public static func today() -> ContactDate {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        // localtime_r gives a real date; the fallback only keeps the function total.
        return (try? ContactDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday)))
            ?? ContactDate.epoch
    }

    /// 1970-01-01.
    static let epoch = ContactDate(validYear: 1970, month: 1, day: 1)

    /// A date known to be valid.
    init(validYear year: Int?, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Whether `year` has a 29 February.
    static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// Days since 1970-01-01, or `nil` without a year.
    var dayNumber: Int? {
        year.map { Timestamp.days(fromCivil: $0, month, day) }
    }

    /// The date `count` days after this one (before it for a negative count), or `nil` without
    /// a year or outside years 1 to 9999.
    func adding(days count: Int) -> ContactDate? {
        guard let dayNumber else { return nil }
        let (year, month, day) = Timestamp.civil(fromDays: dayNumber + count)
        guard (1...9999).contains(year) else { return nil }
        return ContactDate(validYear: year, month: month, day: day)
    }

    /// The day this date's month and day fall on in `year`: itself, or 28 February for a
    /// 29 February in a common year (as most calendar apps and legal conventions count a
    /// leap-day birthday).
    ///
    /// ```swift
    /// try ContactDate(parsing: "--02-29").occurrence(in: 2027)   // 2027-02-28
    /// ```
    public func occurrence(in year: Int) -> ContactDate {
        if month == 2, day == 29, !ContactDate.isLeapYear(year) {
            return ContactDate(validYear: year, month: 2, day: 28)
        }
        return ContactDate(validYear: year, month: month, day: day)
    }

    /// The first day on or after `start` that this date's month and day fall on
    /// (``occurrence(in:)``): this year's, or next year's when this year's has passed.
    ///
    /// ```swift
    /// let next = try ContactDate(parsing: "1986-04-12").nextOccurrence(onOrAfter: ContactDate(parsing: "2026-11-26"))
    /// print(next)   // 2027-04-12
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/invalidValue`` when `start` has no year, or the
    ///   occurrence would fall after the year 9999.
    public func nextOccurrence(onOrAfter start: ContactDate) throws -> ContactDate {
        guard let year = start.year else {
            throw ContactsError(.invalidValue, "the day to count from needs a year")
        }
        let thisYear = occurrence(in: year)
        if thisYear >= start { return thisYear }
        guard year < 9999 else { throw ContactsError(.invalidValue, "the next occurrence falls after the year 9999") }
        return occurrence(in: year + 1)
    }
}
