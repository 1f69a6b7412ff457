import FoundationEssentials
import Glibc

extension StoreTransaction {
    /// What ``StoreTransaction/recover(storeRoot:)`` did.
    enum RecoveryOutcome: Sendable, Equatable {
        /// No journal, temporary journal or staging folder was found.
        case nothingToRecover
        /// A committed journal was found and its operations were completed.
        case rolledForward
        /// No committed journal was found (none, or a torn one): the leftovers of an
        /// interrupted commit were removed and the store's files were left as they were.
        case rolledBack
    }

    /// Whether an interrupted commit left a journal, a temporary journal or staged files behind.
    ///
    /// Cheap (three `lstat` calls) and safe under the shared lock; when it returns `true`, take
    /// the exclusive lock and call ``recover(storeRoot:)`` before reading the store's files.
    static func needsRecovery(storeRoot: URL) -> Bool {
        needsRecovery(StorePaths(root: storeRoot))
    }

    /// Finishes or undoes an interrupted commit, so that the store holds exactly the old or
    /// exactly the new files and nothing temporary is left.
    ///
    /// A complete journal is rolled forward: every staged file still present is renamed onto
    /// its target (a missing one was already moved), every deleted file is unlinked again
    /// (a missing one is fine), the changed folders are synced, and the journal and staging
    /// folder are removed. Without a journal, or with a torn one, the staging folder and any
    /// temporary journal are removed. Running it again changes nothing. The caller must hold
    /// the store's exclusive lock.
    ///
    /// ```swift
    /// if StoreTransaction.needsRecovery(storeRoot: root) {
    ///     try lock.withExclusive(timeout: .seconds(5)) {
    ///         _ = try StoreTransaction.recover(storeRoot: root)
    ///     }
    /// }
    /// ```
    ///
    /// - Throws: `ContactsError` `.io` if a file operation fails; recovery can then be run again.
    @discardableResult
    static func recover(storeRoot: URL) throws -> RecoveryOutcome {
        try recover(StorePaths(root: storeRoot))
    }

    static func needsRecovery(_ paths: StorePaths) -> Bool {
        PosixFileSystem.exists(paths.journal) || PosixFileSystem.exists(paths.journalTemporary)
            || PosixFileSystem.exists(paths.stagingFolder)
    }

    static func recover(_ paths: StorePaths) throws -> RecoveryOutcome {
        if PosixFileSystem.exists(paths.journal) {
            let file = try PosixFile.openForReading(paths.journal)
            let data: Data
            do {
                data = try file.readToEnd()
            } catch {
                file.closeIgnoringErrors()
                throw error
            }
            file.closeIgnoringErrors()
            let journal = TransactionJournal(decoding: data)
            if let journal {
                try rollForward(journal, paths: paths, faultInjection: nil)
            }
            try PosixFileSystem.removeFile(paths.journal)
            try PosixFileSystem.syncFolder(paths.privateFolder)
            try discardLeftovers(paths)
            return journal == nil ? .rolledBack : .rolledForward
        }
        guard needsRecovery(paths) else { return .nothingToRecover }
        try discardLeftovers(paths)
        return .rolledBack
    }

    /// Applies a committed journal's operations; safe to repeat.
    ///
    /// A staged file that is gone was moved by an earlier run. Fault points are reached only
    /// during a commit (`faultInjection` is `nil` during recovery).
    static func rollForward(
        _ journal: TransactionJournal,
        paths: StorePaths,
        faultInjection: FaultInjection?
    ) throws {
        let staging = paths.stagingFolder(for: journal.transactionID)
        var touched = Set<String>()
        let half = journal.operations.count / 2
        for (index, operation) in journal.operations.enumerated() {
            if index == half {
                try faultInjection?.reach(.afterSomeRenames)
            }
            let target = paths.absolute(operation.target)
            touched.insert(paths.absolute(PosixFileSystem.parent(of: operation.target)))
            switch operation {
            case .write(let staged, let relativeTarget):
                try moveStagedFile(
                    staging + "/\(staged)", to: target, relativeTarget: relativeTarget, paths: paths, touched: &touched)
            case .delete:
                try PosixFileSystem.removeFile(target)
            }
        }
        try faultInjection?.reach(.afterRenames)
        for folder in touched.sorted() where PosixFileSystem.exists(folder) {
            try PosixFileSystem.syncFolder(folder)
        }
        try faultInjection?.reach(.afterFolderSync)
    }

    /// Renames one staged file onto its target, creating the target's folder if it vanished.
    private static func moveStagedFile(
        _ source: String,
        to target: String,
        relativeTarget: String,
        paths: StorePaths,
        touched: inout Set<String>
    ) throws {
        var code = PosixFileSystem.rename(source, to: target)
        if code == ENOENT {
            guard PosixFileSystem.exists(source) else { return }
            let created = try PosixFileSystem.makeFolders(PosixFileSystem.parent(of: relativeTarget), under: paths.root)
            touched.formUnion(created.map(PosixFileSystem.parent(of:)))
            code = PosixFileSystem.rename(source, to: target)
        }
        guard code == 0 else {
            throw PosixError.error("could not move a staged file into place", path: target, code: code, call: "rename")
        }
    }

    /// Removes the temporary journal and the whole staging folder, then syncs `.contacts/`.
    static func discardLeftovers(_ paths: StorePaths) throws {
        try PosixFileSystem.removeFile(paths.journalTemporary)
        try PosixFileSystem.removeTree(paths.stagingFolder)
        if PosixFileSystem.exists(paths.privateFolder) {
            try PosixFileSystem.syncFolder(paths.privateFolder)
        }
    }
}
