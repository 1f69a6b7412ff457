import Foundation
import PlainContactsSystem

/// The files one save writes and deletes, worked out before anything touches the disk, and
/// the new snapshots the book takes once the commit succeeded.
struct SavePlan {
    struct WrittenPerson {
        var person: Person
        var key: RecordKey
        var id: RecordID
        var state: PersonState
        /// The record file's bytes.
        var data: Data
        var fingerprint: Fingerprint
        /// Whether the save creates the person's file.
        var isNew = false
    }

    struct WrittenGroup {
        var group: Group
        var key: RecordKey
        var id: RecordID
        var state: GroupState
        var fingerprint: Fingerprint
    }

    private(set) var changes: [FileChange] = []
    private(set) var writtenPeople: [WrittenPerson] = []
    private(set) var writtenGroups: [WrittenGroup] = []
    private(set) var writtenMembers: [RecordKey: Fingerprint] = [:]
    private(set) var deletedPeople: [RecordKey] = []
    private(set) var deletedGroups: [RecordKey] = []
    /// The membership each changed group ends up with, after merging with the disk.
    private(set) var mergedMembers: [RecordKey: Set<RecordKey>] = [:]
    private(set) var manifest: Manifest?
    /// Person keys newly added to some group by this save.
    private var newMemberKeys: Set<RecordKey> = []
    /// The keys of people this save creates that join groups with it, by group key (their
    /// placements name the groups); their files are written by the same commit.
    private var joiningPeople: [RecordKey: Set<RecordKey>] = [:]
    /// Properties that changed differently here and on disk.
    private var conflicts: [SaveConflict] = []
    private let layout: StoreLayout
    private let reader: StoreReader

    /// Plans a save, merging with records that changed on disk since the book loaded them.
    ///
    /// - Throws: ``ContactsError/Code/conflict`` listing every record and property that changed
    ///   differently on both sides; reading errors of records on disk.
    init(book: AddressBook, session: StoreSession, now: Date) throws {
        layout = book.layout
        reader = StoreReader(layout: layout)
        // IDs are allocated only when something new is saved; finding the highest is not free.
        let allocates = !book.people.added.isEmpty || !book.groups.added.isEmpty
        var ids = allocates ? try session.highestIDs(known: book) : StoreSession.HighestIDs()
        try planPeople(book: book, now: now, ids: &ids)
        try planGroups(book: book, now: now, ids: &ids)
        try planMemberships(book: book)
        try planManifest(book: book)
        if !conflicts.isEmpty {
            let list = conflicts.map(\.description).joined(separator: "; ")
            var error = ContactsError(
                .conflict,
                "the save conflicts with changes saved elsewhere (\(list)); revert, or change these properties again and save")
            error.conflicts = conflicts
            throw error
        }
        if allocates { try session.recordHighestIDs(ids) }
    }

    /// The record ID after the highest handed out, which it becomes.
    ///
    /// - Throws: ``ContactsError/Code/identifiersExhausted`` when the highest is already the last
    ///   ID below ``DuplicateIDResolver/settledIDs`` (999999999).
    private static func recordID(after highest: inout Int32, recordType: String) throws -> RecordID {
        let last = DuplicateIDResolver.settledIDs.lowerBound - 1
        guard highest < last else {
            throw ContactsError(
                .identifiersExhausted,
                "every \(recordType) record ID up to \(last) has been handed out (higher IDs are kept for settling "
                    + "duplicates); no new \(recordType) can be saved")
        }
        highest = max(highest, 0) + 1
        return RecordID(highest)
    }

    private mutating func planManifest(book: AddressBook) throws {
        guard book.manifest != book.savedManifest else { return }
        var merged = book.manifest
        let disk = try reader.readManifest()
        if disk != book.savedManifest {
            let base = book.savedManifest
            if book.manifest.sortOrdering == base.sortOrdering { merged.sortOrdering = disk.sortOrdering }
            if book.manifest.compositeNameFormat == base.compositeNameFormat { merged.compositeNameFormat = disk.compositeNameFormat }
            merged.unknownFields = (try? RecordMerger.mergeFields(base: base.unknownFields, ours: book.manifest.unknownFields, theirs: disk.unknownFields).get()) ?? disk.unknownFields
        }
        manifest = merged
        changes.append(FileChange(path: StoreLayout.manifestName, kind: .write(merged.data)))
    }

    /// This book's version of a person merged with the one on disk, or `nil` after recording a
    /// conflict.
    private mutating func reconcile(_ key: RecordKey, id: RecordID, ours: PersonState, saved: AddressBook.SavedPerson) throws -> (PersonState, RecordID)? {
        guard let disk = try reader.readPerson(key: key) else {
            conflicts.append(SaveConflict(recordType: .person, recordID: id, property: "record"))
            return nil
        }
        if disk.fingerprint == saved.fingerprint { return (ours, id) }
        switch RecordMerger.merge(base: saved.state, ours: ours, theirs: disk.decoded.state) {
        case .success(let merged):
            return (merged, id == saved.id ? disk.decoded.id : id)
        case .failure(let failure):
            conflicts += failure.keys.map { SaveConflict(recordType: .person, recordID: id, property: $0) }
            return nil
        }
    }

    private mutating func planPeople(book: AddressBook, now: Date, ids: inout StoreSession.HighestIDs) throws {
        for (key, person) in book.people.removed {
            if let saved = book.people.saved[key], let disk = try reader.readPerson(key: key), disk.fingerprint != saved.fingerprint {
                conflicts.append(SaveConflict(recordType: .person, recordID: person.recordID, property: "record"))
                continue
            }
            deletedPeople.append(key)
            changes.append(FileChange(path: StoreLayout.personPath(key), kind: .delete))
            if case .stored(let fileName)? = book.people.saved[key]?.state.image {
                changes.append(FileChange(path: StoreLayout.imagePath(fileName), kind: .delete))
            }
        }
        for key in book.people.touched.sorted() {
            guard let person = book.people.byKey[key], let saved = book.people.saved[key] else { continue }
            // A settled duplicate ID alone is no change: it is written with the person's next edit.
            guard person.state != saved.state else { continue }
            var ours = person.state
            // A modification date set with the change (a card's REV) is kept.
            if ours.values[.modificationDate] == saved.state.values[.modificationDate] {
                ours.values[.modificationDate] = .timestamp(now)
            }
            guard let (merged, id) = try reconcile(key, id: person.recordID, ours: ours, saved: saved) else { continue }
            var state = merged
            planImage(&state, key: key, saved: saved.state.image)
            let data = PersonRecordCoder.encode(id: id, state: state)
            changes.append(FileChange(path: StoreLayout.personPath(key), kind: .write(data)))
            writtenPeople.append(WrittenPerson(person: person, key: key, id: id, state: state, data: data, fingerprint: Fingerprint(data)))
        }
        var takenKeys = Set(book.people.byKey.keys).union(book.people.removed.keys)
        var takenIDs = Set(book.people.keysByID.keys)
        func isFree(_ key: RecordKey) -> Bool {
            !takenKeys.contains(key) && !FileManager.default.fileExists(atPath: layout.personFile(key).path)
        }
        for person in book.people.added {
            let name = SavePlan.keyName(of: person.state)
            let placement = book.people.placement(of: person)
            let id = try placement.map { $0.recordID(taken: takenIDs) }
                ?? SavePlan.recordID(after: &ids.person, recordType: "person")
            takenIDs.insert(id)
            if DuplicateIDResolver.isAllocatable(id.rawValue) { ids.person = max(ids.person, id.rawValue) }
            var key = placement?.candidateKeys(name: name, fallback: "person").first(where: isFree) ?? RecordKey.make(name: name, fallback: "person")
            while !isFree(key) {
                key = RecordKey.make(name: name, fallback: "person")
            }
            takenKeys.insert(key)
            for group in placement?.groups ?? [] { joiningPeople[group, default: []].insert(key) }
            var state = person.state
            // A record made from a card is dated by the card's REV, when it has one, so that
            // every clone that makes it writes the same bytes.
            let revision = placement != nil ? state.values[.modificationDate] : nil
            state.values[.creationDate] = revision ?? .timestamp(now)
            state.values[.modificationDate] = revision ?? .timestamp(now)
            // A card's UID that its file key gives anyway is not written (a record another
            // clone made of the same card has none).
            if placement != nil { VCardRecordFields.removeDerivedUID(from: &state, key: key) }
            planImage(&state, key: key, saved: .none)
            let data = PersonRecordCoder.encode(id: id, state: state)
            changes.append(FileChange(path: StoreLayout.personPath(key), kind: .write(data)))
            writtenPeople.append(
                WrittenPerson(person: person, key: key, id: id, state: state, data: data, fingerprint: Fingerprint(data), isNew: true))
        }
    }

    /// The name a new person's file key is made from: first and last name, read phonetically
    /// when a reading is given (so 山田太郎 with the reading やまだ たろう becomes
    /// `taro-yamada-…`), else the organization or nickname.
    static func keyName(of state: PersonState) -> String? {
        let first = state.string(.firstNamePhonetic) ?? state.string(.firstName)
        let last = state.string(.lastNamePhonetic) ?? state.string(.lastName)
        let name = [first, last].compactMap { $0 }.joined(separator: " ")
        if !name.trimmingCharacters(in: .whitespaces).isEmpty { return name }
        return state.string(.organization) ?? state.string(.nickname)
    }

    /// Writes a pending image as a sidecar named after the record, and deletes a replaced one.
    private mutating func planImage(_ state: inout PersonState, key: RecordKey, saved: ImageState) {
        var savedName: String?
        if case .stored(let name) = saved { savedName = name }
        switch state.image {
        case .pending(let data):
            let name = key.rawValue + "." + ImageFormat.fileExtension(of: data)
            changes.append(FileChange(path: StoreLayout.imagePath(name), kind: .write(data)))
            if let savedName, savedName != name {
                changes.append(FileChange(path: StoreLayout.imagePath(savedName), kind: .delete))
            }
            state.image = .stored(fileName: name)
        case .none:
            if let savedName {
                changes.append(FileChange(path: StoreLayout.imagePath(savedName), kind: .delete))
            }
        case .stored:
            break
        }
    }

    private mutating func planGroups(book: AddressBook, now: Date, ids: inout StoreSession.HighestIDs) throws {
        for key in book.groups.removed.keys.sorted() {
            if let saved = book.groups.saved[key], let disk = try reader.readGroup(key: key),
                disk.fingerprint != saved.fingerprint || disk.membersFingerprint != saved.membersFingerprint
            {
                conflicts.append(SaveConflict(recordType: .group, recordID: saved.id, property: "record"))
                continue
            }
            deletedGroups.append(key)
            changes.append(FileChange(path: StoreLayout.groupPath(key), kind: .delete))
            changes.append(FileChange(path: StoreLayout.membersPath(key), kind: .delete))
        }
        for key in book.groups.touched.sorted() {
            guard let group = book.groups.byKey[key], let saved = book.groups.saved[key] else { continue }
            guard group.state != saved.state else { continue }
            var state = group.state
            state.modificationDate = now
            guard let disk = try reader.readGroup(key: key) else {
                conflicts.append(SaveConflict(recordType: .group, recordID: group.recordID, property: "record"))
                continue
            }
            if disk.fingerprint != saved.fingerprint {
                switch RecordMerger.merge(base: saved.state, ours: state, theirs: disk.state) {
                case .success(let merged): state = merged
                case .failure(let failure):
                    conflicts += failure.keys.map { SaveConflict(recordType: .group, recordID: group.recordID, property: $0) }
                    continue
                }
            }
            let data = GroupRecordCoder.encode(id: group.recordID, state: state)
            changes.append(FileChange(path: StoreLayout.groupPath(key), kind: .write(data)))
            writtenGroups.append(WrittenGroup(group: group, key: key, id: group.recordID, state: state, fingerprint: Fingerprint(data)))
        }
        var takenKeys = Set(book.groups.byKey.keys).union(book.groups.removed.keys)
        var takenIDs = Set(book.groups.keysByID.keys)
        func isFree(_ key: RecordKey) -> Bool {
            !takenKeys.contains(key) && !FileManager.default.fileExists(atPath: layout.groupFile(key).path)
        }
        for group in book.groups.added {
            let placement = book.groups.placement(of: group)
            let id = try placement.map { $0.recordID(taken: takenIDs) }
                ?? SavePlan.recordID(after: &ids.group, recordType: "group")
            takenIDs.insert(id)
            if DuplicateIDResolver.isAllocatable(id.rawValue) { ids.group = max(ids.group, id.rawValue) }
            var key = placement?.candidateKeys(name: group.name, fallback: "group").first(where: isFree) ?? RecordKey.make(name: group.name, fallback: "group")
            while !isFree(key) {
                key = RecordKey.make(name: group.name, fallback: "group")
            }
            takenKeys.insert(key)
            var state = group.state
            state.creationDate = now
            state.modificationDate = now
            if placement != nil { VCardRecordFields.removeDerivedUID(from: &state, key: key) }
            let data = GroupRecordCoder.encode(id: id, state: state)
            changes.append(FileChange(path: StoreLayout.groupPath(key), kind: .write(data)))
            writtenGroups.append(WrittenGroup(group: group, key: key, id: id, state: state, fingerprint: Fingerprint(data)))
            // A group file always has its membership file beside it, even while empty, so that
            // a merge of clones always finds it on both sides.
            let members = MembershipFile.encode([])
            changes.append(FileChange(path: StoreLayout.membersPath(key), kind: .write(members)))
            writtenMembers[key] = Fingerprint(members)
        }
    }

    private mutating func planMemberships(book: AddressBook) throws {
        for key in book.groups.byKey.keys.sorted() {
            let joining = joiningPeople[key] ?? []
            var current = (book.memberships.members(of: key) ?? []).union(joining)
            let savedGroup = book.groups.saved[key]
            let saved = savedGroup?.members ?? []
            guard current != saved else { continue }
            newMemberKeys.formUnion(current.subtracting(saved).subtracting(joining))
            if let savedGroup {
                let url = layout.membersFile(key)
                let data = try reader.read(url)
                if data.map(Fingerprint.init) != savedGroup.membersFingerprint {
                    let disk = try data.map { try MembershipFile.decode($0, path: url.path) } ?? []
                    current = RecordMerger.merge(base: saved, ours: current, theirs: disk)
                }
            }
            mergedMembers[key] = current
            // An empty group keeps its (empty) file: deleting it would turn another clone's
            // addition of a member into a modify/delete conflict when the two are merged.
            let data = MembershipFile.encode(current)
            changes.append(FileChange(path: StoreLayout.membersPath(key), kind: .write(data)))
            writtenMembers[key] = Fingerprint(data)
        }
    }

    /// Save-before-group-add, checked against the disk: every person newly added to a group must
    /// still have its file (another process may have deleted it since this book loaded).
    func verifyMembershipsAgainstDisk() throws {
        for key in newMemberKeys {
            let path = layout.personFile(key).path
            guard FileManager.default.fileExists(atPath: path) else {
                throw ContactsError(
                    .personNotSaved,
                    "a person added to a group is no longer saved in the store (deleted elsewhere); revert and try again",
                    path: path)
            }
        }
    }
}
