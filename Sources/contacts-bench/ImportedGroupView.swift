import PlainContacts

/// A group an import made, the people in it and the fields it keeps, for the import fidelity
/// measure.
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
    /// The content lines it keeps, as a person's (an LDIF list's `description`, the display
    /// name of a mutt alias's RFC 5322 group).
    var kept: [ImportedPersonView.Kept]

    /// A group of `members` named `name`, keeping `kept`, for tests.
    init(name: String, members: [ImportedPersonView], kept: [ImportedPersonView.Kept] = []) {
        self.name = name
        self.members = members
        self.kept = kept
    }

    /// The view of `group` of `book`.
    init(group: Group, in book: AddressBook) {
        name = group.name ?? ""
        members = group.members().map { ImportedPersonView(person: $0, in: book) }
        kept = VCardRecordFields.lines(of: group.state).map(ImportedPersonView.kept)
    }

    /// Whether the group keeps a field with the value `value`.
    func keeps(_ value: String) -> Bool {
        let wanted = FieldMatcher.key(value)
        return kept.contains { FieldMatcher.key($0.value) == wanted }
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
