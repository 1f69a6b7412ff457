import FoundationEssentials
import Glibc
import PlainContactsSystem

/// Symbolic links inside the store.
extension StoreReader {
    /// Fails when the file at `url` is a symbolic link: the store reads only its own files and
    /// never follows a link out of its folder. A missing file passes (the caller reports it).
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` naming the link.
    func refuseSymbolicLink(_ url: URL) throws {
        let path = url.path(percentEncoded: false)
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return }
        throw Self.symbolicLinkError(path: path)
    }

    /// The error of a record file that is a symbolic link.
    static func symbolicLinkError(path: String) -> ContactsError {
        ContactsError(
            .malformedFile,
            "is a symbolic link; the store never follows links out of its folder — replace it with the file itself",
            path: path)
    }

    /// A file read through its open folder `folder` (at `folderPath`, for errors), with its
    /// signature taken before it was read, so that the signature never describes bytes newer
    /// than those read; `nil` when there is no such file. What a program that reads thousands
    /// of records at once (the server's first listing after an import) needs, without a path
    /// or URL made per file.
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` for a symbolic link, which the store never
    ///   follows; the other codes of ``PosixError`` when the file cannot be read.
    static func readFile(named name: String, in folder: Int32, folderPath: String) throws -> (
        signature: FileSignature, data: Data
    )? {
        var descriptor: Int32
        repeat {
            descriptor = openat(folder, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else {
            let code = errno
            let path = folderPath + "/" + name
            if code == ENOENT { return nil }
            if code == ELOOP { throw symbolicLinkError(path: path) }
            throw PosixError.error("cannot read the file", path: path, code: code, call: "openat")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw PosixError.error("cannot read the file", path: folderPath + "/" + name, code: errno, call: "fstat")
        }
        var data = Data(count: Int(status.st_size) + 1)
        var length = 0
        while true {
            if length == data.count { data.count *= 2 }
            let count = data.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress.map { $0 + length }, buffer.count - length)
            }
            if count > 0 {
                length += count
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw PosixError.error("cannot read the file", path: folderPath + "/" + name, code: errno, call: "read")
            }
        }
        data.count = length
        return (FileSignature(status), data)
    }
}
