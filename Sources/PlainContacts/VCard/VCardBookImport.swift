import FoundationEssentials
import PlainContactsSystem

/// One import of vCards into an address book (see
/// ``AddressBook/importVCards(from:source:options:decide:)``).
///
/// The cards are read one at a time and applied to the book in memory: new people are added,
/// matching people merged, missing groups created. Nothing is written until every card has been
/// read; then one save writes the people and groups, and a second save writes the group
/// memberships (a person must be saved before it can join a group). When reading, mapping or
/// the first save fails, the book is put back as it was and nothing is written.
///
/// People are found by dictionaries built once per import, so an import is linear in the
/// number of cards and people.
final class VCardBookImport {
    private let book: AddressBook
    private let source: String
    private let options: VCardImportOptions
    private let decide: ((VCardMatch) throws -> VCardMatchDecision)?

    /// People by UID match key (``VCardRecordFields/matchKey(_:)``), including those added by
    /// this import.
    private var peopleByUID: [String: Person] = [:]
    /// People that were in the book before the import, by name hash.
    private var peopleByNameHash: [NameHash: Person] = [:]
    private var groupsByName: [String: Group] = [:]
    private var groupsByUID: [String: Group] = [:]

    /// The state of each changed person before the import, to put back on failure.
    private var originalStates: [ObjectIdentifier: (person: Person, state: PersonState)] = [:]
    /// The state of each changed group before the import, to put back on failure.
    private var originalGroupStates: [ObjectIdentifier: (group: Group, state: GroupState)] = [:]
    private var added: [Person] = []
    private var addedIDs: Set<ObjectIdentifier> = []
    private var updated: [Person] = []
    private var updatedIDs: Set<ObjectIdentifier> = []
    private var skipped: [Person] = []
    private var skippedIDs: Set<ObjectIdentifier> = []
    private var invalidCards: [InterchangeError] = []
    private var warnings: [InterchangeError] = []
    private var createdGroups: [Group] = []
    /// Memberships to add once the people are saved.
    private var memberships: [(person: Person, group: Group)] = []
    /// Group cards' members, resolved by UID once every card has been read.
    private var groupMembers: [(group: Group, uids: [String])] = []

    private static let emptyNameHash = NameHash.of(firstName: nil, lastName: nil)

    init(
        book: AddressBook, source: String, options: VCardImportOptions,
        decide: ((VCardMatch) throws -> VCardMatchDecision)?
    ) {
        self.book = book
        self.source = source
        self.options = options
        self.decide = decide
    }

    /// Imports every card the reader yields.
    ///
    /// - Throws: ``ContactsError/Code/invalidValue`` when the book has unsaved changes;
    ///   ``PlainContactsError/Code/malformedVCard`` for a malformed card (unless skipped); what the
    ///   reader, `decide` and the first save throw.
    func run(_ reader: inout VCardStreamReader) throws -> VCardImportReport {
        guard !book.hasUnsavedChanges else {
            throw ContactsError(
                .invalidValue, "the address book has unsaved changes; save or revert before importing", path: source)
        }
        buildIndexes()
        reader.isStrict = options.strict
        do {
            try readCards(&reader)
            try book.save()
        } catch {
            rollBack()
            throw error
        }
        var report = VCardImportReport(
            added: added.map(\.recordID), updated: updated.map(\.recordID), skipped: skipped.map(\.recordID),
            invalidCards: invalidCards, warnings: warnings, groupsCreated: createdGroups.compactMap(\.name))
        do {
            try addMemberships()
            try book.save()
        } catch let error as ContactsError {
            report.membershipError = error
        } catch {
            report.membershipError = ContactsError(
                .io, "saving the group memberships failed", path: book.url.path, underlying: error)
        }
        return report
    }

    // MARK: Indexes

    private func buildIndexes() {
        let people = book.allPeople().sorted { $0.recordID < $1.recordID }
        for person in people {
            if let uid = VCardRecordFields.uid(of: person.state) {
                let key = VCardRecordFields.matchKey(uid)
                if peopleByUID[key] == nil { peopleByUID[key] = person }
            } else if let key = person.key {
                let derived = VCardRecordFields.derivedUID(for: key)
                if peopleByUID[derived] == nil { peopleByUID[derived] = person }
            }
            let hash = person.state.nameHash
            if hash != Self.emptyNameHash, peopleByNameHash[hash] == nil { peopleByNameHash[hash] = person }
        }
        for group in book.allGroups() {
            if let name = group.name, groupsByName[name] == nil { groupsByName[name] = group }
            if case .string(let uid)? = group.state.unknownFields[VCardRecordFields.uidKey] {
                let key = VCardRecordFields.matchKey(uid)
                if groupsByUID[key] == nil { groupsByUID[key] = group }
            }
        }
    }

    // MARK: Reading

    private func readCards(_ reader: inout VCardStreamReader) throws {
        var lastSyntaxErrorLine = 0
        while true {
            let next: VCard?
            do {
                next = try reader.next()
            } catch let error as InterchangeError where error.code == .malformedVCard && options.skipInvalid {
                invalidCards.append(error)
                // The reader goes on after a bad line; stop when it makes no progress.
                guard let line = error.line, line > lastSyntaxErrorLine else { return }
                lastSyntaxErrorLine = line
                continue
            }
            guard let card = next else { return }
            // The rest of a card that held a syntax error is not imported.
            if card.startLine <= lastSyntaxErrorLine { continue }
            warnings += card.warnings(source: source)
            let imported: ImportedCard
            do {
                imported = try VCardImporter.map(card, source: source, strict: options.strict)
            } catch let error as InterchangeError where error.code == .malformedVCard && options.skipInvalid {
                invalidCards.append(error)
                continue
            }
            switch imported {
            case .person(let person):
                warnings += person.warnings
                try apply(person)
            case .group(let group):
                warnings += group.warnings
                try apply(group)
            }
        }
    }

    private func apply(_ imported: ImportedPerson) throws {
        guard let (target, reason) = match(for: imported) else {
            try addNew(imported)
            return
        }
        let decision: VCardMatchDecision
        if let decide {
            decision = try decide(
                VCardMatch(
                    matchedBy: reason, existingRecordID: target.recordID, existingName: target.compositeName,
                    cardName: imported.person.compositeName, source: source, line: imported.line, existing: target,
                    card: imported.person))
        } else {
            decision = policyDecision(for: reason)
        }
        switch decision {
        case .merge: try merge(imported, into: target)
        case .createNew: try addNew(imported)
        case .skip: note(target, in: &skipped, ids: &skippedIDs)
        }
    }

    private func match(for imported: ImportedPerson) -> (Person, VCardMatch.Reason)? {
        if let uid = imported.uid, let person = peopleByUID[VCardRecordFields.matchKey(uid)] {
            return (person, .uid)
        }
        let hash = imported.person.state.nameHash
        if hash != Self.emptyNameHash, let person = peopleByNameHash[hash] {
            return (person, .name)
        }
        return nil
    }

    private func policyDecision(for reason: VCardMatch.Reason) -> VCardMatchDecision {
        switch (reason, options.onMatch) {
        case (_, .skip): .skip
        case (.uid, _), (.name, .merge): .merge
        case (.name, .createNew): .createNew
        }
    }

    private func addNew(_ imported: ImportedPerson) throws {
        let person = imported.person
        try book.add(person)
        added.append(person)
        addedIDs.insert(ObjectIdentifier(person))
        if let uid = imported.uid {
            let key = VCardRecordFields.matchKey(uid)
            if peopleByUID[key] == nil { peopleByUID[key] = person }
        }
        try join(person, groupsNamed: imported.groupNames)
    }

    private func merge(_ imported: ImportedPerson, into target: Person) throws {
        let id = ObjectIdentifier(target)
        if !addedIDs.contains(id), originalStates[id] == nil {
            originalStates[id] = (target, target.state)
        }
        let hadUID = VCardRecordFields.uid(of: target.state) != nil
        _ = try book.applyCard(imported.person.state, to: target, merging: .unite)
        if !hadUID, let uid = imported.uid {
            let key = VCardRecordFields.matchKey(uid)
            if peopleByUID[key] == nil { peopleByUID[key] = target }
        }
        if !addedIDs.contains(id) { note(target, in: &updated, ids: &updatedIDs) }
        try join(target, groupsNamed: imported.groupNames)
    }

    private func note(_ person: Person, in list: inout [Person], ids: inout Set<ObjectIdentifier>) {
        if ids.insert(ObjectIdentifier(person)).inserted { list.append(person) }
    }

    // MARK: Groups

    private func join(_ person: Person, groupsNamed names: [String]) throws {
        for name in names {
            memberships.append((person, try group(named: name, uid: nil)))
        }
    }

    /// The group with this UID or, failing that, this exact name; created when there is none.
    private func group(named name: String, uid: String?) throws -> Group {
        if let uid, let group = groupsByUID[VCardRecordFields.matchKey(uid)] { return group }
        if let group = groupsByName[name] { return group }
        let group = Group(name: name)
        if let uid { group.state.unknownFields[VCardRecordFields.uidKey] = .string(uid) }
        try book.add(group)
        createdGroups.append(group)
        groupsByName[name] = group
        if let uid { groupsByUID[VCardRecordFields.matchKey(uid)] = group }
        return group
    }

    private func apply(_ imported: ImportedGroup) throws {
        let group = try group(named: imported.name, uid: imported.uid)
        keep(imported.keptLines, in: group)
        groupMembers.append((group, imported.memberUIDs))
    }

    /// Adds the kept lines of a group card that the group does not hold yet, so that importing
    /// the same list again changes nothing.
    private func keep(_ lines: [String], in group: Group) {
        let held = VCardRecordFields.lines(of: group.state)
        let added = lines.filter { !held.contains($0) }
        guard !added.isEmpty else { return }
        let id = ObjectIdentifier(group)
        if originalGroupStates[id] == nil { originalGroupStates[id] = (group, group.state) }
        var state = group.state
        state.unknownFields[VCardRecordFields.linesKey] = .array((held + added).map(JSONValue.string))
        group.state = state
    }

    /// Adds the memberships of the saved people to the saved groups.
    private func addMemberships() throws {
        for (person, group) in memberships {
            try book.addMember(person, to: group)
        }
        for (group, uids) in groupMembers {
            for uid in uids {
                guard let person = peopleByUID[VCardRecordFields.matchKey(uid)] else { continue }
                try book.addMember(person, to: group)
            }
        }
    }

    // MARK: Failure

    /// Puts the book back as it was before the import.
    private func rollBack() {
        for (person, state) in originalStates.values { person.state = state }
        for (group, state) in originalGroupStates.values { group.state = state }
        book.discardAdditions()
    }
}
