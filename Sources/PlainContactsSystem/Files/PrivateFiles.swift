import FoundationEssentials
import Glibc

/// Reading and appending files only their owner may read: folders with mode 0700 and files
/// with mode 0600 whatever the umask, done with POSIX calls. Whole files are replaced and
/// removed with ``DurableFile``; their writers are serialized with ``FileLock``.
///
/// A store keeps its device-local files this way (access consent, remotes, sync status and
/// history, the server's state and users), in its private folder.
///
/// ```swift
/// try PrivateFiles.makePrivateFolder(privateFolder)
/// let data = try PrivateFiles.read(privateFolder.appending(path: "access.json"))
/// try PrivateFiles.append(Data("line\n".utf8), to: privateFolder.appending(path: "history"))
/// ```
package enum PrivateFiles<Failures: FileFailures> {
    /// Reads a whole file; `nil` if it does not exist.
    ///
    /// - Throws: the error of `Failures` for any other failure.
    package static func read(_ url: URL) throws -> Data? {
        let path = url.path(percentEncoded: false)
        var descriptor: Int32
        repeat {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
        } while descriptor < 0 && errno == EINTR
        if descriptor < 0 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw Failures.error("could not open the file", path: path, code: errno, call: "open")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failures.error("could not read the file", path: path, code: errno, call: "read")
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return Data(bytes)
    }

    /// Creates `folder` and the parents it lacks, each private (mode 0700) as
    /// ``makePrivateFolder(_:)`` makes it.
    ///
    /// - Throws: the errors of ``makePrivateFolder(_:)``.
    package static func makePrivateFolders(_ folder: URL) throws {
        var missing: [URL] = []
        var current = folder
        while !PosixFileSystem<Failures>.exists(current.path(percentEncoded: false)) {
            missing.append(current)
            let parent = current.deletingLastPathComponent()
            if parent == current { break }
            current = parent
        }
        for url in missing.reversed() { try makePrivateFolder(url) }
    }

    /// Creates `folder` with mode 0700 whatever the umask, if it does not exist yet. Its parent
    /// must exist.
    ///
    /// - Throws: the error of `Failures` if the folder cannot be created.
    package static func makePrivateFolder(_ folder: URL) throws {
        let path = folder.path(percentEncoded: false)
        if mkdir(path, 0o700) == 0 {
            guard chmod(path, 0o700) == 0 else {
                throw Failures.error("could not set the permissions of the folder", path: path, code: errno, call: "chmod")
            }
            syncParent(of: folder)
            return
        }
        let code = errno
        var info = stat()
        if code == EEXIST, stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return }
        throw Failures.error("could not create the folder", path: path, code: code, call: "mkdir")
    }

    /// Appends `data` to the file at `url`, created with mode 0600 if missing, and flushes it
    /// to disk. A crash may leave part of `data` at the end; callers write records that a
    /// reader can tell apart from a torn one.
    ///
    /// - Throws: the error of `Failures` if any step fails.
    package static func append(_ data: Data, to url: URL) throws {
        let path = url.path(percentEncoded: false)
        var descriptor: Int32
        repeat {
            descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else {
            throw Failures.error("could not open the file to append to it", path: path, code: errno, call: "open")
        }
        let file = PosixFile<Failures>(descriptor: descriptor, path: path)
        defer { file.closeIgnoringErrors() }
        try file.setPermissions(0o600)
        try file.write(data)
        try file.sync()
    }

    /// Flushes the parent of a newly created folder, ignoring failures: the folder's own
    /// contents are flushed on every later write.
    private static func syncParent(of folder: URL) {
        try? PosixFileSystem<Failures>.syncFolder(PosixFileSystem<Failures>.path(of: folder.deletingLastPathComponent()))
    }
}
