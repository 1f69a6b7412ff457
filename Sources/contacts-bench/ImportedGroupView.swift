import PlainContacts

/// A group an import made, and the people in it, for the import fidelity measure.
///
/// ```swift
/// let view = ImportedGroupView(group: group, in: book)
/// view.contains(member: "katie@example.org")
/// ```
struct ImportedGroupView {
    /// The group's name.
    var name: String
    /// The people in it.
    var members: [ImportedPersonView]

    /// A group of `members` named `name`, for tests.
    init(name: String, members: [ImportedPersonView]) {
        self.name = name
        self.members = members
    }

    /// The view of `group` of `book`.
    init(group: Group, in book: AddressBook) {
        name = group.name ?? ""
        members = group.members().map { ImportedPersonView(person: $0, in: book) }
    }

    /// Whether a member has the address, nickname or name `member`.
    func contains(member: String) -> Bool {
        let wanted = FieldMatcher.key(member)
        return members.contains { person in
            person.emails.contains { FieldMatcher.key($0.text) == wanted }
                || [person.nickname, person.compositeName, person.formattedName].compactMap { $0 }.map(FieldMatcher.key)
                    .contains(wanted)
        }
    }
}
