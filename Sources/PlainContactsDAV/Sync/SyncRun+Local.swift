import FoundationEssentials
import PlainContacts

/// Reading the store's side of a sync.
extension SyncRun {
    /// Reads every person and group with its UID and fingerprint. A person file whose
    /// signature is the one the last sync recorded is unchanged and is not read (see
    /// ``SyncPeople``). A second record with a UID already seen is the same contact: the sync
    /// carries out its decision on the first record, removes both when the server removed the
    /// card, and warns until `contacts doctor --fix` joins them.
    mutating func readLocal() throws {
        var uidsByKey: [String: String] = [:]
        for (uid, entry) in status.entries where entry.kind == .person {
            if let key = entry.key { uidsByKey[key] = uid }
        }
        for key in book.personKeys.sorted() {
            if let uid = uidsByKey[key.rawValue], let entry = status.entries[uid], let signature = entry.signature,
                !people.contains(uid), book.recordFile(ofPersonWithKey: key).signature == signature
            {
                people.unread[uid] = key
                people.uidsByKey[key] = uid
                localFingerprints[uid] = entry.localFingerprint
                continue
            }
            guard let person = try book.person(forKey: key), let uid = CardMapping.matchKey(of: person) else { continue }
            people.uidsByKey[key] = uid
            guard !people.contains(uid) else {
                report.warnings.append(duplicateUIDWarning(person.recordID))
                people.duplicates[uid, default: []].append(person)
                continue
            }
            people[uid] = person
            localFingerprints[uid] = fingerprint(of: person)
            // A status written before content fingerprints: the file unchanged is no change.
            if let recorded = status.entries[uid]?.localFingerprint, Self.isFileFingerprint(recorded),
                recorded == fileFingerprint(of: person)
            {
                localFingerprints[uid] = recorded
            }
        }
        for group in book.allGroups().sorted(by: { ($0.key?.rawValue ?? "") < ($1.key?.rawValue ?? "") }) {
            guard let uid = CardMapping.matchKey(of: group) else { continue }
            guard groups[uid] == nil, !people.contains(uid) else {
                report.warnings.append(duplicateUIDWarning(group.recordID))
                duplicateGroups[uid, default: []].append(group)
                continue
            }
            groups[uid] = group
            localFingerprints[uid] = Self.fingerprint(of: cardForm(of: group))
        }
    }

    /// The path of a person's record file.
    func personPath(_ key: RecordKey) -> String {
        book.recordFile(ofPersonWithKey: key).path
    }

    private func duplicateUIDWarning(_ id: RecordID) -> SyncError {
        SyncError(
            .uidClash,
            "record \(id) has the same vCard UID as another record and is synced as that one; join the two with contacts doctor --fix")
    }

    /// A group as its card: name, UID, members (the store's and those it has no person for),
    /// form and kept lines.
    func cardForm(of group: Group) -> GroupCard {
        // Members by their record keys: a person unchanged since the last sync is not read.
        let memberKeys = group.key.map(book.memberKeys(ofGroupWithKey:)) ?? []
        return GroupCard(group: group.state, key: group.key, memberUIDs: memberKeys.compactMap(people.uid(ofKey:)))
    }

    /// Puts a group card's name, form and kept lines into a group, or into a new one; its
    /// members are set after the save that gives new people their keys (see
    /// ``applyPendingMembers()``).
    @discardableResult
    mutating func apply(_ card: GroupCard, to group: Group?, placement: RecordPlacement? = nil) throws -> Group {
        let applied = try book.applyGroupCard(card, to: group, placement: placement)
        pendingMembers.append((applied, card))
        return applied
    }

    /// Sets the members of the groups read from cards, applying each card again now that the
    /// save gave new people and groups their keys: people of the store by UID; members it has
    /// no person for are kept as lines of the group's card.
    mutating func applyPendingMembers() throws {
        for (group, card) in pendingMembers {
            try book.applyGroupCard(card, to: group, membersByUID: people.key(of:))
        }
        pendingMembers = []
    }
}

/// The store's people in a sync, by UID: those read, and those known unchanged since the last
/// sync by their file's signature, read only when an action needs them.
final class SyncPeople {
    private let book: AddressBook
    private var loaded: [String: Person] = [:]
    /// Record keys of people not read yet.
    var unread: [String: RecordKey] = [:]

    init(book: AddressBook) {
        self.book = book
    }

    /// The person with this UID, read now if needed; `nil` when the store has none.
    subscript(uid: String) -> Person? {
        get {
            if let person = loaded[uid] { return person }
            guard let key = unread.removeValue(forKey: uid), let person = book.readablePerson(forKey: key) else { return nil }
            loaded[uid] = person
            return person
        }
        set {
            unread[uid] = nil
            loaded[uid] = newValue
        }
    }

    /// Whether the store has a person with this UID, without reading it.
    func contains(_ uid: String) -> Bool {
        loaded[uid] != nil || unread[uid] != nil
    }

    /// The UID of each person's record key, for those read or known unchanged.
    var uidsByKey: [RecordKey: String] = [:]
    /// People whose UID another person read first has: the same contact, by UID.
    var duplicates: [String: [Person]] = [:]

    /// The UID of the person with this record key; read only when not known already (a person
    /// this sync added).
    func uid(ofKey key: RecordKey) -> String? {
        uidsByKey[key] ?? book.readablePerson(forKey: key).flatMap(CardMapping.matchKey(of:))
    }

    /// The record key of the person with this UID, without reading it; `nil` for a person not
    /// saved yet.
    func key(of uid: String) -> RecordKey? {
        unread[uid] ?? loaded[uid]?.key
    }

    /// Calls `body` with the UID of every person, read or not.
    func forEachUID(_ body: (String) -> Void) {
        for uid in loaded.keys { body(uid) }
        for uid in unread.keys { body(uid) }
    }
    var count: Int { loaded.count + unread.count }
    /// The people read during the sync.
    var read: [String: Person] { loaded }
}
