import PlainContacts

/// `contacts merge KEEP-ID OTHER-ID`: merges a duplicate into the person who survives it.
enum MergeCommand: Command {
    static let name = "merge"
    static let positionals: Positionals = [.one("KEEP-ID"), .one("OTHER-ID")]
    static let summary = "Merge the second person into the first and print the first one's ID."
    static let discussion = """
        The first person keeps its own values and takes the second one's where it has none;
        phones, emails and the other lists are united without repeating a value; the first
        person joins the second one's groups and takes its image if it has none. The second
        person is removed, and references to it (the "ref" of --json output) now resolve to the
        first one. Find candidates with `contacts duplicates`.
        """

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let words = arguments.positionals
        let book = try context.openBook()
        let survivor = try PersonLookup.person(id: words[0], in: book)
        let duplicate = try PersonLookup.person(id: words[1], in: book)
        guard survivor !== duplicate else {
            throw CLIError.usage("the two IDs name the same person")
        }
        try book.mergePerson(duplicate, into: survivor)
        try book.save()
        context.console.print(survivor.recordID.description)
    }
}
