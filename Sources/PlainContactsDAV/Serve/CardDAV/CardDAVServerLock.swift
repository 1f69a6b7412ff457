#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts

/// One `contacts serve` per store: an exclusive `flock` on `<store>/.contacts/carddav/lock`,
/// taken before the server reads its ``CardDAVStateFile`` and held for as long as the value
/// lives; the system releases it if the process dies.
///
/// Two servers on one store would share the state file and hand out sync tokens that name
/// different changes, so the second is refused rather than kept waiting. The lock is the
/// server's alone: the command line and other programs write the store under the store's own
/// lock (``StoreLock``), which this one never touches, so they go on writing while a server
/// runs. Like ``StoreLock`` it is a ``FileLock``: a dedicated file that is never written or
/// replaced, locked through its own descriptor opened `O_CLOEXEC` (so `git`, which `--commit`
/// runs, does not inherit it), so two instances exclude each other even inside one process.
///
/// ```swift
/// let lock = try CardDAVServerLock(layout: StoreLayout(root: storeURL))   // .busy: another server runs
/// // serve, holding `lock`; it is released when `lock` is deinitialized
/// ```
final class CardDAVServerLock: Sendable {
    /// The lock file, open and locked for the value's whole life.
    private let file: PosixFile

    /// The lock file of a store: `.contacts/carddav/lock`.
    static func url(in layout: StoreLayout) -> URL {
        CardDAVStateFile.folder(in: layout).appending(path: "lock")
    }

    /// Takes the lock of a store's server, without waiting; creates `.contacts` and
    /// `.contacts/carddav` (mode `0700`) and the lock file (mode `0600`) if missing.
    ///
    /// - Throws: ``ContactsError/Code/busy`` when another server holds the lock; a
    ///   `ContactsError` coded by ``PosixError`` when the folders or the lock file cannot be
    ///   created, opened or locked.
    init(layout: StoreLayout) throws {
        let lockFile = PosixFileSystem.path(of: Self.url(in: layout))
        try PosixFileSystem.makeFolder(PosixFileSystem.path(of: layout.privateFolder))
        let file = try FileLock.open(lockFile, in: PosixFileSystem.path(of: CardDAVStateFile.folder(in: layout)))
        let taken: Bool
        do {
            taken = try FileLock.acquire(.exclusive, on: file, waiting: .upTo(.zero), action: "could not lock the server's state")
        } catch {
            file.closeIgnoringErrors()
            throw error
        }
        guard taken else {
            file.closeIgnoringErrors()
            throw ContactsError(
                .busy, "another `contacts serve` serves this store; stop it before starting a new one", path: lockFile)
        }
        self.file = file
    }

    deinit {
        FileLock.release(file)
    }
}
