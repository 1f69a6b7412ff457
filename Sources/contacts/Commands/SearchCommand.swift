import PlainContacts

/// `contacts search TEXT`: the library's name search.
enum SearchCommand: Command {
    static let name = "search"
    static let synopsis = "TEXT... [--json]"
    static let summary = "Find people by name: every word must begin a word of their names."
    static let options: [OptionSpec] = [.json]
    static let discussion = """
        The names searched are the prefix, first, middle and last name, suffix, phonetic names,
        nickname and organization; case, accents and character width are ignored. Finding nobody
        is not an error: the output is empty (or [] with --json).
        """

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws {
        let words = try arguments.positionals(1...Int.max, "TEXT")
        let book = try context.openBook()
        let query = words.joined(separator: " ")
        if !arguments.flag("json") {
            // Plain lines come from the index: no person's file is read.
            try book.validate()
            context.console.print(lines: book.listing(matchingName: query).map(PersonLine.line))
            return
        }
        let people = book.people(matchingName: query)
        try PersonLookup.checkReads(book)
        PersonLine.print(people, in: book, json: arguments.flag("json"), console: context.console)
    }
}
