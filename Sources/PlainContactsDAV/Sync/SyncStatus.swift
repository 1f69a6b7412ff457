/// What both sides looked like after the last sync that saw a contact: the fingerprint of the
/// store's record and the ETag of the server's card. Kept device-local, per remote, so that the
/// next sync tells which side changed (see ``SyncDecision``).
///
/// ```swift
/// let status = SyncStatus(localFingerprint: "9c1e40c63161c682", remoteETag: "\"3-abc\"")
/// ```
struct SyncStatus: Hashable, Sendable {
    /// A fingerprint of the record's contents after the sync.
    var localFingerprint: String
    /// The card's ETag on the server after the sync, as the server wrote it (quotes included).
    var remoteETag: String
}
