import Glibc
import PlainContacts

/// `contacts export [ID...] [--group GROUP] [--format vcard|ics]`: people as vCards, or their
/// birthdays as a calendar, on standard output or in a file.
enum ExportCommand: Command {
    static let name = "export"
    static let positionals: Positionals = [.zeroOrMore("ID")]
    static let summary = "Export people as vCards, or their birthdays as a calendar: given IDs, a group, or everyone."

    /// The options of `export`.
    struct Options: OptionGroup {
        let group = Option<String>("group", "GROUP", help: "Export the members of this group (ID or name).")
        let format = Option<ExportFormat>(
            "format", ExportFormat.words, help: "What to write: vCards (default) or an iCalendar birthday calendar.",
            completion: .words(ExportFormat.allCases.map(\.rawValue)), parse: ExportFormat.parse)
        let vcardVersion = Option<VCardVersion>(
            "vcard-version", "3.0|4.0", help: "The vCard version to write (default 3.0).",
            completion: .words(VCardVersion.allCases.map(\.rawValue))
        ) { text throws(CLIError) in
            guard let version = VCardVersion(rawValue: text) else {
                throw CLIError.usage("--vcard-version is 3.0 or 4.0")
            }
            return version
        }
        let output = Option<String>(
            "output", "FILE", help: "Write to FILE, replacing it, instead of standard output.", short: "o")
    }

    static let discussion = """
        Without IDs or --group everyone is exported, in the store's sort order; a group's
        members come in that order too, IDs in the order given. Cards end lines with CRLF and
        carry each person's groups (CATEGORIES) and UID, so that importing the file again
        updates the same people instead of adding new ones. FILE is written whole or not at
        all: a temporary file beside it is renamed over it.

        --format ics writes an iCalendar (RFC 5545) birthday calendar instead, to import into
        or subscribe to in a calendar app (`contacts serve` publishes it at
        /NAME/birthdays.ics): each birthday and each date labelled anniversary is an all-day
        event repeating yearly, "Katie Bell's birthday". A date with a year starts on that
        date, one without in 1604, as Apple's apps write it. A 29 February repeats on the last
        day of February, the 28th in common years, as most calendar apps and legal
        conventions count it. Each event's UID is the person's UID followed by -birthday or
        -anniversary-ID (the date's entry ID), so that importing the file again updates the
        same events; the same store gives the same bytes.
        """

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let ids = arguments.positionals
        let format = try arguments[\.format] ?? .vcard
        let requestedVersion = try arguments[\.vcardVersion]
        if format != .vcard, requestedVersion != nil {
            throw CLIError.usage("--vcard-version goes with --format vcard only")
        }
        let version = requestedVersion ?? .v3
        if !ids.isEmpty, arguments[\.group] != nil {
            throw CLIError.usage("give IDs or --group, not both")
        }
        let output = arguments[\.output].flatMap { $0 == "-" ? nil : $0 }
        if output?.isEmpty == true { throw CLIError.usage("--output needs a file name") }
        let book = try context.openBook()
        let people: [Person]
        if !ids.isEmpty {
            people = try PersonLookup.people(ids: ids, in: book)
        } else if let group = arguments[\.group] {
            people = book.sorted(try GroupLookup.group(group, in: book).members(), by: book.sortOrdering)
            try PersonLookup.checkReads(book)
        } else {
            people = book.allPeople(sortedBy: nil)
            try PersonLookup.checkReads(book)
        }
        let text: String
        switch format {
        case .vcard: text = try book.exportVCards(people, version: version)
        case .ics: text = try book.birthdayCalendar(people: people)
        }
        if let output {
            try OutputFile.replace(output, with: Array(text.utf8))
        } else if !FileDescriptorWriter.writeAll(Array(text.utf8), to: STDOUT_FILENO) {
            throw CLIError.failure("cannot write to standard output (\(String(cString: strerror(errno))))")
        }
    }
}
