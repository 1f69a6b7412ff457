import PlainContacts

/// The CardDAV client's domain of errors: remotes, a server's answers and a sync's refusals.
public enum SyncDomain: ErrorDomain {}

/// An error of `contacts sync` and the CardDAV client: see ``PlainContactsError``. Failures
/// of the store under a sync (a busy lock, a file that cannot be written) stay
/// ``ContactsError``s.
///
/// ```swift
/// do {
///     try sync.run()
/// } catch let error as SyncError where error.code == .authenticationFailed {
///     print("Check the remote's password.")
/// }
/// ```
public typealias SyncError = PlainContactsError<SyncDomain>

extension PlainContactsError.Code where Domain == SyncDomain {
    /// No remote (a server address book the store syncs with) has the given name.
    public static let remoteNotFound = Self(rawValue: "remoteNotFound")
    /// A remote of the given name is already set up for the store.
    public static let remoteExists = Self(rawValue: "remoteExists")
    /// A server's answer could not be read: XML that is not well formed, has a document type
    /// declaration (refused, never expanded), or lacks what the protocol requires.
    public static let malformedResponse = Self(rawValue: "malformedResponse")
    /// A server refused the credentials (HTTP 401 or 403): a wrong user or password, or an
    /// account without access to the address book.
    public static let authenticationFailed = Self(rawValue: "authenticationFailed")
    /// A server's answer was larger than a sync reads: a body past 256 MiB (as received,
    /// after any compression is undone), a `Content-Length` announcing one, or a header block
    /// past 256 KiB. Reading stopped there, and the sync stopped as on any failure of the
    /// server: the store not saved, the status not advanced. The bound is four times the
    /// largest answer a sync of 100,000 cards needs, so such an answer is a broken or hostile
    /// server.
    public static let responseTooLarge = Self(rawValue: "responseTooLarge")
    /// A server could not be reached, timed out, or kept failing (HTTP 5xx) after retries.
    public static let serverUnavailable = Self(rawValue: "serverUnavailable")
    /// A server refused a conditional write because the card changed there meanwhile
    /// (HTTP 412 on `If-Match` or `If-None-Match: *`); re-read it and merge.
    public static let preconditionFailed = Self(rawValue: "preconditionFailed")
    /// A sync would remove more than half of the store or of the server (and more than a
    /// handful of records), which is more often a broken server or a wrong account than
    /// the user's wish; nothing was changed. `--force` carries it out.
    public static let tooManyRemovals = Self(rawValue: "tooManyRemovals")
    /// A server refused a change because the account may only read the address book (HTTP 403
    /// with `DAV:need-privileges`, RFC 3744): a warning of ``SyncReport``, the change kept in
    /// the store and not uploaded.
    public static let readOnly = Self(rawValue: "readOnly")
    /// The server has nothing at a URL (HTTP 404 or 410), or discovery found no address book
    /// from it.
    public static let notFound = Self(rawValue: "notFound")
    /// Two records or cards carry one vCard UID, or the store and the server hold a person and a
    /// group under one: a warning of ``SyncReport``, the sync leaving them as they are or taking
    /// them as one contact until `contacts doctor --fix` joins them.
    public static let uidClash = Self(rawValue: "uidClash")
}
