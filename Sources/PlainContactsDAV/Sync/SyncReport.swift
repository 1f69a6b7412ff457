import PlainContacts

/// What one sync did (or, for a dry run, would do), for the summary line and `--json`.
///
/// ```swift
/// let report = try ContactSync(book: book, remote: remote, statusFolder: folder).run()
/// print(report.local.added, report.remote.changed, report.conflicts.count)
/// ```
package struct SyncReport: Sendable {
    /// Counts of what changed on one side.
    package struct Counts: Sendable, Hashable {
        package var added = 0
        package var changed = 0
        package var removed = 0

        package var total: Int { added + changed + removed }
    }

    /// A contact changed differently on both sides: left as it is on both, until a later sync
    /// with a preference.
    package struct Conflict: Sendable, Hashable {
        /// The contact's UID.
        package var uid: String
        /// The store's record ID, when the store has it.
        package var recordID: RecordID?
        /// The property keys changed differently (`"phones"`, `"name"` for a group).
        package var properties: [String]
    }

    /// A contact kept on one side although the other removed it, because it changed there.
    package struct Kept: Sendable, Hashable {
        package var uid: String
        package var recordID: RecordID?
        /// Whether the store's version was kept (the server removed it); else the server's.
        package var keptLocal: Bool
    }

    /// What changed in the store.
    package var local = Counts()
    /// What changed on the server.
    package var remote = Counts()
    package var conflicts: [Conflict] = []
    package var kept: [Kept] = []
    /// Cards and records left out of this sync, each a warning naming the card or record.
    package var warnings: [SyncError] = []
    /// Whether nothing was written (`--dry-run`).
    package var dryRun = false
    /// Whether the server's changes were read incrementally (sync token or ctag) rather than by
    /// listing every card.
    package var incremental = false

    init() {}
}
