import FoundationEssentials
import Glibc

/// An exclusive `flock` on a dedicated lock file, held for the length of a closure.
///
/// The lock file is never replaced or removed, so every process locks the same inode; the
/// lock is released when the closure returns or throws, and by the kernel if the process dies.
///
/// ```swift
/// try AccessFileLock.withLock(at: folder.appending(path: "access.lock")) {
///     // read, modify and replace access.json
/// }
/// ```
enum AccessFileLock {
    /// Runs `body` while holding an exclusive lock on the file at `url`, creating it (mode
    /// 0600) if needed. Waits for other holders.
    ///
    /// - Throws: ``ContactsError/Code/io`` if the lock file cannot be opened or locked, and
    ///   whatever `body` throws.
    static func withLock<Result>(at url: URL, _ body: () throws -> Result) throws -> Result {
        let path = url.path(percentEncoded: false)
        var descriptor: Int32
        repeat {
            descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else {
            throw AccessFiles.failure("could not open the lock file", path: path, code: errno, call: "open")
        }
        defer { close(descriptor) }
        _ = fchmod(descriptor, 0o600)
        var status: Int32
        repeat {
            status = flock(descriptor, LOCK_EX)
        } while status != 0 && errno == EINTR
        guard status == 0 else {
            throw AccessFiles.failure("could not lock the file", path: path, code: errno, call: "flock")
        }
        defer { _ = flock(descriptor, LOCK_UN) }
        return try body()
    }
}
