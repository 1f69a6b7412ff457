import Dispatch
import Foundation
import Glibc
import Synchronization

/// The part of a ``StoreWatcher`` that its thread holds: the engine, the files this process
/// said it wrote, and the way out (`stop()`).
///
/// The thread keeps this object, not the ``StoreWatcher``, alive, so that releasing the
/// watcher stops it.
final class WatcherCore: Sendable {
    private let queue: DispatchQueue
    private let handler: @Sendable (StoreChange) -> Void
    private let wakeup: WatcherWakeup
    /// Only the watcher's thread locks it after `init`, and `stop()` once the thread has ended.
    private let engine: Mutex<WatcherEngine>
    private let ownWrites = Mutex(WatcherIgnoreList())
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    /// Whether the watcher started out polling.
    let startedPolling: Bool

    /// Reads the store, then starts the thread.
    ///
    /// - Throws: ``ContactsError`` `.notAStore` when `rootPath` is not a folder, `.io` when the
    ///   thread's wake-up descriptor cannot be created.
    init(
        rootPath: String, queue: DispatchQueue, coalescing: Duration, pollInterval: Duration,
        forcePolling: Bool, patience: Duration, handler: @escaping @Sendable (StoreChange) -> Void
    ) throws(ContactsError) {
        guard WatcherFileSystem.isFolder(rootPath) else {
            throw ContactsError(.notAStore, "The store folder to watch does not exist.", path: rootPath)
        }
        self.queue = queue
        self.handler = handler
        wakeup = try WatcherWakeup()
        let engine = WatcherEngine(
            rootPath: rootPath, coalescing: coalescing, pollInterval: pollInterval,
            forcePolling: forcePolling, patience: patience, now: .now)
        startedPolling = engine.isPolling
        self.engine = Mutex(engine)
        let thread = Thread { [self] in run() }
        thread.name = "PlainContacts.StoreWatcher"
        thread.start()
    }

    /// Whether `stop()` has been called.
    var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Ends the thread, closes the descriptors and keeps further deliveries from reaching the
    /// handler; only the first call does anything.
    func stop() {
        guard stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        wakeup.signal()
        finished.wait()
        engine.withLock { $0.close() }
        wakeup.close()
    }

    /// Expects the file at `relativePath` to get the bytes of `fingerprint` (0: to disappear)
    /// from this process.
    func ignore(path relativePath: String, fingerprint: UInt64) {
        var path = Substring(relativePath)
        while path.hasPrefix("./") { path = path.dropFirst(2) }
        let normalized = String(path)
        ownWrites.withLock { $0.add(path: normalized, fingerprint: fingerprint, at: .now) }
    }

    private func run() {
        while !isStopped {
            let (inotifyDescriptor, timeout) = engine.withLock { engine in
                (engine.inotifyDescriptor, engine.pollTimeout(at: .now))
            }
            var descriptors = [pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)]
            if let inotifyDescriptor {
                descriptors.append(pollfd(fd: inotifyDescriptor, events: Int16(POLLIN), revents: 0))
            }
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if isStopped { break }
            if ready < 0 && errno != EINTR {
                // Should not happen with valid descriptors; avoid spinning if it does.
                usleep(10_000)
            }
            if descriptors[0].revents != 0 { wakeup.drain() }
            let inotifyReady = descriptors.count > 1 && descriptors[1].revents != 0
            let change = engine.withLock { engine -> StoreChange? in
                let now = ContinuousClock.now
                if inotifyReady { engine.readInotifyEvents(at: now) }
                engine.pollIfDue(at: now)
                return engine.changeIfDue(at: now) { path, fingerprint in
                    ownWrites.withLock { $0.consume(path: path, fingerprint: fingerprint, at: now) }
                }
            }
            if let change, !change.isEmpty { deliver(change) }
        }
        finished.signal()
    }

    private func deliver(_ change: StoreChange) {
        queue.async { [self] in
            guard !isStopped else { return }
            handler(change)
        }
    }
}
