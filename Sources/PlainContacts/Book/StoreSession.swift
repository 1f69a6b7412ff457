import Foundation
import PlainContactsSystem

/// One locked visit to the store: reading under the shared lock, or saving under the exclusive
/// lock, with an interrupted commit rolled forward or back first.
struct StoreSession {
    /// The highest record IDs handed out so far, per record type.
    struct HighestIDs: Equatable {
        var person: Int32 = 0
        var group: Int32 = 0
    }

    let layout: StoreLayout
    let options: AddressBookOptions

    private var lock: StoreLock { StoreLock(privateFolder: layout.privateFolder) }

    /// Runs `body` so that it never observes a half-applied commit.
    func read<T>(_ body: () throws -> T) throws -> T {
        try PosixFileSystem.makeFolder(layout.privateFolder.path)
        if StoreTransaction.needsRecovery(storeRoot: layout.root) {
            try lock.withExclusive(timeout: options.lockTimeout) {
                _ = try StoreTransaction.recover(storeRoot: layout.root)
            }
        }
        return try lock.withShared(timeout: options.lockTimeout) {
            try body()
        }
    }

    /// Runs `body` holding the exclusive lock, after recovering any interrupted commit.
    func write<T>(_ body: (StoreSession) throws -> T) throws -> T {
        try PosixFileSystem.makeFolder(layout.privateFolder.path)
        return try lock.withExclusive(timeout: options.lockTimeout) {
            if StoreTransaction.needsRecovery(storeRoot: layout.root) {
                _ = try StoreTransaction.recover(storeRoot: layout.root)
            }
            return try body(self)
        }
    }

    /// Applies file changes as one all-or-nothing commit. Call only inside ``write(_:)``.
    func commit(_ changes: [FileChange]) throws {
        guard !changes.isEmpty else { return }
        try StoreTransaction.commit(changes, storeRoot: layout.root)
    }

    private var idsFile: URL { layout.privateFolder.appending(path: "ids.json") }

    /// The highest IDs in use or ever handed out on this device: the device-local high-water
    /// mark, the IDs the book knows, and the IDs of records other processes have added since
    /// the book loaded. Settled duplicate IDs (``DuplicateIDResolver/settledIDs``) do not count:
    /// new records are numbered below them.
    func highestIDs(known book: AddressBook) throws -> HighestIDs {
        var ids = HighestIDs()
        func note(_ id: Int32, in highest: inout Int32) {
            if DuplicateIDResolver.isAllocatable(id) { highest = max(highest, id) }
        }
        // A device-local file that cannot be read must not read as "nothing handed out", which
        // could give a deleted person's ID to someone new; a damaged one is ignored (the store's
        // own records still bound the IDs) and rewritten by this save.
        if let data = try StoreReader(layout: layout).read(idsFile),
            case .object(let fields)? = try? JSONParser.parse(data, path: idsFile.path)
        {
            note(Int32(clamping: fields["person"]?.int ?? 0), in: &ids.person)
            note(Int32(clamping: fields["group"]?.int ?? 0), in: &ids.group)
        }
        for saved in book.people.saved.values { note(saved.id.rawValue, in: &ids.person) }
        for id in book.people.keysByID.keys { note(id.rawValue, in: &ids.person) }
        for saved in book.groups.saved.values { note(saved.id.rawValue, in: &ids.group) }
        for id in book.groups.keysByID.keys { note(id.rawValue, in: &ids.group) }

        // People others saved since the book loaded: the index knows them when it is current
        // (every save updates it under this lock); otherwise a scan of the folder does.
        if let index = IndexMaintenance(layout: layout).currentIndex() {
            note(index.highestID, in: &ids.person)
        } else {
            let scanned = try PersonCatalog.scan(layout: layout, index: StoreIndex.load(layout))
            for summary in scanned.summaries.values { note(summary.id.rawValue, in: &ids.person) }
        }
        if let catalog = book.catalog {
            for summary in catalog.values { note(summary.id.rawValue, in: &ids.person) }
        }
        let reader = StoreReader(layout: layout)
        for name in try reader.fileNames(in: layout.groupsFolder, withExtension: ".json") {
            guard let key = RecordKey(rawValue: String(name.dropLast(5))), book.groups.saved[key] == nil else { continue }
            if let file = try? reader.readGroup(key: key) { note(file.id.rawValue, in: &ids.group) }
        }
        return ids
    }

    /// Remembers the highest IDs handed out, so that IDs of deleted records are never reused
    /// on this device. Call only inside ``write(_:)``.
    func recordHighestIDs(_ ids: HighestIDs) throws {
        let json = JSONValue.object([
            "person": .number(JSONNumber(Int(ids.person))), "group": .number(JSONNumber(Int(ids.group))),
        ])
        // Saves write this file only under the exclusive lock, so a temporary copy found now was
        // left by a save that was killed.
        try DurableFile.removeLeftovers(of: idsFile)
        try DurableFile.writeIfChanged(CanonicalJSON.encode(json), to: idsFile)
    }
}
