import PlainContacts

/// `contacts rm ID...`: removes people in one save.
enum RemoveCommand: Command {
    static let name = "rm"
    static let synopsis = "ID..."
    static let summary = "Remove people, and their group memberships, in one save."
    static let discussion = "If any ID is unknown, nothing is removed and the exit status is 66."

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws {
        let ids = try arguments.positionals(1...Int.max, "at least one ID")
        let book = try context.openBook()
        for person in try PersonLookup.people(ids: ids, in: book) {
            try book.remove(person)
        }
        try book.save()
    }
}
