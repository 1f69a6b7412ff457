import PlainContacts

/// `contacts show ID|NAME [--json]`: the person view.
enum ShowCommand: Command {
    static let name = "show"
    static let synopsis = "ID|NAME [--json]"
    static let summary = "Show one person, by record ID or by a name that matches only them."
    static let options: [OptionSpec] = [.json]
    static let discussion = """
        NAME is matched as `contacts search` does. When several people match, they are listed
        (ID and name) and the exit status is 64: be more specific or use an ID.
        """

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws {
        let words = try arguments.positionals(1...Int.max, "ID or NAME")
        let book = try context.openBook()
        let person = try PersonLookup.person(idOrName: words.joined(separator: " "), in: book)
        if arguments.flag("json") {
            context.console.printJSON(PersonJSONView.json(of: person, in: book))
        } else {
            context.console.print(PersonText.text(person, in: book))
        }
    }
}
