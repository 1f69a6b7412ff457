import FoundationEssentials
import Glibc

/// An open file descriptor with the few operations that durable writes and locks need.
///
/// The value does not close itself: callers pair every `open` with `close()` (usually in a
/// `defer`). Every call is retried on `EINTR`, and every failure becomes the error `Failures`
/// makes of the call, the file and its `errno`.
package struct PosixFile<Failures: FileFailures> {
    /// The open file descriptor.
    package let descriptor: Int32
    /// The path the descriptor was opened with, for error messages.
    package let path: String

    /// Wraps a descriptor opened by other means, such as `open` with flags of the caller's own.
    ///
    /// ```swift
    /// let file = PosixFile(descriptor: open(path, O_WRONLY | O_APPEND | O_CLOEXEC), path: path)
    /// ```
    package init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// Creates a new file for writing, failing if it exists; its mode is exactly `0600`.
    ///
    /// - Throws: the error of `Failures` if the file exists or cannot be created.
    package static func createNew(_ path: String) throws -> PosixFile {
        let file = try open(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o600)
        do {
            try file.setPermissions(0o600)
        } catch {
            file.closeIgnoringErrors()
            _ = Glibc.unlink(path)
            throw error
        }
        return file
    }

    /// Opens an existing file for reading.
    ///
    /// - Throws: the error of `Failures` if the file cannot be opened.
    package static func openForReading(_ path: String) throws -> PosixFile {
        try open(path, flags: O_RDONLY | O_CLOEXEC)
    }

    /// Opens a folder so that it can be synced.
    ///
    /// - Throws: the error of `Failures` if the folder cannot be opened.
    package static func openFolder(_ path: String) throws -> PosixFile {
        try open(path, flags: O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }

    /// Opens `path` with the given flags, retrying on `EINTR`. The corresponding C function is `open`.
    ///
    /// - Throws: the error of `Failures` with the system's reason.
    static func open(_ path: String, flags: Int32, mode: mode_t = 0o600) throws -> PosixFile {
        while true {
            let descriptor = Glibc.open(path, flags, mode)
            if descriptor >= 0 { return PosixFile(descriptor: descriptor, path: path) }
            let code = errno
            if code == EINTR { continue }
            throw Failures.error("could not open file", path: path, code: code, call: "open")
        }
    }

    /// Writes all of `data`, retrying short writes and `EINTR`.
    ///
    /// - Throws: the error of `Failures` if a write fails.
    package func write(_ data: Data) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written >= 0 {
                    offset += written
                    continue
                }
                let code = errno
                if code == EINTR { continue }
                throw Failures.error("could not write file", path: path, code: code, call: "write")
            }
        }
    }

    /// Reads from the current position to the end of the file.
    ///
    /// - Throws: the error of `Failures` if a read fails.
    package func readToEnd() throws -> Data {
        var result = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            }
            if count > 0 {
                result.append(contentsOf: chunk[0..<count])
                continue
            }
            if count == 0 { return result }
            let code = errno
            if code == EINTR { continue }
            throw Failures.error("could not read file", path: path, code: code, call: "read")
        }
    }

    /// Flushes the file's data and metadata to stable storage. The corresponding C function is `fsync`.
    ///
    /// - Throws: the error of `Failures` if the sync fails.
    package func sync() throws {
        while Glibc.fsync(descriptor) != 0 {
            let code = errno
            if code == EINTR { continue }
            throw Failures.error("could not sync to disk", path: path, code: code, call: "fsync")
        }
    }

    /// Flushes every pending write of the whole file system holding this file.
    ///
    /// Much faster than syncing thousands of files one by one. The corresponding C function is
    /// `syncfs`; where the C library lacks it, `sync` is used instead.
    ///
    /// - Throws: the error of `Failures` if the sync fails.
    package func syncFileSystem() throws {
        guard let syncfs = SyncFileSystemCall.function else {
            Glibc.sync()
            return
        }
        while syncfs(descriptor) != 0 {
            let code = errno
            if code == EINTR { continue }
            throw Failures.error("could not sync the file system", path: path, code: code, call: "syncfs")
        }
    }

    /// Sets the permission bits exactly, whatever the umask was at creation. The corresponding
    /// C function is `fchmod`.
    ///
    /// - Throws: the error of `Failures` if the mode cannot be changed.
    package func setPermissions(_ mode: mode_t) throws {
        while fchmod(descriptor, mode) != 0 {
            let code = errno
            if code == EINTR { continue }
            throw Failures.error("could not set permissions", path: path, code: code, call: "fchmod")
        }
    }

    /// Closes the descriptor, reporting a failure (some file systems report write errors only here).
    ///
    /// `EINTR` is not retried: on Linux the descriptor is released whatever `close` returns.
    ///
    /// - Throws: the error of `Failures` if closing reports an error other than `EINTR`.
    package func close() throws {
        if Glibc.close(descriptor) != 0 {
            let code = errno
            if code == EINTR { return }
            throw Failures.error("could not close file", path: path, code: code, call: "close")
        }
    }

    /// Closes the descriptor on a path that is already failing, where a second error adds nothing.
    package func closeIgnoringErrors() {
        _ = Glibc.close(descriptor)
    }
}

/// The C library's `syncfs`, looked up once (a generic type cannot hold the address itself).
private enum SyncFileSystemCall {
    typealias Function = @convention(c) (Int32) -> Int32

    /// The address of `syncfs`. Glibc declares it only for `_GNU_SOURCE`, which the Swift
    /// `Glibc` module does not define, so it is found by name.
    private static let address: UInt? = {
        guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "syncfs") else {
            return nil
        }
        return UInt(bitPattern: symbol)
    }()

    /// The function, or `nil` where the C library lacks it.
    static var function: Function? {
        guard let address, let pointer = UnsafeRawPointer(bitPattern: address) else {
            return nil
        }
        return unsafeBitCast(pointer, to: Function.self)
    }
}
