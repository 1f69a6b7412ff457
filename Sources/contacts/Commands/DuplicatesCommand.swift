import PlainContacts

/// `contacts duplicates [--json]`: lists people who are probably the same person.
enum DuplicatesCommand: Command {
    static let name = "duplicates"
    static let summary = "List groups of people who are probably the same person."

    /// The options of `duplicates`.
    struct Options: OptionGroup {
        let json = SharedOptions.json
    }

    static let discussion = """
        People are grouped when they share a first and last name (ignoring case and accents), an
        organization name (for organizations), a phone number (the last nine digits) or an email
        address (ignoring case). Each group is printed as person lines (ID, name, first phone,
        first email), groups separated by a blank line; merge a group with
        `contacts merge KEEP-ID OTHER-ID`. With --json, prints an array of groups, each an array
        of people as `contacts show --json` prints them.
        """

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let book = try context.openBook()
        let groups = book.likelyDuplicates()
        if arguments[\.json] {
            context.console.printJSON(.array(groups.map { PersonJSONView.json(of: $0, in: book) }))
        } else {
            let blocks = groups.map { $0.map(PersonLine.line).joined(separator: "\n") }
            if !blocks.isEmpty { context.console.print(blocks.joined(separator: "\n\n")) }
        }
    }
}
