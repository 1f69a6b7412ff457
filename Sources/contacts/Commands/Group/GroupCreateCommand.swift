import PlainContacts

/// `contacts group create NAME`: creates a group and prints its record ID.
enum GroupCreateCommand: Command {
    static let name = "create"
    static let positionals: Positionals = [.one("NAME")]
    static let summary = "Create a group and print its record ID."

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let name = arguments.positionals[0].trimmingWhitespace
        guard !name.isEmpty else { throw CLIError.usage("a group needs a name") }
        let book = try context.openBook()
        if let existing = book.groups(named: name).first {
            throw CLIError.failure("a group named \"\(name)\" already exists (ID \(existing.recordID))")
        }
        let group = Group(name: name)
        try book.add(group)
        try book.save()
        context.console.print(group.recordID.description)
    }
}
