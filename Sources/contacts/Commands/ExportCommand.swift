import Glibc
import PlainContacts

/// `contacts export [ID...] [--group GROUP]`: people as vCards, on standard output or in a file.
enum ExportCommand: Command {
    static let name = "export"
    static let positionals: Positionals = [.zeroOrMore("ID")]
    static let summary = "Export people as vCards: the given IDs, a group's members, or everyone."

    /// The options of `export`.
    struct Options: OptionGroup {
        let group = Option<String>("group", "GROUP", help: "Export the members of this group (ID or name).")
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
        """

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let ids = arguments.positionals
        let version = try arguments[\.vcardVersion] ?? .v3
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
        let text = try book.exportVCards(people, groups: groups, version: version)
        if let output {
            try OutputFile.replace(output, with: Array(text.utf8))
        } else if !FileDescriptorWriter.writeAll(Array(text.utf8), to: STDOUT_FILENO) {
            throw CLIError.failure("cannot write to standard output (\(String(cString: strerror(errno))))")
        }
    }
}
