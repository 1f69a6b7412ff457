import FoundationEssentials
import Glibc

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
        throw ContactsError(
            .malformedFile,
            "is a symbolic link; the store never follows links out of its folder — replace it with the file itself",
            path: path)
    }
}
