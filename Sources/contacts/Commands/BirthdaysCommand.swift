import PlainContacts
import PlainContactsSystem

/// `contacts birthdays [--days N] [--json]`: the coming birthdays and anniversaries, soonest
/// first.
enum BirthdaysCommand: Command {
    static let name = "birthdays"
    static let positionals = Positionals(expected: "options only")
    static let summary = "List the coming birthdays and anniversaries, soonest first."

    /// The environment variable that sets the day counted from, `YYYY-MM-DD`, instead of the
    /// machine's today: for tests, which need a fixed day.
    static let todayVariable = "CONTACTS_TODAY"

    /// The options of `birthdays`.
    struct Options: OptionGroup {
        let days = Option<Int>(
            "days", "N", help: "Only those in the next N days (0: today's); default: the whole coming year."
        ) { text throws(CLIError) in
            guard let days = Int(text), days >= 0, days <= 366 else {
                throw CLIError.usage("--days is a number of days from 0 to 366")
            }
            return days
        }
        let json = SharedOptions.json
    }

    static let discussion = """
        Each person's birthday and every date labelled anniversary, at its next occurrence from
        today (today's is "today", 0 days away), one per line: ID, tab, then the date, how far
        away it is, the name and what it is, in aligned columns. With a year, a birthday says
        the age reached that day and an anniversary the years completed; a date without a year
        (--04-12) says neither. A 29 February falls on 28 February in common years, as most
        calendar apps and legal conventions count it.

        With --json, prints an array of objects: id, name (absent for a person without one),
        kind (birthday or anniversary), date (as stored), next (YYYY-MM-DD), inDays, and age
        when the stored date has a year.

        Today is the machine's local date; CONTACTS_TODAY=YYYY-MM-DD sets another, for testing.
        `contacts export --format ics` writes the same dates as a calendar to subscribe to.
        """

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let today = try today(in: context)
        let book = try context.openBook()
        let people = book.allPeople(sortedBy: nil)
        try PersonLookup.checkReads(book)
        let upcoming = try book.upcomingDates(from: today, within: try arguments[\.days], people: people)
        if arguments[\.json] {
            context.console.printJSON(.array(upcoming.map(json)))
        } else {
            context.console.print(lines: lines(upcoming))
        }
    }

    /// The day counted from: `$CONTACTS_TODAY` when set, else the machine's today.
    ///
    /// - Throws: a usage error when the variable is not a date with a year.
    static func today(in context: CommandContext) throws(CLIError) -> ContactDate {
        guard let text = context.environment[todayVariable], !text.isEmpty else { return .today() }
        guard let date = try? ContactDate(parsing: text), date.year != nil else {
            throw CLIError.usage("\(todayVariable) must be a date written YYYY-MM-DD")
        }
        return date
    }

    /// The text lines: ID, tab, then date, distance, name and description, each column padded
    /// to its widest value.
    static func lines(_ upcoming: [UpcomingDate]) -> [String] {
        let rows = upcoming.map { ($0, distance($0.days), $0.name ?? "") }
        let distanceWidth = rows.map(\.1.count).max() ?? 0
        let nameWidth = rows.map(\.2.count).max() ?? 0
        return rows.map { upcoming, distance, name in
            [
                upcoming.recordID.description + "\t" + upcoming.next.description,
                padded(distance, to: distanceWidth),
                padded(name, to: nameWidth),
                description(of: upcoming),
            ].joined(separator: "  ")
        }
    }

    /// `today`, `tomorrow`, `in 12 days`.
    static func distance(_ days: Int) -> String {
        switch days {
        case 0: "today"
        case 1: "tomorrow"
        default: "in \(days) days"
        }
    }

    /// `birthday (turns 40)`, `anniversary (10 years)`, or the kind alone without an age.
    static func description(of upcoming: UpcomingDate) -> String {
        guard let age = upcoming.age, age > 0 else { return upcoming.kind.rawValue }
        switch upcoming.kind {
        case .birthday: return "birthday (turns \(age))"
        case .anniversary: return "anniversary (\(age) year\(age == 1 ? "" : "s"))"
        }
    }

    /// `text` followed by spaces up to `width` characters.
    private static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    /// One occurrence as JSON.
    static func json(_ upcoming: UpcomingDate) -> JSONValue {
        var fields: [String: JSONValue] = [
            "id": .number(JSONNumber(Int(upcoming.recordID.rawValue))),
            "kind": .string(upcoming.kind.rawValue),
            "date": .string(upcoming.date.description),
            "next": .string(upcoming.next.description),
            "inDays": .number(JSONNumber(upcoming.days)),
        ]
        if let name = upcoming.name { fields["name"] = .string(name) }
        if let age = upcoming.age { fields["age"] = .number(JSONNumber(age)) }
        return .object(fields)
    }
}
