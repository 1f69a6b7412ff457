import FoundationEssentials

/// Cross-process exclusion for one store: `flock` on `<store>/.contacts/lock`.
///
/// Readers hold the lock shared, a saving writer holds it exclusive. The lock file itself is
/// never written or replaced (a lock on a file that is later replaced by rename would protect
/// nothing). Every acquisition opens its own descriptor (`O_CLOEXEC`), and `flock` locks belong
/// to the open descriptor, so two instances exclude each other even inside one process. The
/// lock is released and the descriptor closed when the body returns or throws, and by the
/// system if the process dies.
///
/// Taking, waiting for and releasing the lock are ``FileLock``'s: waiting polls until the
/// timeout.
///
/// ```swift
/// let lock = StoreLock(storeRoot: root)
/// try lock.withExclusive(timeout: .seconds(5)) {
///     try StoreTransaction.commit(changes, storeRoot: root)
/// }
/// ```
///
/// Calls nested on the same instance run their body directly when the lock already held is
/// strong enough; a shared lock is never turned into an exclusive one (that would let another
/// process slip in between). An instance is not meant to be shared between threads.
final class StoreLock {
    private let privateFolder: String
    private let lockFile: String
    private var heldMode: FileLock.Mode?

    /// A lock for the store at `storeRoot`, on `<storeRoot>/.contacts/lock`.
    ///
    /// Nothing is opened until the lock is taken.
    init(storeRoot: URL) {
        let paths = StorePaths(root: storeRoot)
        privateFolder = paths.privateFolder
        lockFile = paths.lockFile
    }

    /// A lock on `<privateFolder>/lock`, where `privateFolder` is the store's `.contacts` folder.
    ///
    /// Nothing is opened until the lock is taken.
    init(privateFolder: URL) {
        self.privateFolder = StorePaths.path(of: privateFolder)
        lockFile = self.privateFolder + "/lock"
    }

    /// Runs `body` while holding the lock exclusively, waiting at most `timeout` for it.
    ///
    /// Creates the private folder (mode `0700`) and the lock file (mode `0600`) if missing.
    ///
    /// ```swift
    /// let saved = try lock.withExclusive(timeout: .seconds(5)) { try save() }
    /// ```
    ///
    /// - Returns: What `body` returns.
    /// - Throws: `ContactsError` `.busy` if another holder keeps the lock past `timeout`, or if
    ///   this instance already holds it shared; `.io` if the lock file cannot be created, opened
    ///   or locked; whatever `body` throws.
    func withExclusive<T>(timeout: Duration, _ body: () throws -> T) throws -> T {
        try withLock(.exclusive, timeout: timeout, body)
    }

    /// Runs `body` while holding the lock shared, waiting at most `timeout` for it.
    ///
    /// Any number of shared holders coexist; they exclude exclusive holders. Creates the
    /// private folder (mode `0700`) and the lock file (mode `0600`) if missing.
    ///
    /// ```swift
    /// let people = try lock.withShared(timeout: .seconds(5)) { try loadPeople() }
    /// ```
    ///
    /// - Returns: What `body` returns.
    /// - Throws: `ContactsError` `.busy` if an exclusive holder keeps the lock past `timeout`;
    ///   `.io` if the lock file cannot be created, opened or locked; whatever `body` throws.
    func withShared<T>(timeout: Duration, _ body: () throws -> T) throws -> T {
        try withLock(.shared, timeout: timeout, body)
    }

    private func withLock<T>(_ mode: FileLock.Mode, timeout: Duration, _ body: () throws -> T) throws -> T {
        if let heldMode {
            guard heldMode == .exclusive || mode == .shared else {
                throw ContactsError(
                    .busy, "a shared store lock cannot be turned into an exclusive one", path: lockFile)
            }
            return try body()
        }
        let file = try FileLock.open(lockFile, in: privateFolder)
        defer { FileLock.release(file) }
        let taken = try FileLock.acquire(
            mode, on: file, waiting: .upTo(timeout),
            action: "could not lock the store")
        guard taken else { throw ContactsError(.busy, "the store is locked by another process", path: lockFile) }
        heldMode = mode
        defer { heldMode = nil }
        return try body()
    }
}
