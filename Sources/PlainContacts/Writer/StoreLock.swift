import FoundationEssentials
import Glibc

/// Cross-process exclusion for one store: `flock` on `<store>/.contacts/lock`.
///
/// Readers hold the lock shared, a saving writer holds it exclusive. The lock file itself is
/// never written or replaced (a lock on a file that is later replaced by rename would protect
/// nothing). Every acquisition opens its own descriptor (`O_CLOEXEC`), and `flock` locks belong
/// to the open descriptor, so two instances exclude each other even inside one process. The
/// lock is released and the descriptor closed when the body returns or throws, and by the
/// system if the process dies.
///
/// Waiting polls with a non-blocking `flock`, sleeping 2 ms at first and up to 50 ms between
/// tries, until the timeout.
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
package final class StoreLock {
    private enum Mode {
        case shared
        case exclusive
    }

    private let privateFolder: String
    private let lockFile: String
    private var heldMode: Mode?

    /// A lock for the store at `storeRoot`, on `<storeRoot>/.contacts/lock`.
    ///
    /// Nothing is opened until the lock is taken.
    package init(storeRoot: URL) {
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
    package func withExclusive<T>(timeout: Duration, _ body: () throws -> T) throws -> T {
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

    private func withLock<T>(_ mode: Mode, timeout: Duration, _ body: () throws -> T) throws -> T {
        if let heldMode {
            guard heldMode == .exclusive || mode == .shared else {
                throw ContactsError(
                    .busy, "a shared store lock cannot be turned into an exclusive one", path: lockFile)
            }
            return try body()
        }
        let file = try openLockFile()
        do {
            try acquire(mode, on: file, timeout: timeout)
        } catch {
            file.closeIgnoringErrors()
            throw error
        }
        heldMode = mode
        defer {
            heldMode = nil
            while flock(file.descriptor, LOCK_UN) != 0 && errno == EINTR {}
            file.closeIgnoringErrors()
        }
        return try body()
    }

    private func acquire(_ mode: Mode, on file: PosixFile, timeout: Duration) throws {
        let operation = (mode == .exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var pause = Duration.milliseconds(2)
        while true {
            if flock(file.descriptor, operation) == 0 { return }
            let code = errno
            if code == EINTR { continue }
            guard code == EWOULDBLOCK else {
                throw PosixError.error("could not lock the store", path: lockFile, code: code, call: "flock")
            }
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else {
                throw ContactsError(.busy, "the store is locked by another process", path: lockFile)
            }
            StoreLock.sleep(for: min(pause, remaining))
            pause = min(pause * 2, .milliseconds(50))
        }
    }

    /// Opens the lock file, creating it (and the private folder) if missing.
    private func openLockFile() throws -> PosixFile {
        try Self.openLockFile(lockFile, in: privateFolder)
    }

    /// Opens a dedicated lock file `O_CLOEXEC`, creating it (mode `0600`) and its folder (mode
    /// `0700`, whose parent must exist) if missing. Read access is enough for `flock`, so a lock
    /// file of mode `0600` owned by this user always opens. The file is never written.
    ///
    /// ```swift
    /// let file = try StoreLock.openLockFile(root + "/.contacts/lock", in: root + "/.contacts")
    /// defer { file.closeIgnoringErrors() }
    /// ```
    ///
    /// - Throws: a `ContactsError` (coded by ``PosixError``) if the folder or the file cannot be
    ///   created, or the file cannot be opened.
    static func openLockFile(_ lockFile: String, in folder: String) throws -> PosixFile {
        if !PosixFileSystem.exists(lockFile) {
            try PosixFileSystem.makeFolder(folder)
            do {
                try PosixFile.createNew(lockFile).closeIgnoringErrors()
            } catch where PosixFileSystem.exists(lockFile) {
                // Another process created it first.
            }
        }
        return try PosixFile.open(lockFile, flags: O_RDONLY | O_CLOEXEC)
    }

    private static func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        _ = nanosleep(&request, nil)
    }
}
