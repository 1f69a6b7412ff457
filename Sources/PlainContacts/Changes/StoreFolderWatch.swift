import Glibc

/// Which records' files changed since it was last asked, for a program that keeps its own
/// picture of a store (the CardDAV server) and must not look at every file before each answer.
///
/// It reads the kernel's inotify queue for the store's root, `people/` and `groups/`: a file
/// written, renamed or removed by anyone (another `contacts`, `git pull`, an editor that
/// rewrites a file in place without touching the folder) is queued by the kernel as the change
/// happens, so asking right after the change always sees it. The answer is
/// ``News/everything(_:)`` when the names alone cannot tell: the queue overflowed, `people/` or
/// `groups/` was created, replaced or removed, or the queue could not be read (after which the
/// watch is broken and every answer is `everything` with ``Reason/unreadable``, the one reason
/// that means so).
///
/// ```swift
/// guard let watch = StoreFolderWatch(layout: layout) else { /* look at every file each time */ }
/// lookAtEveryFile()                       // what happened before the watch is not in it
/// switch watch.news() {
/// case .records(let people, let groups): lookAt(people, groups)
/// case .everything(let reason): print("looking at every file: \(reason)"); lookAtEveryFile()
/// }
/// ```
package final class StoreFolderWatch {
    /// What changed since the last question.
    package enum News: Hashable, Sendable {
        /// The people and groups whose files changed (a person's image counts as the person; a
        /// group's membership file as the group). Both empty: nothing changed.
        case records(people: Set<RecordKey>, groups: Set<RecordKey>)
        /// Every file must be looked at, for this reason.
        case everything(Reason)
    }

    /// Why the names of the changed files are not enough.
    package enum Reason: String, Hashable, Sendable {
        /// The kernel's queue overflowed (more changes than `fs.inotify.max_queued_events`).
        case overflowed = "the change queue overflowed"
        /// `people/` or `groups/` was created, replaced, moved or removed.
        case folderReplaced = "a record folder was created, replaced or removed"
        /// The queue could not be read; the watch is broken.
        case unreadable = "the change queue could not be read"
    }

    private var inotify: WatcherInotify?

    /// Starts watching the store's folders; `nil` when the system gives no inotify instance or
    /// cannot watch the store's root.
    package init?(layout: StoreLayout) {
        guard var inotify = WatcherInotify(rootPath: layout.root.path(percentEncoded: false)) else { return nil }
        inotify.watchFolders()
        guard inotify.watchesRoot else {
            inotify.close()
            return nil
        }
        self.inotify = inotify
    }

    deinit {
        inotify?.close()
    }

    /// What changed since the last call (or since the watch started), without waiting.
    package func news() -> News {
        guard var queue = inotify else { return .everything(.unreadable) }
        guard let events = queue.readEvents() else {
            queue.close()
            inotify = nil
            return .everything(.unreadable)
        }
        var people = Set<RecordKey>()
        var groups = Set<RecordKey>()
        var reason: Reason?
        for event in events {
            if event.has(IN_Q_OVERFLOW) {
                reason = reason ?? .overflowed
                continue
            }
            switch event.folder {
            case nil:
                continue
            case .root?:
                if event.name == WatcherPath.Folder.people.relativePath || event.name == WatcherPath.Folder.groups.relativePath {
                    reason = reason ?? .folderReplaced
                }
            case .people?, .groups?:
                if event.name.isEmpty {
                    // The folder itself was moved or removed (its watch then ends).
                    reason = reason ?? .folderReplaced
                    continue
                }
                guard let folder = event.folder, let path = WatcherPath(folder: folder, name: event.name) else { continue }
                switch path {
                case .person(let key), .personSidecar(let key):
                    if let key = RecordKey(rawValue: key) { people.insert(key) }
                case .group(let key), .groupMembers(let key):
                    if let key = RecordKey(rawValue: key) { groups.insert(key) }
                case .manifest:
                    continue
                }
            }
        }
        // A replaced folder gets a watch on its new inode.
        if reason == .folderReplaced { queue.watchFolders() }
        inotify = queue
        return reason.map(News.everything) ?? .records(people: people, groups: groups)
    }
}
