import PlainContacts

/// The person view `contacts show` prints: the composite name as a heading, then one labelled
/// field per line, multi-values with their localized labels, the groups, and the record's
/// bookkeeping.
///
/// ```
/// Katie Bell
///   organization     Acme
///   phone (mobile)   +1 555 0100
///   email (work)     katie@example.com
///   address (home)   1 Main St
///                    Springfield, IL 62701
///   groups           Friends
///   id               12
/// ```
enum PersonText {
    /// The view of `person`; `groupNames` replaces the groups the book knows, as for a person
    /// not saved yet.
    static func text(_ person: Person, in book: AddressBook, groupNames: [String]? = nil) -> String {
        var rows: [(field: String, lines: [String])] = []
        func add(_ field: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            rows.append((field, value.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)))
        }
        func add<Value>(_ field: String, _ values: MultiValue<Value>, _ text: (Value) -> [String]) {
            for entry in values {
                let name = entry.label.map { "\(field) (\($0.localizedName))" } ?? field
                rows.append((name, text(entry.value)))
            }
        }
        if person.kind == .organization { add("kind", "organization") }
        add("formatted name", person.formattedName)
        add("nickname", person.nickname)
        add("phonetic first", person.firstNamePhonetic)
        add("phonetic middle", person.middleNamePhonetic)
        add("phonetic last", person.lastNamePhonetic)
        if person.kind != .organization { add("organization", person.organization) }
        add("department", person.department)
        add("job title", person.jobTitle)
        add("birthday", person.birthday?.description)
        add("phone", person.phones) { [$0] }
        add("email", person.emails) { [$0] }
        add("url", person.urls) { [$0] }
        add("address", person.addresses, AddressText.lines)
        add("date", person.dates) { [$0.description] }
        add("related name", person.relatedNames) { [$0] }
        add("instant message", person.instantMessages) { account in
            [[account.username, account.service.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")]
        }
        add("social profile", person.socialProfiles) { profile in
            [[profile.username, profile.service.map { "(\($0))" }, profile.url].compactMap { $0 }.joined(separator: " ")]
        }
        add("note", person.note)
        add("groups", (groupNames ?? book.groups(containing: person).compactMap(\.name)).joined(separator: ", "))
        if person.hasImage { add("image", "yes") }
        if person.recordID.isValid { add("id", person.recordID.description) }

        let width = rows.map(\.field.count).max() ?? 0
        var lines = [person.compositeName ?? "(no name)"]
        for row in rows {
            let padding = String(repeating: " ", count: width - row.field.count + 3)
            let continuation = String(repeating: " ", count: width + 5)
            for (index, line) in row.lines.enumerated() {
                lines.append(index == 0 ? "  \(row.field)\(padding)\(line)" : continuation + line)
            }
        }
        return lines.joined(separator: "\n")
    }
}
