/// `contacts group rename GROUP NEW`.
enum GroupRenameCommand: Command {
    static let name = "rename"
    static let positionals = Positionals(.one("GROUP"), .one("NEW-NAME"), expected: "GROUP and NEW-NAME")
    static let summary = "Rename a group (named by ID or name)."

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let words = arguments.positionals
        let newName = words[1].trimmingWhitespace
        guard !newName.isEmpty else { throw CLIError.usage("a group needs a name") }
        let book = try context.openBook()
        let group = try GroupLookup.group(words[0], in: book)
        if let other = book.groups(named: newName).first(where: { $0 !== group }) {
            throw CLIError.failure("a group named \"\(newName)\" already exists (ID \(other.recordID))")
        }
        group.name = newName
        try book.save()
    }
}
