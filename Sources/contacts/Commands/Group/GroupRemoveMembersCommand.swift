/// `contacts group remove GROUP ID...`: takes people out of a group in one save.
enum GroupRemoveMembersCommand: Command {
    static let name = "remove"
    static let positionals = Positionals(.one("GROUP"), .oneOrMore("ID"), expected: "GROUP and at least one ID")
    static let summary = "Take people out of a group (they stay in the address book)."

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let words = arguments.positionals
        let book = try context.openBook()
        let group = try GroupLookup.group(words[0], in: book)
        for person in try PersonLookup.people(ids: Array(words.dropFirst()), in: book) {
            try group.removeMember(person)
        }
        try book.save()
    }
}
