import PlainContacts

/// `contacts rm ID...`: removes people in one save.
enum RemoveCommand: Command {
    static let name = "rm"
    static let positionals = Positionals(.oneOrMore("ID"), expected: "at least one ID")
    static let summary = "Remove people, and their group memberships, in one save."
    static let discussion = "If any ID is unknown, nothing is removed and the exit status is 66."

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let ids = arguments.positionals
        let book = try context.openBook()
        for person in try PersonLookup.people(ids: ids, in: book) {
            try book.remove(person)
        }
        try book.save()
    }
}
