/// `contacts group add GROUP ID...`: adds people to a group in one save.
enum GroupAddCommand: Command {
    static let name = "add"
    static let positionals = Positionals(.one("GROUP"), .oneOrMore("ID"), expected: "GROUP and at least one ID")
    static let summary = "Add people to a group; if any ID is unknown, nobody is added."

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let words = arguments.positionals
        let book = try context.openBook()
        let group = try GroupLookup.group(words[0], in: book)
        for person in try PersonLookup.people(ids: Array(words.dropFirst()), in: book) {
            try group.addMember(person)
        }
        try book.save()
    }
}
