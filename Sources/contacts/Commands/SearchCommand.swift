import PlainContacts

/// `contacts search TEXT`: the library's name search.
enum SearchCommand: Command {
    static let name = "search"
    static let positionals = Positionals(.oneOrMore("TEXT"), expected: "TEXT")
    static let summary = "Find people by name: every word must begin a word of their names."

    /// The options of `search`.
    struct Options: OptionGroup {
        let json = SharedOptions.json
    }

    static let discussion = """
        The names searched are the prefix, first, middle and last name, suffix, phonetic names,
        nickname and organization; case, accents and character width are ignored. Finding nobody
        is not an error: the output is empty (or [] with --json).
        """

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let words = arguments.positionals
        let book = try context.openBook()
        let query = words.joined(separator: " ")
        if !arguments[\.json] {
            // Plain lines come from the index: no person's file is read.
            try book.validate()
            context.console.print(lines: book.listing(matchingName: query).map(PersonLine.line))
            return
        }
        let people = book.people(matchingName: query)
        try PersonLookup.checkReads(book)
        PersonLine.print(people, in: book, json: arguments[\.json], console: context.console)
    }
}
