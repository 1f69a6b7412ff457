/// `contacts group rm GROUP`: removes a group; its members stay in the book.
enum GroupRemoveCommand: Command {
    static let name = "rm"
    static let positionals: Positionals = [.one("GROUP")]
    static let summary = "Remove a group (its members stay in the address book)."

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let text = arguments.positionals[0]
        let book = try context.openBook()
        try book.remove(try GroupLookup.group(text, in: book))
        try book.save()
    }
}
