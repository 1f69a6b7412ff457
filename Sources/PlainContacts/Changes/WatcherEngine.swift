import Glibc

/// The state of a store watcher's thread: where events come from (inotify or polling), which
/// files were touched since the last delivery, and when to deliver.
///
/// Events are coalesced: after the first one the engine waits for `coalescing` of quiet, and
/// longer while `.contacts/journal` shows that a save is committing, but never longer than
/// ``patience`` after the first event, before it re-reads the touched files.
///
/// ```swift
/// var engine = WatcherEngine(rootPath: root, coalescing: .milliseconds(150),
///                            pollInterval: .milliseconds(500), forcePolling: false,
///                            patience: .seconds(2), now: .now)
/// engine.readInotifyEvents(at: .now)
/// let change = engine.changeIfDue(at: .now) { _, _ in false }
/// ```
struct WatcherEngine: Sendable {
    /// The longest wait from an event to its delivery, however busy the folder stays.
    let patience: Duration
    private let coalescing: Duration
    private let pollInterval: Duration
    private let journalPath: String

    private var snapshot: WatcherSnapshot
    private var inotify: WatcherInotify?
    private var seenStatuses: [String: WatcherFileStatus] = [:]
    private var nextPoll: ContinuousClock.Instant?

    private var pending: Set<String> = []
    private var fullRescanPending = false
    private var firstEvent: ContinuousClock.Instant?
    private var deliverAt: ContinuousClock.Instant?

    /// Starts watching with inotify (polling when `forcePolling` is set or inotify is not
    /// available), then reads the store to know what "changed" will mean.
    init(
        rootPath: String, coalescing: Duration, pollInterval: Duration, forcePolling: Bool,
        patience: Duration, now: ContinuousClock.Instant
    ) {
        self.coalescing = max(coalescing, .zero)
        self.pollInterval = max(pollInterval, .milliseconds(1))
        self.patience = max(patience, coalescing * 4)
        journalPath = rootPath + "/" + WatcherPath.journalPath
        snapshot = WatcherSnapshot(rootPath: rootPath)
        if !forcePolling, var inotify = WatcherInotify(rootPath: rootPath) {
            // Watches go first, so that nothing written during the scan is missed.
            inotify.watchFolders()
            if inotify.watchesRoot {
                self.inotify = inotify
            } else {
                inotify.close()
            }
        }
        snapshot.scanAll()
        if inotify == nil {
            seenStatuses = snapshot.statuses
            nextPoll = now.advanced(by: self.pollInterval)
        }
    }

    /// Whether changes are found by polling rather than inotify.
    var isPolling: Bool { inotify == nil }

    /// The inotify descriptor to wait on, if inotify is in use.
    var inotifyDescriptor: Int32? { inotify?.descriptor }

    /// How long `poll(2)` may sleep, in milliseconds, before the engine has work; -1 for
    /// "until a descriptor is readable".
    func pollTimeout(at now: ContinuousClock.Instant) -> Int32 {
        let wake = [nextPoll, deliverAt].compactMap { $0 }.min()
        guard let wake else { return -1 }
        guard wake > now else { return 0 }
        let wait = now.duration(to: wake)
        let (seconds, attoseconds) = wait.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }

    /// Reads the queued inotify events and notes the files they touch. When the inotify
    /// instance fails, falls back to polling.
    mutating func readInotifyEvents(at now: ContinuousClock.Instant) {
        guard var inotify else { return }
        let events = inotify.readEvents()
        self.inotify = inotify
        guard let events else {
            fallBackToPolling(at: now)
            return
        }
        for event in events {
            if event.has(IN_Q_OVERFLOW) {
                noteFullRescan(at: now)
                continue
            }
            guard let folder = event.folder else { continue }
            if event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF) {
                noteFullRescan(at: now)
            } else if event.has(IN_ISDIR) {
                let isStoreFolder = event.name == WatcherPath.Folder.people.relativePath
                    || event.name == WatcherPath.Folder.groups.relativePath
                if folder == .root && isStoreFolder { noteFullRescan(at: now) }
            } else if !event.has(IN_IGNORED), WatcherPath(folder: folder, name: event.name) != nil {
                let path = folder == .root ? event.name : folder.relativePath + "/" + event.name
                note(path, at: now)
            }
        }
    }

    /// When polling and the interval has passed, compares every file's status with the last
    /// poll and notes the files that differ.
    mutating func pollIfDue(at now: ContinuousClock.Instant) {
        guard inotify == nil, let nextPoll, now >= nextPoll else { return }
        pollNow(at: now)
    }

    /// When the touched files have been quiet long enough (and no save is committing), re-reads
    /// them and returns what changed; `nil` while still waiting or when nothing was touched.
    mutating func changeIfDue(
        at now: ContinuousClock.Instant, isOwnWrite: (String, UInt64) -> Bool
    ) -> StoreChange? {
        guard let deliverAt, now >= deliverAt, let firstEvent else { return nil }
        let deadline = firstEvent.advanced(by: patience)
        if inotify == nil {
            // Catch writes made since the last poll; any extends the quiet period.
            pollNow(at: now)
            if let due = self.deliverAt, due > now { return nil }
        }
        if now < deadline && WatcherFileSystem.exists(journalPath) {
            let recheck = min(max(coalescing, .milliseconds(10)), .milliseconds(50))
            self.deliverAt = min(now.advanced(by: recheck), deadline)
            return nil
        }
        let paths = pending
        let fullRescan = fullRescanPending
        pending = []
        fullRescanPending = false
        self.firstEvent = nil
        self.deliverAt = nil
        guard fullRescan else {
            return snapshot.update(paths: paths, isOwnWrite: isOwnWrite)
        }
        inotify?.watchFolders()
        let change = snapshot.updateAll(isOwnWrite: isOwnWrite)
        if let inotify, !inotify.watchesRoot {
            // The root itself went away: only polling will notice it coming back.
            inotify.close()
            self.inotify = nil
            seenStatuses = snapshot.statuses
            nextPoll = now.advanced(by: pollInterval)
        }
        return change
    }

    /// Releases the inotify descriptor; call once, when the thread has ended.
    mutating func close() {
        inotify?.close()
        inotify = nil
    }

    private mutating func pollNow(at now: ContinuousClock.Instant) {
        let current = snapshot.listedStatuses()
        for (path, status) in current where seenStatuses[path] != status {
            note(path, at: now)
        }
        for path in seenStatuses.keys where current[path] == nil {
            note(path, at: now)
        }
        seenStatuses = current
        nextPoll = now.advanced(by: pollInterval)
    }

    private mutating func fallBackToPolling(at now: ContinuousClock.Instant) {
        inotify?.close()
        inotify = nil
        seenStatuses = snapshot.statuses
        nextPoll = now.advanced(by: pollInterval)
        noteFullRescan(at: now)
    }

    private mutating func noteFullRescan(at now: ContinuousClock.Instant) {
        fullRescanPending = true
        noteEvent(at: now)
    }

    private mutating func note(_ path: String, at now: ContinuousClock.Instant) {
        pending.insert(path)
        noteEvent(at: now)
    }

    private mutating func noteEvent(at now: ContinuousClock.Instant) {
        let first = firstEvent ?? now
        firstEvent = first
        deliverAt = min(now.advanced(by: coalescing), first.advanced(by: patience))
    }
}
