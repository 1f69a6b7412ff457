/// `contacts group add GROUP ID...`: adds people to a group in one save.
enum GroupAddCommand: Command {
    static let name = "add"
    static let synopsis = "GROUP ID..."
    static let summary = "Add people to a group; if any ID is unknown, nobody is added."

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws {
        let words = try arguments.positionals(2...Int.max, "GROUP and at least one ID")
        let book = try context.openBook()
        let group = try GroupLookup.group(words[0], in: book)
        for person in try PersonLookup.people(ids: Array(words.dropFirst()), in: book) {
            try group.addMember(person)
        }
        try book.save()
    }
}
