import Foundation
import PlainContacts

/// A date as an export writes it, in whatever order and spelling (`20.01.1971`, `7/4/1985`,
/// `1975-12-12`, `--04-12`, `december`): the numbers and month names it holds, which a stored
/// date must all agree with to count as the same date.
///
/// ```swift
/// let date = SourceDate("20.01.1971")
/// date.matches(try ContactDate(year: 1971, month: 1, day: 20))   // true
/// ```
struct SourceDate {
    /// The numbers written, in order.
    var numbers: [Int]
    /// The months written as words (`december`, `Dezember`, `décembre`).
    var monthNames: [Int]

    /// Month names in English, German and French, lowercased, in calendar order.
    private static let months: [[String]] = [
        ["january", "jan", "januar", "janvier"], ["february", "feb", "februar", "février"],
        ["march", "mar", "märz", "mars"], ["april", "apr", "avril"], ["may", "mai"], ["june", "jun", "juni", "juin"],
        ["july", "jul", "juli", "juillet"], ["august", "aug", "août"], ["september", "sep", "sept", "septembre"],
        ["october", "oct", "oktober", "octobre"], ["november", "nov", "novembre"],
        ["december", "dec", "dezember", "décembre"],
    ]

    /// Reads the numbers and month names of `text`.
    init(_ text: String) {
        numbers = text.split { !$0.isASCII || !$0.isNumber }.compactMap { Int($0) }
        let words = text.lowercased().split { !$0.isLetter }.map(String.init)
        monthNames = words.compactMap { word in Self.months.firstIndex { $0.contains(word) }.map { $0 + 1 } }
    }

    /// Whether the text can be a date at all: a month and a day among its numbers and names.
    var isDate: Bool {
        let small = numbers.filter { (1...31).contains($0) }
        if !monthNames.isEmpty { return !small.isEmpty }
        return small.count >= 2 && small.contains { $0 <= 12 }
    }

    /// The year written with four digits, if any.
    var year: Int? { numbers.first { $0 >= 1000 } }

    /// Whether `date` is this date: its day and month are written here, and its year too when
    /// the text gives one with four digits (a date stored without the year of the text is lost).
    func matches(_ date: ContactDate) -> Bool {
        guard numbers.contains(date.day), numbers.contains(date.month) || monthNames.contains(date.month) else {
            return false
        }
        if let year { return date.year == year }
        return true
    }

    /// Whether the text gives the part `part` of `date`: its year, its month (as a number or
    /// a name) or its day.
    func matches(_ date: ContactDate, part: FieldKind.DatePart) -> Bool {
        switch part {
        case .year: date.year.map(numbers.contains) ?? false
        case .month: numbers.contains(date.month) || monthNames.contains(date.month)
        case .day: numbers.contains(date.day)
        }
    }
}
