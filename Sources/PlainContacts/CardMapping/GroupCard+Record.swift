import FoundationEssentials
import PlainContactsSystem

/// A group record and its card: what a sync uploads and downloads, and what `contacts serve`
/// gives and takes.
extension GroupCard {
    /// A group record as its card: its name, its UID (the stored one, else the one derived from
    /// its key), its members (the people given by UID, and those the store has no person for,
    /// kept as member lines), its form and its other kept lines.
    ///
    /// - Parameter memberUIDs: the UIDs of the people of the group's membership file.
    package init(group state: GroupState, key: RecordKey?, memberUIDs: some Sequence<String>) {
        var lines: [String] = []
        var members = Set(memberUIDs)
        if case .array(let items)? = state.unknownFields[VCardRecordFields.linesKey] {
            for line in items.compactMap(\.string) {
                if let member = Self.memberKey(ofLine: line) {
                    members.insert(member)
                } else {
                    lines.append(line)
                }
            }
        }
        let uid: String
        if case .string(let stored)? = state.unknownFields[VCardRecordFields.uidKey], !stored.isEmpty {
            uid = stored
        } else {
            uid = key.map(VCardRecordFields.derivedUID(for:)) ?? ""
        }
        let form: Form = state.unknownFields[Self.formKey]?.string == Form.rfc6350.rawValue ? .rfc6350 : .apple
        self.init(
            name: state.name ?? VCardImporter.unnamedGroupName, uid: uid, members: Array(members), form: form, lines: lines)
    }

    /// Puts the card's name, UID, form and kept lines into a group; its members are set by
    /// ``setMembers(of:in:keyOfUID:)`` once the group and its new members are saved (see
    /// ``AddressBook/applyGroupCard(_:to:keepingSent:placement:membersByUID:)``).
    func applyFields(to group: Group) {
        if group.name != name { group.name = name }
        var state = group.state
        // A UID the group's key gives anyway is not written on its own.
        let derivedOnly = group.key.map { key in
            state.unknownFields[VCardRecordFields.uidKey] == nil && VCardRecordFields.isDerived(uid, for: key)
        } ?? false
        if !derivedOnly { state.unknownFields[VCardRecordFields.uidKey] = .string(uid) }
        state.unknownFields[Self.formKey] = form == .rfc6350 ? .string(form.rawValue) : nil
        state.unknownFields[VCardRecordFields.linesKey] = lines.isEmpty ? nil : .array(lines.map(JSONValue.string))
        if state != group.state { group.state = state }
    }

    /// Sets the members of a saved group to the card's: the book's people found by UID join, the
    /// others leave, and members the store has no person for are kept as lines of the group's
    /// card. Only the people whose membership changes are read.
    ///
    /// - Parameter keyOfUID: the record key of the saved person with a UID
    ///   (``VCardRecordFields/matchKey(_:)`` form), or `nil` when the store has none.
    /// - Throws: ``ContactsError/Code/personNotSaved`` and the other errors of adding a member.
    func setMembers(of group: Group, in book: AddressBook, keyOfUID: (String) -> RecordKey?) throws {
        var wanted: Set<RecordKey> = []
        var unknown: [String] = []
        for uid in members {
            if let key = keyOfUID(uid) {
                wanted.insert(key)
            } else {
                unknown.append(memberLine(uid))
            }
        }
        let current = group.key.flatMap { book.memberships.members(of: $0) } ?? []
        for key in current.subtracting(wanted) {
            if let person = book.materializeQuietly(key) { book.removeMember(person, from: group) }
        }
        for key in wanted.subtracting(current) {
            if let person = book.materializeQuietly(key) { try book.addMember(person, to: group) }
        }
        let kept = lines + unknown
        let value: JSONValue? = kept.isEmpty ? nil : .array(kept.map(JSONValue.string))
        if group.state.unknownFields[VCardRecordFields.linesKey] != value {
            var state = group.state
            state.unknownFields[VCardRecordFields.linesKey] = value
            group.state = state
        }
    }
}
