import Glibc

/// What `lstat` says about a file, enough to notice that it changed: inode, size, and the
/// modification and status-change times in nanoseconds.
///
/// Any write changes the modification time; a rename over the file changes the inode; `touch`
/// with an old time still changes the status-change time. Two equal signatures therefore mean
/// an unchanged file, except for a write in the same clock tick as the signature was taken,
/// which a reader treats as "racily clean" and reads again (see ``isSettled``).
package struct FileSignature: Hashable, Sendable {
    /// The file's inode number: a rename over the file changes it.
    package var inode: UInt64
    /// The file's size in bytes.
    package var size: Int64
    /// The modification time, in nanoseconds since 1970.
    package var modified: Int64
    /// The status-change time, in nanoseconds since 1970.
    package var changed: Int64

    /// A signature of these facts, as a state file recorded them.
    package init(inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }

    /// The signature of the file or folder at `path`, or `nil` when there is none. Symbolic
    /// links are not followed.
    package static func of(_ path: String) -> FileSignature? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return FileSignature(status)
    }

    /// The signature of `name` inside the open folder `folder`.
    package static func of(_ name: String, in folder: Int32) -> FileSignature? {
        var status = stat()
        guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return FileSignature(status)
    }

    /// The signature `lstat` or `fstat` gave in `status`.
    package init(_ status: stat) {
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        changed = Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)
    }

    /// The later of the two times.
    package var latest: Int64 { Swift.max(modified, changed) }

    /// How long before a signature is taken its file must have last changed for the signature
    /// to be trusted: far more than a clock tick of any file system. A file changed more
    /// recently could change again in the same tick without changing its signature (an editor
    /// writing in place, keeping the size).
    package static let racyWindow: Int64 = 2_000_000_000

    /// Whether the file last changed more than ``racyWindow`` before now, so that the
    /// signature, taken now, tells every later change.
    package var isSettled: Bool {
        isSettled(at: Self.now())
    }

    /// Whether the file last changed more than ``racyWindow`` before `now`, in nanoseconds
    /// since 1970 as the file's times are.
    package func isSettled(at now: Int64) -> Bool {
        now - latest >= Self.racyWindow
    }
}

extension FileSignature {
    /// The current time in nanoseconds since 1970, the unit of a signature's times.
    package static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
