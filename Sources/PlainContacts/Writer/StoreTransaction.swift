import FoundationEssentials

/// Applies a set of file changes to a store all or nothing, surviving a crash or power loss at
/// any instant.
///
/// A commit runs in four steps; the caller holds the store's exclusive ``StoreLock`` throughout:
///
/// 1. **Stage.** The new bytes of every write go to `.contacts/staging/<txid>/<n>` (mode `0600`)
///    and are made durable: one `fsync` per file for small commits, a single `syncfs` for
///    commits of more than 64 files. Missing target folders are created (`0700`).
/// 2. **Journal.** The list of operations is written to `.contacts/journal.tmp`, synced, and
///    renamed to `.contacts/journal`. That rename is the commit point.
/// 3. **Apply.** Each staged file is renamed onto its target and each deleted file unlinked;
///    then every changed folder is synced.
/// 4. **Clear.** The journal is removed and the staging folder deleted.
///
/// A commit interrupted before the commit point leaves the old files untouched; one
/// interrupted after it is finished by ``recover(storeRoot:)``, which the book runs under the
/// exclusive lock whenever ``needsRecovery(storeRoot:)`` says so. Temporary files never appear
/// in `people/` or `groups/`: they live in the private `.contacts/` folder.
///
/// ```swift
/// let lock = try StoreLock(storeRoot: root)
/// try lock.withExclusive(timeout: .seconds(5)) {
///     try StoreTransaction.commit(
///         [.write(json, to: "people/katie-bell-x7k2.json"), .delete("people/old-a1b2.json")],
///         storeRoot: root)
/// }
/// ```
package enum StoreTransaction {
    /// Commits with more new files than this are made durable with one `syncfs` instead of one
    /// `fsync` per file.
    static let fileSystemSyncThreshold = 64

    /// Applies `changes` to the store at `storeRoot`, all or nothing.
    ///
    /// The caller must hold the store's exclusive lock. An interrupted earlier commit is
    /// recovered first. Paths must be relative to the store root, stay out of `.contacts/`, and
    /// appear at most once. An empty list changes nothing.
    ///
    /// - Parameters:
    ///   - changes: The files to write or delete, applied in this order.
    ///   - storeRoot: The store's root folder.
    /// - Throws: `ContactsError` `.invalidValue` for an unacceptable or repeated path (nothing is
    ///   changed); `.io` if a file operation fails. A failure before the commit point leaves the
    ///   old files untouched and removes what was staged; a failure after it leaves the journal,
    ///   and the next ``recover(storeRoot:)`` completes the commit.
    static func commit(_ changes: [FileChange], storeRoot: URL) throws {
        try commit(changes, storeRoot: storeRoot, faultInjection: .none)
    }

    /// ``commit(_:storeRoot:)``, interrupted where `faultInjection` says (test-only; see
    /// ``FaultInjection``).
    ///
    /// - Throws: As ``commit(_:storeRoot:)``, and whatever `faultInjection` throws.
    static func commit(
        _ changes: [FileChange],
        storeRoot: URL,
        faultInjection: FaultInjection
    ) throws {
        let paths = StorePaths(root: storeRoot)
        try validate(changes)
        if needsRecovery(paths) {
            _ = try recover(paths)
        }
        guard !changes.isEmpty else { return }

        let transactionID = PosixFileSystem.randomHex(byteCount: 16)
        let journal: TransactionJournal
        do {
            let createdTargets = try prepareTargets(of: changes, paths: paths)
            let created = try makeStagingFolder(transactionID, paths: paths)
            journal = try stage(changes, transactionID: transactionID, paths: paths, faultInjection: faultInjection)
            for folder in Set((created + createdTargets).map(PosixFileSystem.parent(of:))).sorted() {
                try PosixFileSystem.syncFolder(folder)
            }
            try writeJournalTemporary(journal, paths: paths)
            try faultInjection.reach(.afterJournalTemp)
            try publishJournal(paths: paths)
        } catch let crash as FaultInjection.SimulatedCrash {
            throw crash
        } catch {
            try? discardLeftovers(paths)
            throw error
        }
        try PosixFileSystem.syncFolder(paths.privateFolder)
        try faultInjection.reach(.afterJournal)

        try rollForward(journal, paths: paths, faultInjection: faultInjection)

        try PosixFileSystem.removeFile(paths.journal)
        try PosixFileSystem.syncFolder(paths.privateFolder)
        try faultInjection.reach(.afterJournalRemoved)
        try discardLeftovers(paths)
    }

    /// Rejects paths that are unacceptable, repeated, or that need a folder where the commit
    /// changes a file, before anything is written.
    private static func validate(_ changes: [FileChange]) throws {
        var seen = Set<String>()
        seen.reserveCapacity(changes.count)
        for change in changes {
            guard FileChange.isAcceptablePath(change.path) else {
                throw ContactsError(
                    .invalidValue, "a file change must name a relative path outside .contacts", path: change.path)
            }
            guard seen.insert(change.path).inserted else {
                throw ContactsError(.invalidValue, "a commit may change each file only once", path: change.path)
            }
        }
        for path in seen {
            var folder = PosixFileSystem.parent(of: path)
            while !folder.isEmpty {
                guard !seen.contains(folder) else {
                    throw ContactsError(
                        .invalidValue, "a commit cannot change a file where another of its files needs a folder",
                        path: folder)
                }
                folder = PosixFileSystem.parent(of: folder)
            }
        }
    }

    /// Creates `.contacts/staging/<txid>`, returning the folders it created.
    private static func makeStagingFolder(_ transactionID: String, paths: StorePaths) throws -> [String] {
        var created: [String] = []
        for folder in [paths.privateFolder, paths.stagingFolder, paths.stagingFolder(for: transactionID)]
        where try PosixFileSystem.makeFolder(folder) {
            created.append(folder)
        }
        return created
    }

    /// Writes the new bytes into the staging folder, makes them durable, and returns the journal.
    private static func stage(
        _ changes: [FileChange],
        transactionID: String,
        paths: StorePaths,
        faultInjection: FaultInjection
    ) throws -> TransactionJournal {
        let folder = paths.stagingFolder(for: transactionID)
        let writeCount = changes.reduce(0) { count, change in
            if case .write = change.kind { count + 1 } else { count }
        }
        let syncEachFile = writeCount <= fileSystemSyncThreshold
        var operations: [TransactionJournal.Operation] = []
        operations.reserveCapacity(changes.count)
        var staged = 0
        for change in changes {
            guard case .write(let data) = change.kind else {
                operations.append(.delete(target: change.path))
                continue
            }
            if staged == writeCount / 2 {
                try faultInjection.reach(.afterStagingSomeFiles)
            }
            let file = try PosixFile.createNew(folder + "/\(staged)")
            do {
                try file.write(data)
                if syncEachFile { try file.sync() }
            } catch {
                file.closeIgnoringErrors()
                throw error
            }
            try file.close()
            operations.append(.write(staged: staged, target: change.path))
            staged += 1
        }
        if writeCount == 0 {
            try faultInjection.reach(.afterStagingSomeFiles)
        }
        let stagingFolder = try PosixFile.openFolder(folder)
        defer { stagingFolder.closeIgnoringErrors() }
        if !syncEachFile {
            try stagingFolder.syncFileSystem()
        }
        try stagingFolder.sync()
        try faultInjection.reach(.afterStaging)
        return TransactionJournal(transactionID: transactionID, operations: operations)
    }

    /// Checks that no folder stands where a file of the commit goes, and creates the missing
    /// folders that written files go into, returning the folders created. Done before the commit
    /// point, so that applying the journal cannot fail for these reasons.
    private static func prepareTargets(of changes: [FileChange], paths: StorePaths) throws -> [String] {
        var folders = Set<String>()
        for change in changes {
            let target = paths.absolute(change.path)
            guard !PosixFileSystem.isFolder(target) else {
                throw ContactsError(.io, "a folder stands where the commit puts a file", path: target)
            }
            if case .write = change.kind {
                folders.insert(PosixFileSystem.parent(of: change.path))
            }
        }
        var created: [String] = []
        for folder in folders.sorted() where !folder.isEmpty {
            created += try PosixFileSystem.makeFolders(folder, under: paths.root)
        }
        return created
    }

    /// Writes and syncs `.contacts/journal.tmp`.
    private static func writeJournalTemporary(_ journal: TransactionJournal, paths: StorePaths) throws {
        try PosixFileSystem.removeFile(paths.journalTemporary)
        let file = try PosixFile.createNew(paths.journalTemporary)
        do {
            try file.write(journal.encoded())
            try file.sync()
        } catch {
            file.closeIgnoringErrors()
            throw error
        }
        try file.close()
    }

    /// Renames the journal to its final name: the commit point.
    private static func publishJournal(paths: StorePaths) throws {
        let code = PosixFileSystem.rename(paths.journalTemporary, to: paths.journal)
        guard code == 0 else {
            throw PosixError.error("could not publish the journal", path: paths.journal, code: code, call: "rename")
        }
    }
}
