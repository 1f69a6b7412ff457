/// `contacts group rm GROUP`: removes a group; its members stay in the book.
enum GroupRemoveCommand: Command {
    static let name = "rm"
    static let synopsis = "GROUP"
    static let summary = "Remove a group (its members stay in the address book)."

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws {
        let text = try arguments.positional("GROUP")
        let book = try context.openBook()
        try book.remove(try GroupLookup.group(text, in: book))
        try book.save()
    }
}
