import PlainContacts

/// What one sync does with one contact, decided from how the store's record and the server's
/// card changed since the last sync: the three-way comparison at the heart of `contacts sync`.
///
/// A record and a card are the same contact when they share a vCard `UID`. The status is what
/// both sides looked like after the last sync that saw the contact (a fingerprint of the
/// record, the card's ETag); without one, the contact is new to the sync on each side that has
/// it. The decision is a pure function, so every combination is tested without a server, and a
/// sync carries out what it says (vdirsyncer decides the same way in
/// `vdirsyncer/sync/__init__.py`).
///
/// ```swift
/// let action = SyncDecision.action(
///     status: SyncStatus(localFingerprint: "a1", remoteETag: "\"7\""),
///     localFingerprint: "b2", remoteETag: "\"7\"")
/// // .upload: changed here, unchanged there
/// ```
package enum SyncDecision {
    /// How one side changed since the status.
    enum Change: Hashable, Sendable, CaseIterable {
        /// Present now and at the last sync, the same.
        case unchanged
        /// Present now and at the last sync, different.
        case changed
        /// Present at the last sync, absent now.
        case removed
    }

    /// What to do with one contact.
    enum Action: Hashable, Sendable {
        /// Nothing changed on either side: nothing is read or written.
        case nothing
        /// Write the record to the server: `If-Match` with the known ETag, or `If-None-Match: *`
        /// for a card the server does not have yet.
        case upload
        /// Write the server's card into the store.
        case download
        /// Both sides have a version of their own: merge them property by property, against the
        /// last synced version when there is one (`base`), else as two versions of a contact met
        /// for the first time (a first sync of a store and an account that share cards).
        /// Properties set differently on both sides are a conflict, left as they are on both
        /// sides and reported, unless a preference settles them.
        case merge(base: Bool, prefer: MergePreference?)
        /// Remove the card from the server (`If-Match`).
        case deleteRemote
        /// Remove the record from the store.
        case deleteLocal
        /// The server removed what the store changed: the store's version is kept and uploaded
        /// again, and the sync reports it.
        case restoreRemote
        /// The store removed what the server changed: the server's version is kept and
        /// downloaded again, and the sync reports it.
        case restoreLocal
        /// Both sides removed it: the status is forgotten.
        case forget

        /// Whether the action removes the contact from the store.
        var removesLocally: Bool { self == .deleteLocal }
        /// Whether the action removes the contact from the server.
        var removesRemotely: Bool { self == .deleteRemote }
    }

    /// The action for a contact, from its status after the last sync (or `nil`) and each side's
    /// version now (`nil` when that side has no such contact).
    static func action(
        status: SyncStatus?, localFingerprint: String?, remoteETag: String?, prefer: MergePreference? = nil
    ) -> Action {
        guard let status else {
            switch (localFingerprint, remoteETag) {
            case (nil, nil): return .forget
            case (_?, nil): return .upload
            case (nil, _?): return .download
            case (_?, _?): return .merge(base: false, prefer: prefer)
            }
        }
        return action(
            local: change(before: status.localFingerprint, now: localFingerprint),
            remote: change(before: status.remoteETag, now: remoteETag), prefer: prefer)
    }

    /// How a side changed: its version now against the one the status recorded.
    static func change(before: String, now: String?) -> Change {
        guard let now else { return .removed }
        return now == before ? .unchanged : .changed
    }

    /// The action for a contact both sides had at the last sync.
    ///
    /// A removal on one side removes on the other, unless the other changed it meanwhile (then
    /// it is kept and reported). A preference only settles what would otherwise stay a
    /// conflict: both sides changed.
    static func action(local: Change, remote: Change, prefer: MergePreference? = nil) -> Action {
        switch (local, remote) {
        case (.unchanged, .unchanged): .nothing
        case (.changed, .unchanged): .upload
        case (.unchanged, .changed): .download
        case (.changed, .changed): .merge(base: true, prefer: prefer)
        case (.removed, .unchanged): .deleteRemote
        case (.unchanged, .removed): .deleteLocal
        case (.removed, .changed): .restoreLocal
        case (.changed, .removed): .restoreRemote
        case (.removed, .removed): .forget
        }
    }

    /// The most a sync removes from one side without `--force`: more than this many records
    /// and more than half of the side is refused, as vdirsyncer refuses, because it is more
    /// often a broken server, a wrong account or an emptied folder than what the user meant.
    static let removalsAllowedWithoutForce = 5

    /// Whether a sync's actions remove more than half of either side, and more than
    /// ``removalsAllowedWithoutForce`` records, so that it must be refused without `--force`.
    static func removesTooMuch(_ actions: [Action], localCount: Int, remoteCount: Int) -> Bool {
        let local = actions.filter(\.removesLocally).count
        let remote = actions.filter(\.removesRemotely).count
        func tooMuch(_ removed: Int, of total: Int) -> Bool {
            removed > removalsAllowedWithoutForce && removed * 2 > total
        }
        return tooMuch(local, of: localCount) || tooMuch(remote, of: remoteCount)
    }
}
