import FoundationEssentials
import Glibc

/// Each program's access status for one store: what the user allowed or refused, and what the
/// administrator or the operating system restricts.
///
/// Decisions are device-local: they live in `<store>/.contacts/access.json`, which Git
/// ignores, so granting a program access on one machine grants nothing on another. The status
/// of a client is, in this order:
///
/// 1. ``AuthorizationStatus/authorized`` for ``ownerClient``, the store owner's own tools;
/// 2. ``AuthorizationStatus/restricted`` if the operating system does not let the current user
///    read the store's `people/` folder;
/// 3. ``AuthorizationStatus/restricted`` if the administrator's `<store>/.contacts/policy.json`
///    holds `{"restricted": true}` or names the client in `"restrictedClients"` (a policy file
///    that cannot be read or parsed restricts every client);
/// 4. the recorded decision, ``AuthorizationStatus/authorized`` or
///    ``AuthorizationStatus/denied``;
/// 5. otherwise ``AuthorizationStatus/notDetermined``.
///
/// Changes are read-modify-write cycles under an exclusive lock on `<store>/.contacts/access.lock`,
/// so several processes may record decisions at once; the file is replaced atomically and
/// durably, with mode 0600 in a 0700 folder whatever the umask.
///
/// ```swift
/// let consent = AccessConsentStore(storeURL: storeURL)
/// if consent.status(for: "com.example.mailer") == .notDetermined {
///     try consent.setStatus(.authorized, for: "com.example.mailer")
/// }
/// ```
///
/// The AddressBook equivalent of ``status(for:)`` is `ABAddressBookGetAuthorizationStatus`; to
/// ask the user, use ``AccessRequest``.
public struct AccessConsentStore: Sendable {
    /// The client name of the store owner's own command-line tool, `contacts`, which is always
    /// ``AuthorizationStatus/authorized``: its status cannot be set, restricted or denied.
    public static let ownerClient = "contacts"

    /// The longest client name accepted, in Unicode scalars.
    static let maximumClientNameLength = 200

    /// The store's folder.
    public let storeURL: URL

    /// Whether the current user may read and search the given `people/` folder; tests replace
    /// the operating system's answer.
    let permissionCheck: @Sendable (URL) -> Bool

    /// Creates the consent store of the store at `storeURL`. Nothing is read or created until
    /// a method is called.
    ///
    /// ```swift
    /// let consent = AccessConsentStore(storeURL: URL(filePath: "/home/kim/contacts"))
    /// ```
    public init(storeURL: URL) {
        self.init(storeURL: storeURL, permissionCheck: AccessConsentStore.systemPermissionCheck)
    }

    init(storeURL: URL, permissionCheck: @escaping @Sendable (URL) -> Bool) {
        self.storeURL = storeURL
        self.permissionCheck = permissionCheck
    }

    /// The operating system's answer: `access(2)` with `R_OK | X_OK`. Only a refusal
    /// (`EACCES`, `EPERM`) counts; a folder that does not exist yet restricts nothing.
    static let systemPermissionCheck: @Sendable (URL) -> Bool = { folder in
        if access(folder.path(percentEncoded: false), R_OK | X_OK) == 0 { return true }
        return errno != EACCES && errno != EPERM
    }

    // MARK: Reading

    /// The status of `client` for this store.
    ///
    /// The AddressBook equivalent is `ABAddressBookGetAuthorizationStatus`.
    ///
    /// ```swift
    /// guard consent.status(for: "com.example.mailer") == .authorized else { return }
    /// ```
    ///
    /// A name that ``setStatus(_:for:)`` would refuse (empty, longer than 200 characters, with
    /// control characters) is ``AuthorizationStatus/notDetermined``; an unreadable or malformed
    /// `access.json` counts as holding no decisions.
    public func status(for client: String) -> AuthorizationStatus {
        guard AccessConsentStore.isValidClientName(client) else { return .notDetermined }
        return snapshot().status(for: client)
    }

    /// Every client with a recorded decision or a restriction by name, with its status, sorted
    /// by name (byte order). ``ownerClient`` is not listed.
    ///
    /// ```swift
    /// for (client, status) in consent.allStatuses() {
    ///     print(client, status.rawValue)
    /// }
    /// ```
    public func allStatuses() -> [(client: String, status: AuthorizationStatus)] {
        let snapshot = snapshot()
        let names = Set(snapshot.consent.clients.keys).union(snapshot.policy.restrictedClients)
        return names
            .filter { $0 != AccessConsentStore.ownerClient && AccessConsentStore.isValidClientName($0) }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .map { (client: $0, status: snapshot.status(for: $0)) }
    }

    // MARK: Changing

    /// Records the user's decision for `client`; ``AuthorizationStatus/notDetermined`` forgets
    /// it, as ``reset(client:)`` does. Creates `<store>/.contacts/` if needed. A restriction by
    /// policy or permissions still wins over what is recorded.
    ///
    /// ```swift
    /// try consent.setStatus(.denied, for: "com.example.tracker")
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/invalidValue`` for an invalid client name, for
    ///   ``AuthorizationStatus/restricted`` (only the administrator or the file permissions
    ///   restrict) or for ``ownerClient``; ``ContactsError/Code/malformedFile`` (or
    ///   ``ContactsError/Code/conflictMarkers``) if `access.json` is damaged, so that other
    ///   clients' decisions are not lost (``resetAll()`` clears it); ``ContactsError/Code/io``
    ///   if the store folder is missing or a file cannot be written.
    public func setStatus(_ status: AuthorizationStatus, for client: String) throws {
        try AccessConsentStore.validate(client: client)
        guard status != .restricted else {
            throw ContactsError(
                .invalidValue,
                "the restricted status comes from the access policy or the file permissions and cannot be set",
                path: policyFile.path(percentEncoded: false))
        }
        guard client != AccessConsentStore.ownerClient else {
            throw ContactsError(
                .invalidValue, "the store owner's client \"\(AccessConsentStore.ownerClient)\" is always authorized")
        }
        try update { $0.record(status, for: client) }
    }

    /// Forgets the decision for `client`, making it ``AuthorizationStatus/notDetermined`` again
    /// (unless restricted). Does nothing if there is no decision.
    ///
    /// ```swift
    /// try consent.reset(client: "com.example.mailer")
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/invalidValue`` for an invalid client name;
    ///   ``ContactsError/Code/malformedFile`` if `access.json` is damaged;
    ///   ``ContactsError/Code/io`` if it cannot be rewritten.
    public func reset(client: String) throws {
        try AccessConsentStore.validate(client: client)
        guard PosixFileSystem.isFolder(privateFolder.path(percentEncoded: false)) else { return }
        try update { $0.record(.notDetermined, for: client) }
    }

    /// Forgets every decision by removing `access.json`, even a damaged one. The policy file is
    /// left alone.
    ///
    /// ```swift
    /// try consent.resetAll()
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/io`` if the file cannot be removed.
    public func resetAll() throws {
        guard PosixFileSystem.isFolder(privateFolder.path(percentEncoded: false)) else { return }
        try DeviceFileLock.withLock(at: lockFile) {
            try DurableFile.remove(consentFile)
        }
    }

    // MARK: Names

    /// Checks a client name: not empty, at most 200 Unicode scalars, no control characters
    /// (nor line or paragraph separators).
    ///
    /// - Throws: ``ContactsError/Code/invalidValue``.
    static func validate(client: String) throws(ContactsError) {
        guard isValidClientName(client) else {
            throw ContactsError(
                .invalidValue,
                "a client name must have 1 to \(maximumClientNameLength) characters and no control characters")
        }
    }

    static func isValidClientName(_ client: String) -> Bool {
        let scalars = client.unicodeScalars
        guard !scalars.isEmpty, scalars.count <= maximumClientNameLength else { return false }
        return !scalars.contains { scalar in
            scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
        }
    }

    // MARK: Files

    private var layout: StoreLayout { StoreLayout(root: storeURL) }
    private var privateFolder: URL { layout.privateFolder }
    var consentFile: URL { privateFolder.appending(path: AccessConsentFile.fileName) }
    var policyFile: URL { privateFolder.appending(path: AccessPolicy.fileName) }
    var lockFile: URL { privateFolder.appending(path: "access.lock") }

    /// Everything a status depends on, read once.
    private struct Snapshot {
        var peopleFolderReadable: Bool
        var policy: AccessPolicy
        var consent: AccessConsentFile

        func status(for client: String) -> AuthorizationStatus {
            if client == AccessConsentStore.ownerClient { return .authorized }
            if !peopleFolderReadable || policy.restricts(client) { return .restricted }
            return consent.status(of: client)
        }
    }

    private func snapshot() -> Snapshot {
        let path = consentFile.path(percentEncoded: false)
        let data = try? DeviceFiles.read(consentFile)
        let consent = data.flatMap { try? AccessConsentFile(data: $0, path: path) } ?? AccessConsentFile()
        return Snapshot(
            peopleFolderReadable: permissionCheck(layout.peopleFolder),
            policy: AccessPolicy.load(from: policyFile),
            consent: consent)
    }

    /// Reads `access.json` under the lock, applies `change`, and writes the result if its
    /// bytes differ (removing the file once it holds nothing). Temporary files left by a
    /// writer that died are removed first: while the lock is held, no one else is writing.
    private func update(_ change: (inout AccessConsentFile) -> Void) throws {
        try DeviceFiles.makePrivateFolder(privateFolder)
        try DeviceFileLock.withLock(at: lockFile) {
            try DurableFile.removeLeftovers(of: consentFile)
            let old = try DeviceFiles.read(consentFile)
            let path = consentFile.path(percentEncoded: false)
            var file = try old.map { try AccessConsentFile(data: $0, path: path) } ?? AccessConsentFile()
            change(&file)
            if file.isEmpty {
                if old != nil { try DurableFile.remove(consentFile) }
                return
            }
            let new = file.data
            if new != old { try DurableFile.write(new, to: consentFile) }
        }
    }
}
