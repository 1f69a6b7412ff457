import FoundationEssentials

/// The lock that serializes writers of one device-local settings file (access consent, remotes,
/// server users): an exclusive ``FileLock`` on a dedicated lock file beside it, held for the
/// length of a closure, waiting as long as another writer holds it.
///
/// The lock file is never replaced or removed, so every process locks the same inode; the
/// lock is released when the closure returns or throws, and by the kernel if the process dies.
///
/// ```swift
/// try DeviceFileLock.withLock(at: folder.appending(path: "access.lock")) {
///     // read, modify and replace access.json
/// }
/// ```
enum DeviceFileLock {
    /// Runs `body` while holding an exclusive lock on the file at `url`, creating it (mode
    /// 0600) and its folder (mode 0700) if needed. Waits for other holders.
    ///
    /// - Throws: ``ContactsError/Code/io`` if the lock file cannot be opened or locked, and
    ///   whatever `body` throws.
    static func withLock<Result>(at url: URL, _ body: () throws -> Result) throws -> Result {
        let path = url.path(percentEncoded: false)
        return try FileLock.withLock(
            path, in: url.deletingLastPathComponent().path(percentEncoded: false), .exclusive, waiting: .forever,
            action: "could not lock the file", busy: ContactsError(.busy, "the file is locked", path: path), body)
    }
}
