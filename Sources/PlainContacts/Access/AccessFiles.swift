import FoundationEssentials
import Glibc

/// The few file operations access consent needs, done with POSIX calls so that permissions do
/// not depend on the umask and replacements are durable.
enum AccessFiles {
    /// Reads a whole file; `nil` if it does not exist.
    ///
    /// - Throws: ``ContactsError/Code/io`` for any other failure.
    static func read(_ url: URL) throws -> Data? {
        let path = url.path(percentEncoded: false)
        var descriptor: Int32
        repeat {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
        } while descriptor < 0 && errno == EINTR
        if descriptor < 0 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw failure("could not open the file", path: path, code: errno, call: "open")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("could not read the file", path: path, code: errno, call: "read")
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return Data(bytes)
    }

    /// Creates `folder` with mode 0700 whatever the umask, if it does not exist yet. Its parent
    /// must exist.
    ///
    /// - Throws: ``ContactsError/Code/io`` if the folder cannot be created.
    static func makePrivateFolder(_ folder: URL) throws {
        let path = folder.path(percentEncoded: false)
        if mkdir(path, 0o700) == 0 {
            guard chmod(path, 0o700) == 0 else {
                throw failure("could not set the permissions of the folder", path: path, code: errno, call: "chmod")
            }
            syncParent(of: folder)
            return
        }
        let code = errno
        var info = stat()
        if code == EEXIST, stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return }
        throw failure("could not create the folder", path: path, code: code, call: "mkdir")
    }

    /// Replaces the file at `url` with `data`, mode 0600: the bytes go to a temporary file in
    /// the same folder, which is flushed to disk, renamed over the target, and the folder is
    /// flushed. On failure the old file is untouched and the temporary file removed.
    ///
    /// - Throws: ``ContactsError/Code/io`` if any step fails.
    static func replace(_ url: URL, with data: Data) throws {
        let path = url.path(percentEncoded: false)
        let folder = url.deletingLastPathComponent()
        let temporaryPath = folder.appending(path: temporaryPrefix(of: url) + randomSuffix() + temporarySuffix)
            .path(percentEncoded: false)
        var descriptor: Int32
        repeat {
            descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else {
            throw failure("could not create a temporary file", path: temporaryPath, code: errno, call: "open")
        }
        do {
            try fill(descriptor, with: data, path: temporaryPath)
        } catch {
            close(descriptor)
            unlink(temporaryPath)
            throw error
        }
        guard close(descriptor) == 0 || errno == EINTR else {
            let code = errno
            unlink(temporaryPath)
            throw failure("could not close the temporary file", path: temporaryPath, code: code, call: "close")
        }
        guard rename(temporaryPath, path) == 0 else {
            let code = errno
            unlink(temporaryPath)
            throw failure("could not rename the temporary file over the target", path: path, code: code, call: "rename")
        }
        try syncFolder(folder)
    }

    /// Appends `data` to the file at `url`, created with mode 0600 if missing, and flushes it
    /// to disk. A crash may leave part of `data` at the end; callers write records that a
    /// reader can tell apart from a torn one.
    ///
    /// - Throws: ``ContactsError/Code/io`` if any step fails.
    static func append(_ data: Data, to url: URL) throws {
        let path = url.path(percentEncoded: false)
        var descriptor: Int32
        repeat {
            descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else {
            throw failure("could not open the file to append to it", path: path, code: errno, call: "open")
        }
        defer { close(descriptor) }
        try fill(descriptor, with: data, path: path)
    }

    /// Removes temporary files that ``replace(_:with:)`` left beside `url` when its process
    /// died mid-write. Call it only while holding the lock that serializes writers of `url`.
    static func removeTemporaryFiles(of url: URL) {
        let folder = url.deletingLastPathComponent()
        let prefix = temporaryPrefix(of: url)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))
        else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(temporarySuffix) {
            unlink(folder.appending(path: name).path(percentEncoded: false))
        }
    }

    private static func temporaryPrefix(of url: URL) -> String { ".\(url.lastPathComponent)." }
    private static let temporarySuffix = ".tmp"

    /// Removes the file at `url` durably; does nothing if it does not exist.
    ///
    /// - Throws: ``ContactsError/Code/io`` if the file exists but cannot be removed.
    static func remove(_ url: URL) throws {
        let path = url.path(percentEncoded: false)
        guard unlink(path) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return }
            throw failure("could not remove the file", path: path, code: errno, call: "unlink")
        }
        try syncFolder(url.deletingLastPathComponent())
    }

    /// An error naming the action, the file and the system's reason, coded by ``PosixError``.
    static func failure(_ action: String, path: String, code: Int32, call: String) -> ContactsError {
        PosixError.error(action, path: path, code: code, call: call)
    }

    private static func fill(_ descriptor: Int32, with data: Data, path: String) throws {
        guard fchmod(descriptor, 0o600) == 0 else {
            throw failure("could not set the permissions of the temporary file", path: path, code: errno, call: "fchmod")
        }
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw failure("could not write the temporary file", path: path, code: errno, call: "write")
                }
                offset += written
            }
        }
        var status: Int32
        repeat {
            status = fsync(descriptor)
        } while status != 0 && errno == EINTR
        guard status == 0 else {
            throw failure("could not flush the temporary file to disk", path: path, code: errno, call: "fsync")
        }
    }

    private static func syncFolder(_ folder: URL) throws {
        let path = folder.path(percentEncoded: false)
        var descriptor: Int32
        repeat {
            descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else {
            throw failure("could not open the folder to flush it", path: path, code: errno, call: "open")
        }
        defer { close(descriptor) }
        var status: Int32
        repeat {
            status = fsync(descriptor)
        } while status != 0 && errno == EINTR
        guard status == 0 else {
            throw failure("could not flush the folder to disk", path: path, code: errno, call: "fsync")
        }
    }

    /// Flushes the parent of a newly created folder, ignoring failures: the folder's own
    /// contents are flushed on every later write.
    private static func syncParent(of folder: URL) {
        try? syncFolder(folder.deletingLastPathComponent())
    }

    private static func randomSuffix() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<12).map { _ in alphabet[Int(generator.next(upperBound: UInt32(alphabet.count)))] })
    }
}

extension AccessFiles {
    /// Whether `url` names an existing folder.
    static func isFolder(_ url: URL) -> Bool {
        var info = stat()
        return stat(url.path(percentEncoded: false), &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
