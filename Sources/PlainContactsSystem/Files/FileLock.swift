import Glibc

/// Cross-process exclusion with `flock` on a dedicated lock file: the one place that opens,
/// takes and releases such locks.
///
/// A lock file is created once (mode `0600`, in a folder of mode `0700`) and then never
/// written, replaced or removed, so every process locks the same inode; a lock on a file
/// later replaced by rename would protect nothing. Each acquisition opens its own descriptor
/// (`O_CLOEXEC`, so child processes such as `git` do not inherit it), and `flock` locks belong
/// to the open descriptor, so two holders exclude each other even inside one process. The
/// system releases the lock if the process dies.
///
/// ```swift
/// let file = try FileLock.open(folder + "/settings.lock", in: folder)
/// defer { FileLock.release(file) }
/// guard try FileLock.acquire(.exclusive, on: file, waiting: .upTo(.seconds(5)), action: "could not lock the settings")
/// else { throw SettingsBusy(path: file.path) }
/// ```
package enum FileLock<Failures: FileFailures> {
    private typealias FileSystem = PosixFileSystem<Failures>

    /// Whether other holders may hold the lock at the same time.
    package enum Mode {
        /// Any number of shared holders coexist; they exclude exclusive holders.
        case shared
        /// One holder, excluding every other.
        case exclusive
    }

    /// How long to wait for a lock another holder has.
    package enum Wait: Equatable {
        /// Block until the lock is free.
        case forever
        /// Poll with a non-blocking `flock`, sleeping 2 ms at first and up to 50 ms between
        /// tries, until the duration has passed; `.upTo(.zero)` tries once.
        case upTo(Duration)
    }

    /// Opens a dedicated lock file `O_CLOEXEC`, creating it (mode `0600`) and its folder (mode
    /// `0700`, whose parent must exist) if missing. Read access is enough for `flock`, so a lock
    /// file of mode `0600` owned by this user always opens. The file is never written.
    ///
    /// ```swift
    /// let file = try FileLock.open(folder + "/settings.lock", in: folder)
    /// defer { FileLock.release(file) }
    /// ```
    ///
    /// - Throws: the error of `Failures` if the folder or the file cannot be
    ///   created, or the file cannot be opened.
    package static func open(_ lockFile: String, in folder: String) throws -> PosixFile<Failures> {
        if !FileSystem.exists(lockFile) {
            try FileSystem.makeFolder(folder)
            do {
                try PosixFile<Failures>.createNew(lockFile).closeIgnoringErrors()
            } catch where FileSystem.exists(lockFile) {
                // Another process created it first.
            }
        }
        return try PosixFile<Failures>.open(lockFile, flags: O_RDONLY | O_CLOEXEC)
    }

    /// Takes the lock on an open file, retrying on `EINTR`. The corresponding C function is `flock`.
    ///
    /// ```swift
    /// let taken = try FileLock.acquire(.shared, on: file, waiting: .upTo(.zero), action: "could not lock the settings")
    /// ```
    ///
    /// - Returns: `true` once the lock is held; `false` if another holder kept it past `wait`.
    /// - Throws: the error of `Failures` starting with `action` when `flock`
    ///   fails for another reason than a lock held elsewhere.
    package static func acquire(_ mode: Mode, on file: PosixFile<Failures>, waiting wait: Wait, action: String) throws -> Bool {
        let operation = mode == .exclusive ? LOCK_EX : LOCK_SH
        guard case .upTo(let timeout) = wait else {
            while flock(file.descriptor, operation) != 0 {
                let code = errno
                if code == EINTR { continue }
                throw Failures.error(action, path: file.path, code: code, call: "flock")
            }
            return true
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var pause = Duration.milliseconds(2)
        while true {
            if flock(file.descriptor, operation | LOCK_NB) == 0 { return true }
            let code = errno
            if code == EINTR { continue }
            guard code == EWOULDBLOCK else {
                throw Failures.error(action, path: file.path, code: code, call: "flock")
            }
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else { return false }
            sleep(for: min(pause, remaining))
            pause = min(pause * 2, .milliseconds(50))
        }
    }

    /// Releases the lock and closes the descriptor; the file stays for the next holder.
    package static func release(_ file: PosixFile<Failures>) {
        while flock(file.descriptor, LOCK_UN) != 0 && errno == EINTR {}
        file.closeIgnoringErrors()
    }

    /// Runs `body` while holding the lock on `lockFile` (created with its folder if missing).
    ///
    /// ```swift
    /// try FileLock.withLock(path, in: folder, .exclusive, waiting: .forever, action: "could not lock the file",
    ///                       busy: SettingsBusy(path: path)) { try update() }
    /// ```
    ///
    /// - Returns: What `body` returns.
    /// - Throws: `busy` if another holder keeps the lock past `wait`; the errors of
    ///   ``open(_:in:)`` and ``acquire(_:on:waiting:action:)``; whatever `body` throws.
    package static func withLock<T>(
        _ lockFile: String, in folder: String, _ mode: Mode, waiting wait: Wait, action: String,
        busy: @autoclosure () -> any Error, _ body: () throws -> T
    ) throws -> T {
        let file = try open(lockFile, in: folder)
        defer { release(file) }
        guard try acquire(mode, on: file, waiting: wait, action: action) else { throw busy() }
        return try body()
    }

    private static func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        _ = nanosleep(&request, nil)
    }
}
