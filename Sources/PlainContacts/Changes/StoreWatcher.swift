import Dispatch
import FoundationEssentials

/// Watches a store's folder for changes made by other programs (another process's save, a
/// `git checkout` or `git pull`, an editor) and reports them, coalesced, as ``StoreChange``s.
///
/// It is the engine behind `AddressBook`'s external-change callback; the AddressBook
/// equivalent is `ABAddressBookRegisterExternalChangeCallback`.
///
/// The watcher reads the store once when created, remembering for each file its record ID and
/// a fingerprint of its bytes (`fnv1a64`). When files are touched it re-reads only those files
/// and reports the records whose bytes changed: a person's file or image, a group's file or
/// membership file, or `store.json`. Files in `.contacts/` are never reported. Changes are
/// found with inotify on the root, `people/` and `groups/` (a full re-scan follows a queue
/// overflow or a replaced folder), or, when inotify is not available or `forcePolling` is set,
/// by listing the folders and comparing each file's size, modification time and inode every
/// `pollInterval` (then an in-place rewrite of the same size within the file system's time
/// resolution can go unnoticed).
///
/// Events are coalesced: after the first, the watcher waits until the folder has been quiet for
/// `coalescing`, and while `.contacts/journal` shows a save committing, but at most 2 seconds
/// (or four times `coalescing`, if longer) after the first event, then delivers one
/// ``StoreChange`` by `queue.async`. Nothing is delivered when nothing changed. Use a serial
/// queue so that deliveries arrive in order.
///
/// ```swift
/// let watcher = try StoreWatcher(storeURL: storeURL, queue: .main) { change in
///     print("\(change.changedPeople.count) people changed elsewhere")
/// }
/// // Before this process replaces people/ann-2x9kqp.json with `bytes` itself:
/// watcher.ignore(path: "people/ann-2x9kqp.json", fingerprint: fnv1a64(bytes))
/// // … and before it deletes people/bob-k2m9xq.json:
/// watcher.ignore(path: "people/bob-k2m9xq.json", fingerprint: 0)
/// watcher.stop()
/// ```
///
/// Releasing the watcher stops it. The handler must not hold the watcher strongly, or the two
/// keep each other alive.
final class StoreWatcher: Sendable {
    private let core: WatcherCore

    /// Reads the store at `storeURL` and starts watching it.
    ///
    /// - Parameters:
    ///   - storeURL: The store's folder.
    ///   - queue: Where `handler` runs; a serial queue keeps deliveries in order.
    ///   - coalescing: How long the folder must be quiet before a change is delivered.
    ///   - pollInterval: How often the folder is listed when polling.
    ///   - forcePolling: Polls even when inotify is available.
    ///   - patience: The longest a change is held back after its first event (at least four
    ///     times `coalescing`), even while a commit's journal is present.
    ///   - handler: Receives each non-empty change.
    /// - Throws: ``ContactsError`` `.notAStore` when `storeURL` is not a folder, `.io` when the
    ///   watcher's thread cannot be given its wake-up descriptor.
    init(
        storeURL: URL,
        queue: DispatchQueue,
        coalescing: Duration = .milliseconds(150),
        pollInterval: Duration = .milliseconds(500),
        forcePolling: Bool = false,
        patience: Duration = .seconds(2),
        handler: @escaping @Sendable (StoreChange) -> Void
    ) throws {
        var rootPath = storeURL.standardizedFileURL.path(percentEncoded: false)
        while rootPath.count > 1 && rootPath.hasSuffix("/") { rootPath.removeLast() }
        core = try WatcherCore(
            rootPath: rootPath, queue: queue, coalescing: coalescing, pollInterval: pollInterval,
            forcePolling: forcePolling, patience: patience, handler: handler)
    }

    deinit {
        core.stop()
    }

    /// Whether the watcher started out polling (inotify unavailable, or `forcePolling`).
    var isPolling: Bool { core.startedPolling }

    /// Stops watching: ends the watcher's thread and closes its descriptors. Calling it again
    /// does nothing.
    ///
    /// Once it returns, no handler call starts; a handler call that had already begun on the
    /// queue (for example the one that calls `stop()`) runs to its end.
    func stop() {
        core.stop()
    }

    /// Tells the watcher that this process itself is writing `relativePath` (relative to the
    /// store's folder, as `people/<key>.json`) with bytes whose `fnv1a64` is `fingerprint`, or
    /// deleting it when `fingerprint` is 0, so that the change is not reported.
    ///
    /// Call it before the write, or at least before the watcher re-reads the file. The first
    /// re-read that finds exactly those bytes (or no file, for 0) uses the entry up; a later,
    /// different write is reported as usual. An entry that never matches expires after two
    /// minutes.
    func ignore(path relativePath: String, fingerprint: UInt64) {
        core.ignore(path: relativePath, fingerprint: fingerprint)
    }
}
