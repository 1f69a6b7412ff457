import PlainContacts

/// `contacts set ID KEY=VALUE... --phone …`: changes properties of one person in one save.
enum SetCommand: Command {
    static let name = "set"
    static let positionals = Positionals(.one("ID"), .zeroOrMore("KEY=VALUE", containing: "="), expected: "ID and at least one KEY=VALUE or value to add")
    static let summary = "Change properties of a person; an empty VALUE removes the property."

    /// The values `set` adds to a person's lists, written as `add` takes them.
    struct Options: OptionGroup {
        let phone = RepeatableOption(labeled: "phone", "[LABEL:]NUMBER", help: "Add a phone number (repeatable).")
        let email = RepeatableOption(labeled: "email", "[LABEL:]ADDRESS", help: "Add an email address (repeatable).")
        let url = RepeatableOption(labeled: "url", "[LABEL:]URL", help: "Add a web address (repeatable).")
        let address = RepeatableOption<String>(
            "address", "[LABEL:]STREET;CITY;STATE;ZIP;COUNTRY", help: "Add a postal address (repeatable).")
    }
    static var discussion: String {
        """
        KEY is a key of the record file: \(PropertyEdit.editableKeys.joined(separator: ", ")).
        Text keys take plain text; birthday takes YYYY-MM-DD or --MM-DD; kind takes person or
        organization. Multi-value keys (phones, emails, urls, addresses, dates, relatedNames,
        instantMessages, socialProfiles) take a JSON array that replaces the whole list:
          contacts set 12 'phones=[{"label": "mobile", "value": "+1 555 0100"}]'
        Entries that keep their "id" (see `contacts show ID --json`) keep their identifier;
        entries without one get a new one. All changes are saved together, or none is.

        --phone, --email, --url and --address add one value to the list, with an optional
        LABEL as `contacts add` takes it, and leave the other entries as they are:
          contacts set 12 --phone work:+1 555 0199 --email kim@example.org
        A value the person already has is not added again (phone numbers are compared by
        their digits, email addresses without case); a note on stderr says so.
        """
    }

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let words = arguments.positionals
        let added: [(property: PropertyID, values: [LabeledValue])] = [
            (.phones, try arguments[\.phone]), (.emails, try arguments[\.email]), (.urls, try arguments[\.url]),
        ]
        let addresses = try arguments[\.address].map(AddressArgument.parse)
        guard words.count > 1 || added.contains(where: { !$0.values.isEmpty }) || !addresses.isEmpty else {
            throw CLIError.usage("give at least one KEY=VALUE, or a value to add such as --phone")
        }
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
        for (property, values) in added where !values.isEmpty && edits.contains(where: { $0.property == property }) {
            throw CLIError.usage("give \(property.key)= or values to add to it, not both")
        }
        if !addresses.isEmpty, edits.contains(where: { $0.property == .addresses }) {
            throw CLIError.usage("give addresses= or values to add to it, not both")
        }
        let book = try context.openBook()
        let person = try PersonLookup.person(id: words[0], in: book)
        try person.apply(edits)
        for (property, values) in added {
            for labeled in values {
                guard try !person.addValue(labeled.value, label: labeled.label, to: property) else { continue }
                context.console.note("Person \(person.recordID) already has \(labeled.value) among their \(property.key); it was not added again.")
            }
        }
        for (label, address) in addresses {
            guard try !person.addAddress(address, label: label) else { continue }
            context.console.note("Person \(person.recordID) already has that address; it was not added again.")
        }
        try book.save()
    }
}
