import FoundationEssentials
import Glibc

/// The status of a file that tells, without reading it, whether it may have changed.
struct WatcherFileStatus: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modificationSeconds: Int
    var modificationNanoseconds: Int
    var changeSeconds: Int
    var changeNanoseconds: Int

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modificationSeconds = Int(info.st_mtim.tv_sec)
        modificationNanoseconds = Int(info.st_mtim.tv_nsec)
        changeSeconds = Int(info.st_ctim.tv_sec)
        changeNanoseconds = Int(info.st_ctim.tv_nsec)
    }
}

/// The few file-system calls the watcher makes, straight on Glibc so that a scan of thousands
/// of files stays cheap.
///
/// ```swift
/// for name in WatcherFileSystem.names(inFolder: "/books/home/people") { … }
/// ```
enum WatcherFileSystem {
    /// The names of the entries of a folder other than subfolders, `.` and `..`; empty when
    /// the folder is missing or unreadable.
    static func names(inFolder path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            if entry.pointee.d_type == UInt8(DT_DIR) { continue }
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: pointer.pointee)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The status of a regular file, or `nil` when there is no regular file at `path`.
    static func status(ofFile path: String) -> WatcherFileStatus? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return WatcherFileStatus(info)
    }

    /// Whether anything exists at `path`.
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Whether `path` is a folder.
    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// The bytes of a regular file and its status as of the read, or `nil` when there is no
    /// readable regular file at `path` (a file that vanishes while being read counts as gone).
    static func contents(ofFile path: String) -> (status: WatcherFileStatus, bytes: Data)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes = Data(count: max(Int(info.st_size), 0))
        var length = 0
        while true {
            if length == bytes.count { bytes.count += max(4096, bytes.count / 2) }
            let count = bytes.count
            let result = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return read(descriptor, base + length, count - length)
            }
            if result > 0 {
                length += result
            } else if result == 0 {
                break
            } else if errno != EINTR {
                return nil
            }
        }
        bytes.count = length
        // A write between fstat and the last read moves the times; take the status after it.
        guard fstat(descriptor, &info) == 0 else { return nil }
        return (WatcherFileStatus(info), bytes)
    }
}
