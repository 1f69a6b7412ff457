/// A calendar date that may lack a year, as a birthday or an anniversary.
///
/// Its text form is `YYYY-MM-DD`, or `--MM-DD` when the year is unknown (the vCard form).
///
/// ```swift
/// let birthday = try ContactDate(parsing: "--04-12")
/// print(birthday.year == nil)   // true
/// ```
public struct ContactDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year, or `nil` when unknown.
    public var year: Int?
    /// The month, 1 to 12.
    public var month: Int
    /// The day of the month, 1 to 31.
    public var day: Int

    /// Creates a date, checking that the day exists in that month.
    ///
    /// - Throws: ``ContactsError/Code/invalidValue`` for an impossible date.
    public init(year: Int? = nil, month: Int, day: Int) throws {
        guard ContactDate.isValid(year: year, month: month, day: day) else {
            throw ContactsError(.invalidValue, "\(month)/\(day) is not a day of the calendar")
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` or `--MM-DD`.
    ///
    /// - Throws: ``ContactsError/Code/invalidValue`` when the text is not such a date.
    public init(parsing text: String) throws {
        let invalid = ContactsError(
            .invalidValue, "a date must be written YYYY-MM-DD, or --MM-DD without a year")
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        let dash = UInt8(ascii: "-")
        if bytes.count == 7, bytes[0] == dash, bytes[1] == dash, bytes[4] == dash,
            let month = number(2..<4), let day = number(5..<7)
        {
            try self.init(year: nil, month: month, day: day)
        } else if bytes.count == 10, bytes[4] == dash, bytes[7] == dash,
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10)
        {
            try self.init(year: year, month: month, day: day)
        } else {
            throw invalid
        }
    }

    /// The text form: `YYYY-MM-DD`, or `--MM-DD` without a year.
    public var description: String {
        let monthDay = "\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
        guard let year else { return "--" + monthDay }
        let yearText = String(year)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + "-" + monthDay
    }

    /// Orders by year (unknown years first), then month, then day.
    public static func < (lhs: ContactDate, rhs: ContactDate) -> Bool {
        (lhs.year ?? Int.min, lhs.month, lhs.day) < (rhs.year ?? Int.min, rhs.month, rhs.day)
    }

    static func isValid(year: Int?, month: Int, day: Int) -> Bool {
        if let year, !(1...9999).contains(year) { return false }
        guard (1...12).contains(month), day >= 1 else { return false }
        let lengths = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        if month == 2, day == 29, let year {
            return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        }
        return day <= lengths[month - 1]
    }
}
