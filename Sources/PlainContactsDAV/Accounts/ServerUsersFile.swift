import FoundationEssentials
import PlainContacts

/// The accounts of `contacts serve`: one salted slow hash per user (``PasswordHash``), kept in
/// `<store>/.contacts/users.json`.
///
/// The file is device-local: `.contacts/` is in the store's `.gitignore`, so a pushed
/// repository never carries an account. As the remotes file (``RemoteSettingsFile``), it is
/// created with mode 0600 in a 0700 folder whatever the umask, replaced atomically and
/// durably, and changed in read-modify-write cycles under an exclusive lock on
/// `<store>/.contacts/users.lock`; it is removed once it holds no account. No password is
/// ever written, only its hash.
///
/// A missing file means no accounts (the server then serves loopback clients without
/// sign-in); a file that exists but cannot be read or does not hold accounts is an error
/// naming it, never taken for none.
///
/// ```swift
/// let file = ServerUsersFile(storeURL: storeURL)
/// try file.add(try ServerUserName("kim"), password: "s3cret", replacing: false)
/// for account in try file.accounts() {
///     print(account.name, account.passwordHash)  // kim pbkdf2-sha256 (200000 iterations)
/// }
/// try file.remove(try ServerUserName("kim"))
/// ```
package struct ServerUsersFile: Sendable {
    /// The name of the file inside the store's private folder.
    static let fileName = "users.json"
    /// The name of the lock file beside it.
    static let lockFileName = "users.lock"
    /// The longest password accepted, in UTF-8 bytes: an `Authorization` header carries at
    /// most ``BasicCredentials/maximumEncodedCount`` base64 bytes, so a longer password could
    /// never sign in.
    package static let maximumPasswordLength = 1_024

    /// The store's folder.
    let storeURL: URL
    /// The iteration count of the hashes ``add(_:password:replacing:)`` makes.
    let hashIterations: Int
    /// The lowest iteration count accepted when reading hashes.
    let minimumIterations: Int

    /// The accounts of the store at `storeURL`. Nothing is read or created until a method is
    /// called; tests lower the counts to stay fast.
    ///
    /// ```swift
    /// let file = ServerUsersFile(storeURL: storeURL)
    /// let quick = ServerUsersFile(storeURL: storeURL, hashIterations: 1_000, minimumIterations: 1_000)
    /// ```
    package init(
        storeURL: URL, hashIterations: Int = PasswordHash.defaultIterations,
        minimumIterations: Int = PasswordHash.minimumIterations
    ) {
        self.storeURL = storeURL
        self.hashIterations = hashIterations
        self.minimumIterations = minimumIterations
    }

    /// The accounts file, `<store>/.contacts/users.json`.
    var fileURL: URL { privateFolder.appending(path: ServerUsersFile.fileName) }

    // MARK: Reading

    /// Every account with its password hash, sorted by name; none when the file does not
    /// exist.
    ///
    /// ```swift
    /// let names = try file.accounts().map(\.name)
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` naming the file (and the user, for a
    ///   hash that is not acceptable) when it cannot be read as accounts;
    ///   ``ContactsError/Code/permissionDenied`` or ``ContactsError/Code/io`` when it cannot be
    ///   read at all.
    package func accounts() throws -> [ServerAccount] {
        let path = fileURL.path(percentEncoded: false)
        var accounts: [ServerAccount] = []
        for (name, user) in try settings.read().users {
            let hash: PasswordHash
            do throws(ContactsError) {
                hash = try PasswordHash(parsing: user.passwordHash, minimumIterations: minimumIterations)
            } catch {
                throw ContactsError(
                    .malformedFile,
                    "user \"\(name)\": \(error.message); set the password again with `contacts user add \(name) --replace`",
                    path: path)
            }
            accounts.append(ServerAccount(name: name, passwordHash: hash, books: user.books ?? ServerGrant.standard))
        }
        return accounts.sorted { $0.name < $1.name }
    }

    /// The password hash of every account, by name, as ``ServerAuthenticator`` takes them.
    ///
    /// ```swift
    /// let authenticator = try ServerAuthenticator(passwordHashes: try file.passwordHashes())
    /// ```
    ///
    /// - Throws: as ``accounts()``.
    func passwordHashes() throws -> [ServerUserName: PasswordHash] {
        Dictionary(uniqueKeysWithValues: try accounts().map { ($0.name, $0.passwordHash) })
    }

    /// Checks that no account has `name` yet, so that a command can refuse before it asks for
    /// a password; ``add(_:password:replacing:)`` checks again under the lock.
    ///
    /// ```swift
    /// try file.checkNameIsFree(try ServerUserName("kim"))
    /// ```
    ///
    /// - Throws: `ServeError.Code.userExists` when an account has that name; otherwise as
    ///   ``accounts()``, except that hashes are not checked.
    package func checkNameIsFree(_ name: ServerUserName) throws {
        if try settings.read().users[name] != nil { throw exists(name) }
    }

    // MARK: Changing

    /// Gives `name` an account with `password`; with `replacing`, gives an existing account
    /// a new password instead of refusing it. The hash is made (one slow derivation) before the
    /// file is locked, so that other writers do not wait for it.
    ///
    /// ```swift
    /// try file.add(try ServerUserName("kim"), password: "s3cret", replacing: false)  // false
    /// try file.add(try ServerUserName("kim"), password: "n3w", replacing: true)      // true
    /// ```
    ///
    /// - Returns: whether an existing account's password was replaced.
    /// - Throws: `ServeError.Code.userExists` when the account exists and `replacing` is
    ///   false; ``ContactsError/Code/invalidValue`` for an empty password or one longer than
    ///   ``maximumPasswordLength`` bytes; ``ContactsError/Code/malformedFile`` when the file is
    ///   damaged (nothing is written); ``ContactsError/Code/io`` when the store folder is
    ///   missing or the file cannot be written.
    ///
    /// With `books`, the user has those books, in that order, each with its `access`, instead of
    /// ``ServerGrant/standard`` (a new user) or the books it had (a replaced one). A book given
    /// with its store's folder is named by it first (see ``ServedBookReference``).
    @discardableResult
    package func add(
        _ name: ServerUserName, password: String, replacing: Bool, books: [ServedBookReference]? = nil,
        access: ServerGrant.Access = .readWrite
    ) throws -> Bool {
        try ServerUsersFile.checkPassword(password)
        if !replacing { try checkNameIsFree(name) }
        let hash = try PasswordHash.make(password: password, iterations: hashIterations)
        var replaced = false
        try settings.update { contents in
            let existing = contents.users[name]
            if existing != nil && !replacing { throw exists(name) }
            replaced = existing != nil
            var user = existing ?? Contents.User()
            user.passwordHash = hash.text
            if let books {
                user.books = try declare(books, in: &contents).map { ServerGrant(book: $0, access: access) }
            }
            contents.users[name] = user
            forgetUngrantedBooks(in: &contents)
        }
        return replaced
    }

    /// Removes the account of `name`.
    ///
    /// ```swift
    /// try file.remove(try ServerUserName("kim"))
    /// ```
    ///
    /// - Throws: `ServeError.Code.userNotFound` when no account has that name; otherwise
    ///   as ``add(_:password:replacing:)``.
    package func remove(_ name: ServerUserName) throws {
        try settings.update { contents in
            guard contents.users.removeValue(forKey: name) != nil else { throw notFound(name) }
            forgetUngrantedBooks(in: &contents)
        }
    }

    /// Checks that `password` may be stored: not empty, at most ``maximumPasswordLength``
    /// bytes of UTF-8.
    ///
    /// ```swift
    /// try ServerUsersFile.checkPassword("")  // throws .invalidValue
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/invalidValue`` saying which rule the password breaks,
    ///   never quoting it.
    package static func checkPassword(_ password: String) throws(ContactsError) {
        guard !password.isEmpty else { throw ContactsError(.invalidValue, "a password must not be empty") }
        guard password.utf8.count <= maximumPasswordLength else {
            throw ContactsError(
                .invalidValue,
                "a password has at most \(maximumPasswordLength) bytes: an HTTP Basic header could not carry a longer one")
        }
    }

    // MARK: Files

    /// The store's device-local folder, `<store>/.contacts/`.
    private var privateFolder: URL { StoreLayout(root: storeURL).privateFolder }
    /// The lock that serializes writers of the file.
    private var lockFile: URL { privateFolder.appending(path: ServerUsersFile.lockFileName) }

    /// The file, read and updated as every device-local settings file is.
    var settings: DeviceSettingsFile<Contents> {
        DeviceSettingsFile(url: fileURL, lockFile: lockFile, folder: privateFolder)
    }

    /// The error for an account that exists already.
    private func exists(_ name: ServerUserName) -> ServeError {
        ServeError(.userExists,
            "user \"\(name)\" exists already; give it a new password with `contacts user add \(name) --replace`",
            path: fileURL.path(percentEncoded: false))
    }

    /// The error for an account that does not exist.
    func notFound(_ name: ServerUserName) -> ServeError {
        ServeError(.userNotFound, "no user is named \"\(name)\"", path: fileURL.path(percentEncoded: false))
    }
}
