import PlainContacts

/// `contacts show ID|NAME [--json]`: the person view.
enum ShowCommand: Command {
    static let name = "show"
    static let positionals = Positionals(.words("ID|NAME"), expected: "ID or NAME")
    static let summary = "Show one person, by record ID or by a name that matches only them."

    /// The options of `show`.
    struct Options: OptionGroup {
        let json = SharedOptions.json
    }

    static let discussion = """
        NAME is matched as `contacts search` does. When several people match, they are listed
        (ID and name) and the exit status is 64: be more specific or use an ID.
        """

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let words = arguments.positionals
        let book = try context.openBook()
        let person = try PersonLookup.person(idOrName: words.joined(separator: " "), in: book)
        if arguments[\.json] {
            context.console.printJSON(PersonJSONView.json(of: person, in: book))
        } else {
            context.console.print(PersonText.text(person, in: book))
        }
    }
}
