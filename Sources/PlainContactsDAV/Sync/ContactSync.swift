import FoundationEssentials
import PlainContacts

/// One two-way sync of an address book with a remote address book: what `contacts sync` runs.
///
/// A sync reads the server's changes (incrementally where it can), decides each contact's
/// action against the status the last sync left (``SyncDecision``), carries the actions out on
/// the server with conditional writes, saves the store, and only then records the new status.
/// A sync cut short anywhere leaves both sides consistent: the next one finds the pairs again
/// by UID, merges what it finds changed on both sides, and duplicates nobody.
///
/// ```swift
/// let book = try AddressBook(url: storeURL)
/// var sync = ContactSync(book: book, remote: remote, statusFolder: folder)
/// sync.options.prefer = .remote
/// let report = try sync.run()
/// ```
package struct ContactSync {
    /// How a sync behaves.
    package struct Options {
        /// Which side wins a property changed differently on both; `nil` leaves conflicts.
        package var prefer: MergePreference?
        /// Carry out a sync that removes more than half of a side (see
        /// ``SyncDecision/removesTooMuch(_:localCount:remoteCount:)``).
        package var force = false
        /// Decide and report only; write nothing anywhere.
        package var dryRun = false
        /// Called as the sync reads and writes cards.
        package var progress: ((SyncProgress) -> Void)?
        /// Earlier versions of a person's record file, newest first (the file's Git history).
        ///
        /// When the sync meets a card for the first time while the store has its record (pulled
        /// from a clone that synced it), the version equal to the server's card is the base of
        /// their merge, so that an edit made on the other clone after it synced is carried out
        /// rather than reported as a conflict or undone. Asked only when the merge without a
        /// base would change the record or conflicts.
        package var history: ((RecordKey) -> [Data])?

        package init() {}
    }

    let book: AddressBook
    let remote: any RemoteAddressBook
    let statusFolder: URL
    package var options = Options()

    /// A sync of `book` with `remote`, keeping its status in `statusFolder`.
    package init(book: AddressBook, remote: any RemoteAddressBook, statusFolder: URL) {
        self.book = book
        self.remote = remote
        self.statusFolder = statusFolder
    }

    /// Runs the sync.
    ///
    /// - Throws: `SyncError.Code.tooManyRemovals` (nothing written) when the sync would
    ///   remove more than half of either side without ``Options/force``;
    ///   `SyncError.Code.authenticationFailed`, `SyncError.Code.serverUnavailable`,
    ///   `SyncError.Code.malformedResponse` and `SyncError.Code.responseTooLarge` from the
    ///   server (the store is not saved, the
    ///   status not advanced: the next sync completes what this one wrote);
    ///   the store's save errors.
    package func run() throws -> SyncReport {
        guard !book.hasUnsavedChanges else {
            throw ContactsError(.invalidValue, "the address book has unsaved changes; save or revert before syncing")
        }
        // The server's changes since the token are asked for while the status and the store
        // are read: the token is on the status's first lines.
        let stored = try SyncStatusFile.Stored.read(from: statusFolder)
        let remote = self.remote
        var early: (token: String, changes: BackgroundTask<RemoteChanges?>)?
        if let head = stored?.head, head.url == nil || head.url == remote.url, let token = head.syncToken {
            early = (token, BackgroundTask { try remote.changes(since: token, includingCards: true) })
        }
        var status = try stored.map(SyncStatusFile.init) ?? SyncStatusFile()
        if status.url != nil, status.url != remote.url {
            status = SyncStatusFile()
        }
        var run = SyncRun(book: book, remote: remote, status: status, options: options)
        run.bases = try SyncBaseFile.load(from: statusFolder)
        try run.readLocal()
        try run.readRemote(early: early.flatMap { $0.token == status.syncToken ? $0.changes : nil })
        run.decide()
        try run.checkRemovals()
        guard !options.dryRun else { return run.plannedReport() }
        try run.carryOut()
        try run.saveStore()
        try run.recordStatus(in: statusFolder)
        return run.report
    }
}

/// How far a sync is, for a progress bar.
package struct SyncProgress: Sendable, Hashable {
    package enum Phase: String, Sendable, Hashable {
        /// Fetching new and changed cards from the server.
        case reading
        /// Carrying out the decisions.
        case writing
    }

    package var phase: Phase
    package var done: Int
    package var total: Int
}
