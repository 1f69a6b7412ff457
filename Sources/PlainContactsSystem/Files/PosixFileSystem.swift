import FoundationEssentials
import Glibc

/// Path-based POSIX operations: folders, renames, removals and syncs.
///
/// Every call is retried on `EINTR`; failures become the errors `Failures` makes of the call,
/// the path and its `errno`. Folders are always created with mode exactly `0700`.
package enum PosixFileSystem<Failures: FileFailures> {
    /// Whether anything (file, folder or link) exists at `path`. The corresponding C function is `lstat`.
    package static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// Whether `path` is a folder (links are not followed).
    package static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// Creates one folder with mode exactly `0700`; returns `false` if a folder already exists there.
    ///
    /// - Throws: the error of `Failures` if the folder cannot be created, or a non-folder is in the way.
    @discardableResult
    package static func makeFolder(_ path: String) throws -> Bool {
        while mkdir(path, 0o700) != 0 {
            let code = errno
            if code == EINTR { continue }
            if code == EEXIST, isFolder(path) { return false }
            throw Failures.error("could not create folder", path: path, code: code, call: "mkdir")
        }
        while chmod(path, 0o700) != 0 {
            let code = errno
            if code == EINTR { continue }
            throw Failures.error("could not set folder permissions", path: path, code: code, call: "chmod")
        }
        return true
    }

    /// Creates the folder `relativeFolder` and any missing parents below `root`, each `0700`.
    ///
    /// Returns the absolute paths of the folders it created, outermost first, so that callers
    /// can sync their parents.
    ///
    /// ```swift
    /// let created = try PosixFileSystem.makeFolders("photos/2026", under: "/home/me/notes")
    /// ```
    ///
    /// - Throws: the error of `Failures` if a folder cannot be created.
    package static func makeFolders(_ relativeFolder: String, under root: String) throws -> [String] {
        var created: [String] = []
        var current = root
        for component in relativeFolder.split(separator: "/", omittingEmptySubsequences: true) {
            current += "/" + component
            if try makeFolder(current) { created.append(current) }
        }
        return created
    }

    /// Renames `source` to `target`, replacing `target` atomically. The corresponding C function is `rename`.
    ///
    /// Returns the `errno` value on failure instead of throwing, so that callers can treat
    /// `ENOENT` as part of their protocol.
    package static func rename(_ source: String, to target: String) -> Int32 {
        while Glibc.rename(source, target) != 0 {
            let code = errno
            if code == EINTR { continue }
            return code
        }
        return 0
    }

    /// Removes a file; a file that is already missing is not an error. The corresponding C function is `unlink`.
    ///
    /// - Throws: the error of `Failures` for any failure other than `ENOENT`.
    package static func removeFile(_ path: String) throws {
        while Glibc.unlink(path) != 0 {
            let code = errno
            if code == EINTR { continue }
            if code == ENOENT { return }
            throw Failures.error("could not remove file", path: path, code: code, call: "unlink")
        }
    }

    /// Removes `path` and, if it is a folder, everything inside it; a missing path is not an error.
    ///
    /// - Throws: the error of `Failures` if something cannot be removed.
    package static func removeTree(_ path: String) throws {
        guard isFolder(path) else {
            try removeFile(path)
            return
        }
        for name in try entries(of: path) {
            try removeTree(path + "/" + name)
        }
        while rmdir(path) != 0 {
            let code = errno
            if code == EINTR { continue }
            if code == ENOENT { return }
            throw Failures.error("could not remove folder", path: path, code: code, call: "rmdir")
        }
    }

    /// The names in a folder, without `.` and `..`, in no particular order.
    ///
    /// - Throws: the error of `Failures` if the folder cannot be read.
    package static func entries(of folder: String) throws -> [String] {
        guard let stream = opendir(folder) else {
            throw Failures.error("could not read folder", path: folder, code: errno, call: "opendir")
        }
        defer { closedir(stream) }
        let listing = names(in: stream)
        if listing.errno != 0 {
            throw Failures.error("could not read folder", path: folder, code: listing.errno, call: "readdir")
        }
        return listing.names
    }

    /// The names an open folder stream lists, without `.` and `..`, and `readdir`'s `errno`
    /// when the listing stopped short (0 when it reached the end).
    package static func names(in stream: OpaquePointer) -> (names: [String], errno: Int32) {
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else { return (names, errno) }
            let name = withUnsafePointer(to: entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// Flushes a folder's entries (creations, renames, removals) to stable storage.
    ///
    /// - Throws: the error of `Failures` if the folder cannot be opened or synced.
    package static func syncFolder(_ path: String) throws {
        let folder = try PosixFile<Failures>.openFolder(path)
        defer { folder.closeIgnoringErrors() }
        try folder.sync()
    }

    /// The folder part of a path ("a/b/c.json" gives "a/b"; "c.json" gives "").
    package static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// The last component of a path ("a/b/c.json" gives "c.json").
    package static func lastComponent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// `byteCount` random bytes as lowercase hexadecimal, for names of temporary files and transactions.
    package static func randomHex(byteCount: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        text.reserveCapacity(byteCount * 2)
        for _ in 0..<byteCount {
            let byte = UInt8.random(in: 0...255, using: &generator)
            let digits = String(byte, radix: 16)
            text += digits.count == 1 ? "0" + digits : digits
        }
        return text
    }

    /// The file system path of a file URL, standardized and without a trailing slash.
    ///
    /// ```swift
    /// PosixFileSystem.path(of: URL(filePath: "/home/me/notes/"))  // "/home/me/notes"
    /// ```
    package static func path(of url: URL) -> String {
        var path = url.standardizedFileURL.path(percentEncoded: false)
        while path.count > 1 && path.hasSuffix("/") {
            path.removeLast()
        }
        return path
    }
}
