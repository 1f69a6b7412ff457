import PlainContacts

/// `contacts list`: everyone, or the people a filter keeps.
enum ListCommand: Command {
    static let name = "list"
    static let synopsis = "[--sort first|last] [--group GROUP] [--email TEXT] [--phone DIGITS] [--org TEXT] [--json]"
    static let summary = "List people: ID, name, first phone and first email, one per line."
    static let options: [OptionSpec] = [
        .sort,
        .value("group", "GROUP", help: "Only the members of this group (ID or name)."),
        .value("email", "TEXT", help: "Only people with an email address containing TEXT (any case)."),
        .value("phone", "DIGITS", help: "Only people with a phone number containing DIGITS (other characters ignored)."),
        .value("org", "TEXT", help: "Only people whose organization contains TEXT (any case)."),
        .json,
    ]

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws {
        _ = try arguments.positionals(0...0, "options only")
        let ordering = try SortOption.ordering(arguments)
        let filter = try PersonFilter(arguments)
        let book = try context.openBook()
        let hasFilters = arguments.value("group") != nil || arguments.value("email") != nil
            || arguments.value("phone") != nil || arguments.value("org") != nil
        if !hasFilters && !arguments.flag("json") {
            // The plain list comes from the index: no person's file is read.
            try book.validate()
            context.console.print(lines: book.listing(sortedBy: ordering ?? book.sortOrdering).map(PersonLine.line))
            return
        }
        var people: [Person]
        if let text = arguments.value("group") {
            people = try GroupLookup.group(text, in: book).members()
        } else {
            people = book.allPeople()
        }
        try PersonLookup.checkReads(book)
        people = book.sorted(people.filter(filter.matches), by: ordering ?? book.sortOrdering)
        PersonLine.print(people, in: book, json: arguments.flag("json"), console: context.console)
    }
}
