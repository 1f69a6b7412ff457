import Glibc
import PlainContactsSystem

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
    var descriptor: Int32 { queue.descriptor }
    private let queue: InotifyQueue
    private let rootPath: String
    private var folders: [Int32: WatcherPath.Folder] = [:]

    /// Opens an inotify instance, or returns `nil` when the system has none to give (then
    /// the watcher polls).
    init?(rootPath: String) {
        guard let queue = InotifyQueue() else { return nil }
        self.queue = queue
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
            let watch = queue.add(path, mask: WatcherInotify.mask)
            for (old, oldFolder) in folders where oldFolder == folder && old != watch {
                queue.remove(old)
                folders[old] = nil
            }
            if let watch { folders[watch] = folder }
        }
    }

    /// Reads every queued event without blocking. Returns `nil` when reading fails for a
    /// reason other than an empty queue, which leaves the instance unusable.
    mutating func readEvents() -> [Event]? {
        guard let queued = queue.readEvents() else { return nil }
        return queued.map { event in
            let folder = folders[event.watch]
            if event.has(IN_IGNORED) { folders[event.watch] = nil }
            return Event(folder: folder, mask: event.mask, name: event.name)
        }
    }

    /// Closes the instance; call once, after no thread polls it any more.
    func close() {
        queue.close()
    }
}
