/// `contacts group members GROUP`: the members, as `list` prints people.
enum GroupMembersCommand: Command {
    static let name = "members"
    static let synopsis = "GROUP [--sort first|last] [--json]"
    static let summary = "List the members of a group, as `contacts list` does."
    static let options: [OptionSpec] = [.sort, .json]

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws {
        let text = try arguments.positional("GROUP")
        let ordering = try SortOption.ordering(arguments)
        let book = try context.openBook()
        let group = try GroupLookup.group(text, in: book)
        let members = group.members(sortedBy: ordering ?? book.sortOrdering)
        try PersonLookup.checkReads(book)
        PersonLine.print(members, in: book, json: arguments.flag("json"), console: context.console)
    }
}
