import Glibc

/// An inotify instance watching the three folders of a store: its root (for `store.json` and
/// for `people/` or `groups/` being created or replaced), `people/` and `groups/`.
///
/// ```swift
/// guard var inotify = WatcherInotify(rootPath: "/books/home") else { /* poll instead */ }
/// inotify.watchFolders()
/// for event in inotify.readEvents() { … }
/// ```
struct WatcherInotify: Sendable {
    /// One event, with the folder it happened in.
    struct Event: Sendable {
        /// The folder; `nil` for an event on a watch the instance no longer knows, and for
        /// `IN_Q_OVERFLOW`.
        var folder: WatcherPath.Folder?
        var mask: UInt32
        /// The name of the file inside the folder; empty for events on the folder itself.
        var name: String

        func has(_ flag: Int32) -> Bool { mask & UInt32(flag) != 0 }
    }

    static let mask = UInt32(
        IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE | IN_MODIFY
            | IN_DELETE_SELF | IN_MOVE_SELF | IN_Q_OVERFLOW | IN_ONLYDIR)

    /// The descriptor to poll for reading.
    let descriptor: Int32
    private let rootPath: String
    private var folders: [Int32: WatcherPath.Folder] = [:]

    /// Opens an inotify instance, or returns `nil` when the system has none to give (then
    /// the watcher polls).
    init?(rootPath: String) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        self.rootPath = rootPath
    }

    /// Whether the root folder is watched; without that, nothing would notice a change.
    var watchesRoot: Bool { folders.values.contains(.root) }

    /// Watches the root, `people/` and `groups/` as they are now: a folder that was replaced
    /// gets a watch on its new inode and loses the old one; a missing folder is skipped (the
    /// root's watch reports its creation).
    mutating func watchFolders() {
        for folder in WatcherPath.Folder.allCases {
            let path = folder == .root ? rootPath : rootPath + "/" + folder.relativePath
            let watch = inotify_add_watch(descriptor, path, WatcherInotify.mask)
            for (old, oldFolder) in folders where oldFolder == folder && old != watch {
                inotify_rm_watch(descriptor, old)
                folders[old] = nil
            }
            if watch >= 0 { folders[watch] = folder }
        }
    }

    /// Reads every queued event without blocking. Returns `nil` when reading fails for a
    /// reason other than an empty queue, which leaves the instance unusable.
    mutating func readEvents() -> [Event]? {
        var events: [Event] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes -> Int in
                guard let base = bytes.baseAddress else { return 0 }
                return read(descriptor, base, bytes.count)
            }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return events }
                return nil
            }
            if count == 0 { return events }
            buffer.withUnsafeBytes { bytes in
                parse(UnsafeRawBufferPointer(rebasing: bytes[..<count]), into: &events)
            }
        }
    }

    private mutating func parse(_ bytes: UnsafeRawBufferPointer, into events: inout [Event]) {
        let headerSize = 16
        var offset = 0
        while offset + headerSize <= bytes.count {
            let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let nameLength = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            let nameStart = offset + headerSize
            let nameEnd = min(nameStart + nameLength, bytes.count)
            var nameBytes = bytes[nameStart..<nameEnd]
            if let terminator = nameBytes.firstIndex(of: 0) { nameBytes = nameBytes[..<terminator] }
            let name = String(decoding: nameBytes, as: UTF8.self)
            events.append(Event(folder: folders[watch], mask: mask, name: name))
            if mask & UInt32(IN_IGNORED) != 0 { folders[watch] = nil }
            offset = nameStart + nameLength
        }
    }

    /// Closes the instance; call once, after no thread polls it any more.
    func close() {
        _ = Glibc.close(descriptor)
    }
}
