import PlainContacts

/// `contacts list`: everyone, or the people a filter keeps.
enum ListCommand: Command {
    static let name = "list"
    static let positionals = Positionals(expected: "options only")
    static let summary = "List people: ID, name, first phone and first email, one per line."

    /// The options of `list`.
    struct Options: OptionGroup {
        let sort = SharedOptions.sort
        let group = Option<String>("group", "GROUP", help: "Only the members of this group (ID or name).")
        let email = Option<String>(
            "email", "TEXT", help: "Only people with an email address containing TEXT (any case).")
        let phone = Option<String>(
            "phone", "DIGITS", help: "Only people with a phone number containing DIGITS (other characters ignored).")
        let org = Option<String>("org", "TEXT", help: "Only people whose organization contains TEXT (any case).")
        let json = SharedOptions.json
    }

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let ordering = try arguments[\.sort]
        let filter = PersonFilter(email: arguments[\.email], phone: arguments[\.phone], organization: arguments[\.org])
        guard filter.phoneDigits?.isEmpty != true else { throw CLIError.usage("--phone needs some digits to look for") }
        let book = try context.openBook()
        let hasFilters = arguments[\.group] != nil || arguments[\.email] != nil
            || arguments[\.phone] != nil || arguments[\.org] != nil
        if !hasFilters && !arguments[\.json] {
            // The plain list comes from the index: no person's file is read.
            try book.validate()
            context.console.print(lines: book.listing(sortedBy: ordering ?? book.sortOrdering).map(PersonLine.line))
            return
        }
        var people: [Person]
        if let text = arguments[\.group] {
            people = try GroupLookup.group(text, in: book).members()
        } else {
            people = book.allPeople()
        }
        try PersonLookup.checkReads(book)
        people = book.sorted(people.filter(filter.matches), by: ordering ?? book.sortOrdering)
        PersonLine.print(people, in: book, json: arguments[\.json], console: context.console)
    }
}
