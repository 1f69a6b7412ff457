import Glibc
import PlainContacts

/// `contacts export [ID...] [--group GROUP] [--format vcard|csv|outlook-csv|ldif|ics]`: people as vCards, CSV, or their
/// birthdays as a calendar, on standard output or in a file.
enum ExportCommand: Command {
    static let name = "export"
    static let positionals: Positionals = [.zeroOrMore("ID")]
    static let summary = "Export people as vCards, or their birthdays as a calendar: given IDs, a group, or everyone."

    /// The options of `export`.
    struct Options: OptionGroup {
        let group = Option<String>("group", "GROUP", help: "Export the members of this group (ID or name).")
        let format = Option<ExportFormat>(
            "format", ExportFormat.words, help: "What to write: vCards (default), Google or Outlook CSV, LDIF, or an iCalendar birthday calendar.",
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
        updates the same people instead of adding new ones. A group without members (of
        everyone's groups, or the --group) is written as a group card after the people. FILE
        is written whole or not at all: a temporary file beside it is renamed over it.

        --format csv writes Google Contacts' CSV (which Google, Outlook.com and iCloud import):
        one row per person, numbered columns for each email, phone, address, relation,
        website, event and account, groups in "Labels", columns kept from a CSV import as
        custom fields. --format outlook-csv writes Outlook's CSV with English headers: three
        emails, one business, home and other address, one column per kind of phone; dates
        M/D/YYYY (--MM-DD without a year). --format ldif writes the LDIF Thunderbird imports
        (people, then their groups as lists). Importing any of these into a store gives the
        same people for every field the format carries.

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
        var groups: [Group] = []
        if !ids.isEmpty {
            people = try PersonLookup.people(ids: ids, in: book)
        } else if let name = arguments[\.group] {
            let group = try GroupLookup.group(name, in: book)
            people = book.sorted(group.members(), by: book.sortOrdering)
            groups = [group]
            try PersonLookup.checkReads(book)
        } else {
            people = book.allPeople(sortedBy: nil)
            groups = book.allGroups()
            try PersonLookup.checkReads(book)
        }
        let text: String
        switch format {
        case .vcard: text = try book.exportVCards(people, groups: groups, version: version)
        case .csv: text = try book.exportCSV(people, layout: .google)
        case .outlookCSV: text = try book.exportCSV(people, layout: .outlook)
        case .ldif: text = try book.exportLDIF(people)
        case .ics: text = try book.birthdayCalendar(people: people)
        }
        if let output {
            try OutputFile.replace(output, with: Array(text.utf8))
        } else if !FileDescriptorWriter.writeAll(Array(text.utf8), to: STDOUT_FILENO) {
            throw CLIError.failure("cannot write to standard output (\(String(cString: strerror(errno))))")
        }
    }
}
