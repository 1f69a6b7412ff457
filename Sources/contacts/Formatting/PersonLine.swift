import PlainContacts

/// One person on one line, as `list`, `search` and `group members` print people:
/// record ID, tab, composite name, tab, first phone, tab, first email.
enum PersonLine {
    static func line(_ person: Person) -> String {
        [
            person.recordID.description,
            person.compositeName ?? "",
            person.phones.values.first ?? "",
            person.emails.values.first ?? "",
        ].joined(separator: "\t")
    }

    static func line(_ listing: PersonListing) -> String {
        [
            listing.recordID.description,
            listing.compositeName ?? "",
            listing.firstPhone ?? "",
            listing.firstEmail ?? "",
        ].joined(separator: "\t")
    }

    /// Prints `people` as lines, or as a JSON array with `--json`.
    static func print(_ people: [Person], in book: AddressBook, json: Bool, console: Console) {
        if json {
            console.printJSON(PersonJSONView.json(of: people, in: book))
        } else {
            console.print(lines: people.map(line))
        }
    }
}
