import PlainContacts

/// The person view `contacts show` prints: the composite name as a heading, then one labelled
/// field per line in ``PropertyID/personProperties`` order (the kind first; the name parts are
/// the heading), multi-values with their localized labels, the groups, and the record's
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
    /// The properties the heading shows, which have no line of their own.
    private static let heading: Set<PropertyID> = [.prefix, .firstName, .middleName, .lastName, .suffix]

    /// Labels shorter than the properties' own names, which would widen the column.
    private static let shortNames: [PropertyID: String] = [
        .firstNamePhonetic: "phonetic first", .middleNamePhonetic: "phonetic middle",
        .lastNamePhonetic: "phonetic last", .urls: "url",
    ]

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
        for property in PropertyID.personProperties where !property.isReadOnly && !heading.contains(property) {
            // An organization's name is the heading.
            if property == .organization, person.kind == .organization { continue }
            let field = shortNames[property] ?? property.localizedName
            switch person.value(for: property) {
            case .string(let text)?: add(field, text)
            case .date(let date)?: add(field, date.description)
            case .multiString(let values)?: add(field, values) { [$0] }
            case .multiDate(let values)?: add(field, values) { [$0.description] }
            case .multiAddress(let values)?: add(field, values, \.formattedLines)
            case .multiInstantMessage(let values)?:
                add(field, values) { account in
                    [[account.username, account.service.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")]
                }
            case .multiSocialProfile(let values)?:
                add(field, values) { profile in
                    [[profile.username, profile.service.map { "(\($0))" }, profile.url].compactMap { $0 }.joined(separator: " ")]
                }
            case .kind?, .timestamp?, nil: break
            }
        }
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
