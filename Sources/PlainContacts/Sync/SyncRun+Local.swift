import FoundationEssentials

/// Reading the store's side of a sync.
extension SyncRun {
    /// Reads every person and group with its UID and fingerprint. A second record with a UID
    /// already seen is left out of the sync, with a warning.
    mutating func readLocal() throws {
        for person in book.allPeople().sorted(by: { ($0.key?.rawValue ?? "") < ($1.key?.rawValue ?? "") }) {
            guard let uid = SyncCards.matchKey(of: person) else { continue }
            guard people[uid] == nil else {
                report.warnings.append(duplicateUIDWarning(person.recordID))
                continue
            }
            people[uid] = person
            localFingerprints[uid] = fingerprint(of: person)
        }
        for group in book.allGroups().sorted(by: { ($0.key?.rawValue ?? "") < ($1.key?.rawValue ?? "") }) {
            guard let uid = SyncCards.matchKey(of: group) else { continue }
            guard groups[uid] == nil, people[uid] == nil else {
                report.warnings.append(duplicateUIDWarning(group.recordID))
                continue
            }
            groups[uid] = group
            localFingerprints[uid] = Self.fingerprint(of: cardForm(of: group))
        }
    }

    private func duplicateUIDWarning(_ id: RecordID) -> ContactsError {
        ContactsError(
            .invalidValue,
            "record \(id) has the same vCard UID as another record and is left out of the sync; merge the two (contacts duplicates)")
    }

    /// A group as its card: name, UID, members (the store's and those it has no person for),
    /// form and kept lines.
    func cardForm(of group: Group) -> SyncGroupCard {
        var lines: [String] = []
        var members = Set(book.members(of: group).compactMap(SyncCards.matchKey(of:)))
        if case .array(let items)? = group.state.unknownFields[VCardRecordFields.linesKey] {
            for line in items.compactMap(\.string) {
                if let member = SyncGroupCard.memberKey(ofLine: line) {
                    members.insert(member)
                } else {
                    lines.append(line)
                }
            }
        }
        let uid: String
        if case .string(let stored)? = group.state.unknownFields[VCardRecordFields.uidKey], !stored.isEmpty {
            uid = stored
        } else {
            uid = SyncCards.matchKey(of: group) ?? ""
        }
        let form: SyncGroupCard.Form = group.state.unknownFields[SyncGroupCard.formKey]?.string == "rfc6350" ? .rfc6350 : .apple
        return SyncGroupCard(
            name: group.name ?? VCardImporter.unnamedGroupName, uid: uid, members: Array(members), form: form, lines: lines)
    }

    /// Puts a group card's name, form and kept lines into a group; its members are set after
    /// the save that gives new people their keys (see ``applyPendingMembers()``).
    mutating func apply(_ card: SyncGroupCard, to group: Group) {
        if group.name != card.name { group.name = card.name }
        var state = group.state
        state.unknownFields[VCardRecordFields.uidKey] = .string(card.uid)
        state.unknownFields[SyncGroupCard.formKey] = card.form == .rfc6350 ? .string(card.form.rawValue) : nil
        state.unknownFields[VCardRecordFields.linesKey] = card.lines.isEmpty ? nil : .array(card.lines.map(JSONValue.string))
        if state != group.state { group.state = state }
        pendingMembers.append((group, card))
    }

    /// Sets the members of the groups read from cards: people of the store by UID; members
    /// it has no person for are kept as lines of the group's card.
    mutating func applyPendingMembers() throws {
        for (group, card) in pendingMembers {
            var wanted: [ObjectIdentifier: Person] = [:]
            var unknown: [String] = []
            for key in card.members {
                if let person = people[key], person.key != nil {
                    wanted[ObjectIdentifier(person)] = person
                } else {
                    unknown.append(card.memberLine(key))
                }
            }
            for person in book.members(of: group) where wanted[ObjectIdentifier(person)] == nil {
                book.removeMember(person, from: group)
            }
            let current = Set(book.members(of: group).map(ObjectIdentifier.init))
            for (identifier, person) in wanted where !current.contains(identifier) {
                try book.addMember(person, to: group)
            }
            let lines = card.lines + unknown
            let value: JSONValue? = lines.isEmpty ? nil : .array(lines.map(JSONValue.string))
            if group.state.unknownFields[VCardRecordFields.linesKey] != value {
                var state = group.state
                state.unknownFields[VCardRecordFields.linesKey] = value
                group.state = state
            }
        }
        pendingMembers = []
    }
}
