/// The records of one kind in an address book, people or groups: the saved ones by key and by
/// record ID with their last saved snapshots, and the additions and removals not saved yet.
///
/// The table keeps its parts consistent with each other: a record is in ``byKey`` or in
/// ``removed`` or in ``added``, never in two; ``keysByID`` finds exactly the records of
/// ``byKey`` (and, for people, those only summarized in the catalog); a removal undone before
/// the save puts the record back where it was. What depends on the other kind of record (a
/// removed person's group memberships) is the business of ``MembershipTable``.
struct RecordTable<Record: BookRecord, Snapshot> {
    /// The saved records this book holds, by file key. People are read lazily, so this holds
    /// the people read so far; every saved group is read when the book opens.
    private(set) var byKey: [RecordKey: Record] = [:]
    /// Each saved record as last loaded or saved, by file key: what "unsaved changes" compares
    /// with and what a save merges against.
    private(set) var saved: [RecordKey: Snapshot] = [:]
    /// The key of each saved record by its record ID (the settled ID of a duplicate).
    private(set) var keysByID: [RecordID: RecordKey] = [:]
    /// Records added since the last save, in the order they were added; the save gives them
    /// their keys and IDs.
    private(set) var added: [Record] = []
    /// Saved records removed since the last save, by file key.
    private(set) var removed: [RecordKey: Record] = [:]
    /// Keys of saved records whose contents may have changed since the last save.
    private(set) var touched: Set<RecordKey> = []
    /// Where new records made from an account's card are to be placed, by record.
    private(set) var placements: [ObjectIdentifier: RecordPlacement] = [:]

    /// What ``add(_:to:)`` did.
    enum Addition: Equatable {
        /// The record is new to the book.
        case added
        /// The record had been removed since the last save and is back under its key.
        case restored(RecordKey)
        /// The record was already in the book.
        case alreadyPresent
    }

    /// What ``remove(_:)`` did.
    enum Removal: Equatable {
        /// The record had been added since the last save and is forgotten.
        case discardedAddition
        /// The saved record with this key is removed; the next save deletes its file.
        case removed(RecordKey)
        /// The record was not in the table.
        case notPresent
    }

    /// Whether records were added or removed since the last save.
    var hasAdditionsOrRemovals: Bool { !added.isEmpty || !removed.isEmpty }

    /// Whether `record` is a saved record of this table (neither new nor removed).
    func holds(_ record: Record) -> Bool {
        guard let key = record.key else { return false }
        return byKey[key] === record
    }

    /// Whether the saved record with `key` was removed since the last save.
    func isRemoved(_ key: RecordKey) -> Bool {
        removed[key] != nil
    }

    /// The key of the saved record with `id`, unless it was removed.
    func key(forID id: RecordID) -> RecordKey? {
        guard let key = keysByID[id], removed[key] == nil else { return nil }
        return key
    }

    // MARK: Loading

    /// Takes a record read from the store, under its (possibly settled) record ID.
    mutating func load(_ record: Record, snapshot: Snapshot) {
        guard let key = record.key else { return }
        byKey[key] = record
        saved[key] = snapshot
        keysByID[record.recordID] = key
    }

    /// Replaces the look-up by record ID, for a book that learned every saved record's ID
    /// from the catalog: records already read keep their live IDs, removed ones are left out.
    mutating func replaceKeysByID(_ keys: [RecordID: RecordKey]) {
        var keys = keys
        for (key, record) in byKey { keys[record.recordID] = key }
        keysByID = keys
    }

    /// Forgets every record, detaching them from their book (`ABAddressBookRevert`).
    mutating func detachAll() {
        for record in byKey.values { record.owner = nil }
        for record in added { record.owner = nil }
        for record in removed.values { record.owner = nil }
        self = RecordTable()
    }

    // MARK: Editing

    /// Adds a record to the book, or puts back a removed one under its key.
    mutating func add(_ record: Record, to book: AddressBook) -> Addition {
        if let key = record.key, removed[key] === record {
            removed[key] = nil
            byKey[key] = record
            keysByID[record.recordID] = key
            touched.insert(key)
            return .restored(key)
        }
        if record.owner === book { return .alreadyPresent }
        record.owner = book
        added.append(record)
        return .added
    }

    /// Adds a new record that the save is to place as `placement` says.
    mutating func add(_ record: Record, to book: AddressBook, placement: RecordPlacement) -> Addition {
        let addition = add(record, to: book)
        if addition == .added { placements[ObjectIdentifier(record)] = placement }
        return addition
    }

    /// Where the save is to place a record added since the last save, if anywhere in particular.
    func placement(of record: Record) -> RecordPlacement? {
        placements[ObjectIdentifier(record)]
    }

    /// Removes a record: forgets a new one, marks a saved one for deletion.
    mutating func remove(_ record: Record) -> Removal {
        if let index = added.firstIndex(where: { $0 === record }) {
            added.remove(at: index)
            placements[ObjectIdentifier(record)] = nil
            record.owner = nil
            return .discardedAddition
        }
        guard let key = record.key, byKey[key] === record else { return .notPresent }
        byKey[key] = nil
        keysByID[record.recordID] = nil
        removed[key] = record
        return .removed(key)
    }

    /// Records that a saved record's contents may have changed.
    mutating func noteTouched(_ record: Record) {
        if let key = record.key, byKey[key] === record { touched.insert(key) }
    }

    /// Forgets the records added since the last save, detaching them from their book.
    mutating func discardAdditions() {
        for record in added { record.owner = nil }
        added = []
        placements = [:]
    }

    // MARK: Saving

    /// Takes a record a save wrote, new or changed: it gets its key and ID.
    mutating func didSave(_ record: Record, key: RecordKey, id: RecordID, snapshot: Snapshot) {
        record.key = key
        record.recordID = id
        byKey[key] = record
        keysByID[id] = key
        saved[key] = snapshot
    }

    /// Takes the deletion of a removed record's file by a save.
    mutating func didDelete(_ key: RecordKey) {
        removed[key]?.owner = nil
        removed[key] = nil
        saved[key] = nil
    }

    /// Changes the snapshot of a saved record, as a save that wrote part of it does.
    mutating func updateSnapshot(_ key: RecordKey, _ update: (inout Snapshot) -> Void) {
        guard var snapshot = saved[key] else { return }
        update(&snapshot)
        saved[key] = snapshot
    }

    /// Ends a save: every addition has been written and nothing is touched any more.
    mutating func finishSave() {
        added = []
        placements = [:]
        touched = []
    }
}
