/// Dates as exports write them: ISO (`1975-12-12`, `--12-12`, `19751212`), day-first
/// (`12.12.1975`, `20/01/1991`), month-first (`1/20/1991`), year-first with slashes
/// (`1975/12/12`), with or without a time after them.
///
/// A year of 0, 1 or 1604 (the years Google and Apple write for a date without one) is
/// no year. `0.0.00` and the like, Outlook's "no date", is no date at all. When both the
/// first and second numbers could be the month (`3/4/1990`), `dayFirst` decides.
///
/// ```swift
/// ImportedDate.parse("--04-12", dayFirst: false)      // --04-12
/// ImportedDate.parse("20/01/1991", dayFirst: false)   // 1991-01-20
/// ImportedDate.parse("0.0.00", dayFirst: true)        // nil, and isEmpty("0.0.00") is true
/// ```
enum ImportedDate {
    /// Whether the text means "no date": empty, or only zeros and separators.
    static func isEmpty(_ text: String) -> Bool {
        let trimmed = CardBuilder.trimmed(text)
        return trimmed.allSatisfy { $0 == "0" || $0 == "." || $0 == "/" || $0 == "-" || $0 == " " || $0 == ":" }
    }

    /// The date `text` stands for, or `nil` when it is not a date this reader knows.
    static func parse(_ text: String, dayFirst: Bool) -> ContactDate? {
        var text = CardBuilder.trimmed(text)
        if let space = text.firstIndex(where: { $0 == " " || $0 == "T" }), text.first != "-" || space > text.startIndex {
            text = String(text[..<space])
        }
        if text.hasPrefix("--") {
            let rest = text.dropFirst(2).filter { $0 != "-" }
            guard rest.count == 4, let month = Int(rest.prefix(2)), let day = Int(rest.suffix(2)) else { return nil }
            return date(year: nil, month: month, day: day)
        }
        if text.count == 8, text.allSatisfy(\.isASCIIDigit), let year = Int(text.prefix(4)),
            let month = Int(text.dropFirst(4).prefix(2)), let day = Int(text.suffix(2))
        {
            return date(year: year, month: month, day: day)
        }
        let separators: Set<Character> = ["-", ".", "/"]
        let numbers = text.split(whereSeparator: { separators.contains($0) }).map { Int($0) }
        guard numbers.count == 3, let a = numbers[0], let b = numbers[1], let c = numbers[2] else { return nil }
        let firstWidth = text.prefix { !separators.contains($0) }.count
        let lastWidth = text.split(whereSeparator: { separators.contains($0) }).last?.count ?? 4
        // Dashes with a short last part are ISO's order: Google pads year 1 ("   1-01-01").
        if firstWidth >= 3 || (text.contains("-") && lastWidth <= 2) { return date(year: a, month: b, day: c) }
        let year = fullYear(c, written: lastWidth)
        if text.contains(".") || text.contains("-") { return date(year: year, month: b, day: a) }
        if a > 12 { return date(year: year, month: b, day: a) }
        if b > 12 { return date(year: year, month: a, day: b) }
        return dayFirst ? date(year: year, month: b, day: a) : date(year: year, month: a, day: b)
    }

    /// The month a name or number stands for ("december", "Dez", "12"), as Thunderbird's
    /// birth month column may hold; `nil` for anything else.
    static func month(_ text: String) -> Int? {
        let text = CardBuilder.trimmed(text).lowercased()
        if let number = Int(text) { return (1...12).contains(number) ? number : nil }
        guard text.count >= 3 else { return nil }
        let prefix = String(text.prefix(3))
        return monthPrefixes.first { $0.value.contains(prefix) }?.key
    }

    /// The first three letters of month names in English, German, French, Spanish, Italian and Dutch.
    private static let monthPrefixes: [Int: Set<String>] = [
        1: ["jan", "jän", "jav", "ene", "gen"], 2: ["feb", "fév", "fev"], 3: ["mar", "mär", "maa"],
        4: ["apr", "avr", "abr"], 5: ["may", "mai", "mag", "mei"], 6: ["jun", "jui", "giu"],
        7: ["jul", "lug"], 8: ["aug", "aoû", "aou", "ago"], 9: ["sep", "set"], 10: ["oct", "okt", "ott"],
        11: ["nov"], 12: ["dec", "dez", "déc", "dic"],
    ]

    /// A two-digit year as the nearest one: up to 29 in this century, the rest in the last.
    private static func fullYear(_ year: Int, written width: Int) -> Int {
        guard width <= 2 else { return year }
        return year <= 29 ? 2000 + year : 1900 + year
    }

    private static func date(year: Int?, month: Int, day: Int) -> ContactDate? {
        let year = year.flatMap { $0 <= 1 || $0 == 1604 ? nil : $0 }
        return try? ContactDate(year: year, month: month, day: day)
    }
}

extension Character {
    /// Whether this is one of the ASCII digits 0 to 9.
    var isASCIIDigit: Bool { isASCII && isNumber }
}
