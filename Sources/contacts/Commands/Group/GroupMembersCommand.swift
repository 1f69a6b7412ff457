/// `contacts group members GROUP`: the members, as `list` prints people.
enum GroupMembersCommand: Command {
    static let name = "members"
    static let positionals: Positionals = [.one("GROUP")]
    static let summary = "List the members of a group, as `contacts list` does."

    /// The options of `group members`.
    struct Options: OptionGroup {
        let sort = SharedOptions.sort
        let json = SharedOptions.json
    }

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let text = arguments.positionals[0]
        let ordering = try arguments[\.sort]
        let book = try context.openBook()
        let group = try GroupLookup.group(text, in: book)
        let members = group.members(sortedBy: ordering ?? book.sortOrdering)
        try PersonLookup.checkReads(book)
        PersonLine.print(members, in: book, json: arguments[\.json], console: context.console)
    }
}
