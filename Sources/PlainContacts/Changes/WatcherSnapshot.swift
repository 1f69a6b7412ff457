import FoundationEssentials

/// One file of the store as the watcher last saw it.
struct WatcherFileState: Hashable, Sendable {
    /// Size, times and inode when the file was last looked at.
    var status: WatcherFileStatus
    /// `fnv1a64` of the bytes; `nil` for an image that has not been read yet.
    var fingerprint: UInt64?
    /// The record ID in a person or group file.
    var recordID: RecordID?
}

/// The watcher's picture of a store's files: each file's record ID and content fingerprint.
/// Re-reading some of the files turns the differences into a ``StoreChange``.
///
/// ```swift
/// var snapshot = WatcherSnapshot(rootPath: "/books/home")
/// snapshot.scanAll()
/// // … a program edits people/ann-2x9kqp.json …
/// let change = snapshot.update(paths: ["people/ann-2x9kqp.json"]) { _, _ in false }
/// ```
struct WatcherSnapshot: Sendable {
    /// The store's folder, without a trailing slash.
    let rootPath: String
    private(set) var files: [String: WatcherFileState] = [:]
    private var personIDCounts: [RecordID: Int] = [:]
    private var groupIDCounts: [RecordID: Int] = [:]

    init(rootPath: String) {
        self.rootPath = rootPath
    }

    /// Forgets everything and reads the whole store: record, membership and manifest files are
    /// read; images only have their status taken, so that opening a book never reads them.
    mutating func scanAll() {
        files = [:]
        personIDCounts = [:]
        groupIDCounts = [:]
        for path in listedPaths() {
            guard let kind = WatcherPath(relativePath: path) else { continue }
            if let state = probe(path, kind: kind, old: nil, readingImages: false) {
                setState(state, of: path, kind: kind)
            }
        }
    }

    /// The paths of the files the watcher follows that are in the folder now.
    func listedPaths() -> [String] {
        Array(listedStatuses().keys)
    }

    /// The status of every file the watcher follows that is in the folder now.
    func listedStatuses() -> [String: WatcherFileStatus] {
        var statuses: [String: WatcherFileStatus] = [:]
        if let status = WatcherFileSystem.status(ofFile: absolutePath(WatcherPath.manifestName)) {
            statuses[WatcherPath.manifestName] = status
        }
        for folder in [WatcherPath.Folder.people, .groups] {
            let folderPath = absolutePath(folder.relativePath)
            for name in WatcherFileSystem.names(inFolder: folderPath) where WatcherPath(folder: folder, name: name) != nil {
                if let status = WatcherFileSystem.status(ofFile: folderPath + "/" + name) {
                    statuses[folder.relativePath + "/" + name] = status
                }
            }
        }
        return statuses
    }

    /// The status of every file as last read.
    var statuses: [String: WatcherFileStatus] {
        files.mapValues(\.status)
    }

    /// Re-reads every file the snapshot knows and every file now in the folder.
    mutating func updateAll(isOwnWrite: (String, UInt64) -> Bool) -> StoreChange {
        update(paths: Set(files.keys).union(listedPaths()), isOwnWrite: isOwnWrite)
    }

    /// Re-reads the files at `paths` (relative to the root), records what they hold now and
    /// returns what changed for the records they belong to. A file whose new bytes
    /// `isOwnWrite(path, fingerprint)` claims (fingerprint 0 for a file that is gone) is
    /// recorded but not reported.
    mutating func update(paths: some Sequence<String>, isOwnWrite: (String, UInt64) -> Bool) -> StoreChange {
        var probes: [(path: String, kind: WatcherPath, state: WatcherFileState?)] = []
        var reported: [WatcherPath] = []
        for path in paths {
            guard let kind = WatcherPath(relativePath: path) else { continue }
            let old = files[path]
            let new = probe(path, kind: kind, old: old, readingImages: true)
            guard new != old else { continue }
            probes.append((path, kind, new))
            if WatcherSnapshot.contentDiffers(old, new), !isOwnWrite(path, new?.fingerprint ?? 0) {
                reported.append(kind)
            }
        }
        guard !probes.isEmpty else { return StoreChange() }

        var change = StoreChange()
        var candidates = RecordSet()
        var presentBefore = RecordSet()
        for kind in reported {
            if kind == .manifest { change.settingsChanged = true }
            if let id = recordID(of: kind) { candidates.insert(id, isGroup: kind.isGroupFile) }
        }
        var consulted = candidates
        for probe in probes where probe.kind.holdsRecordID {
            if let id = probe.state?.recordID { consulted.insert(id, isGroup: probe.kind.isGroupFile) }
        }
        for id in consulted.people where personIDCounts[id, default: 0] > 0 { presentBefore.people.insert(id) }
        for id in consulted.groups where groupIDCounts[id, default: 0] > 0 { presentBefore.groups.insert(id) }

        for probe in probes {
            setState(probe.state, of: probe.path, kind: probe.kind)
        }
        for kind in reported {
            if let id = recordID(of: kind) { candidates.insert(id, isGroup: kind.isGroupFile) }
        }

        for id in candidates.people {
            classify(id, before: presentBefore.people.contains(id), after: personIDCounts[id, default: 0] > 0,
                     added: &change.addedPeople, changed: &change.changedPeople, removed: &change.removedPeople)
        }
        for id in candidates.groups {
            classify(id, before: presentBefore.groups.contains(id), after: groupIDCounts[id, default: 0] > 0,
                     added: &change.addedGroups, changed: &change.changedGroups, removed: &change.removedGroups)
        }
        return change
    }

    private struct RecordSet {
        var people = Set<RecordID>()
        var groups = Set<RecordID>()

        mutating func insert(_ id: RecordID, isGroup: Bool) {
            if isGroup { groups.insert(id) } else { people.insert(id) }
        }
    }

    private func classify(
        _ id: RecordID, before: Bool, after: Bool,
        added: inout Set<RecordID>, changed: inout Set<RecordID>, removed: inout Set<RecordID>
    ) {
        switch (before, after) {
        case (false, true): added.insert(id)
        case (true, true): changed.insert(id)
        case (true, false): removed.insert(id)
        case (false, false): break
        }
    }

    /// The record ID a file belongs to, as the snapshot holds it now.
    private func recordID(of kind: WatcherPath) -> RecordID? {
        guard let recordPath = kind.recordFilePath else { return nil }
        return files[recordPath]?.recordID
    }

    private mutating func setState(_ state: WatcherFileState?, of path: String, kind: WatcherPath) {
        if kind.holdsRecordID, let oldID = files[path]?.recordID {
            if kind.isGroupFile { WatcherSnapshot.decrement(&groupIDCounts, oldID) } else { WatcherSnapshot.decrement(&personIDCounts, oldID) }
        }
        files[path] = state
        if kind.holdsRecordID, let newID = state?.recordID {
            if kind.isGroupFile { groupIDCounts[newID, default: 0] += 1 } else { personIDCounts[newID, default: 0] += 1 }
        }
    }

    private static func decrement(_ counts: inout [RecordID: Int], _ id: RecordID) {
        let count = counts[id, default: 0] - 1
        counts[id] = count > 0 ? count : nil
    }

    /// Whether a file's content differs between two looks at it; an image that has not been
    /// read is judged by its status.
    private static func contentDiffers(_ old: WatcherFileState?, _ new: WatcherFileState?) -> Bool {
        switch (old, new) {
        case (nil, nil): return false
        case (nil, _), (_, nil): return true
        case (let old?, let new?):
            if let oldFingerprint = old.fingerprint, let newFingerprint = new.fingerprint {
                return oldFingerprint != newFingerprint
            }
            return old.status != new.status
        }
    }

    /// What the file at `path` holds now, or `nil` when it is gone. A file whose bytes no longer
    /// show a record ID (say, a half-resolved merge) keeps the ID it had, and so counts as a
    /// change of that record rather than a removal.
    private func probe(
        _ path: String, kind: WatcherPath, old: WatcherFileState?, readingImages: Bool
    ) -> WatcherFileState? {
        let fullPath = absolutePath(path)
        if kind.isReadOnlyWhenStatusChanges {
            guard let status = WatcherFileSystem.status(ofFile: fullPath) else { return nil }
            if let old, old.status == status { return old }
            if !readingImages { return WatcherFileState(status: status) }
        }
        guard let (status, bytes) = WatcherFileSystem.contents(ofFile: fullPath) else { return nil }
        var recordID: RecordID?
        if kind.holdsRecordID {
            recordID = WatcherRecordIDScanner.recordID(in: bytes) ?? old?.recordID
        }
        return WatcherFileState(status: status, fingerprint: fnv1a64(bytes), recordID: recordID)
    }

    private func absolutePath(_ relativePath: String) -> String {
        relativePath.isEmpty ? rootPath : rootPath + "/" + relativePath
    }
}
