import PlainContacts

/// `contacts set ID KEY=VALUE...`: changes properties of one person in one save.
enum SetCommand: Command {
    static let name = "set"
    static let positionals = Positionals(.one("ID"), .oneOrMore("KEY=VALUE"), expected: "ID and at least one KEY=VALUE")
    static let summary = "Change properties of a person; an empty VALUE removes the property."
    static var discussion: String {
        """
        KEY is a key of the record file: \(PropertyEdit.editableKeys.joined(separator: ", ")).
        Text keys take plain text; birthday takes YYYY-MM-DD or --MM-DD; kind takes person or
        organization. Multi-value keys (phones, emails, urls, addresses, dates, relatedNames,
        instantMessages, socialProfiles) take a JSON array that replaces the whole list:
          contacts set 12 'phones=[{"label": "mobile", "value": "+1 555 0100"}]'
        Entries that keep their "id" (see `contacts show ID --json`) keep their identifier;
        entries without one get a new one. All changes are saved together, or none is.
        """
    }

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let words = arguments.positionals
        var edits: [PropertyEdit] = []
        for assignment in words.dropFirst() {
            guard let equals = assignment.firstIndex(of: "=") else {
                throw CLIError.usage("each change is written KEY=VALUE (KEY= removes the property)")
            }
            let key = String(assignment[..<equals])
            guard !edits.contains(where: { $0.property.key == key }) else {
                throw CLIError.usage("\(key) is given more than once")
            }
            edits.append(try PropertyEdit(key: key, text: String(assignment[assignment.index(after: equals)...])))
        }
        let book = try context.openBook()
        let person = try PersonLookup.person(id: words[0], in: book)
        try person.apply(edits)
        try book.save()
    }
}
