import Dispatch
import FoundationEssentials
import Synchronization

/// The callbacks registered on one address book, and the watcher that feeds them.
final class ExternalChangeCenter: Sendable {
    private struct Registration {
        var id: UInt64
        var queue: DispatchQueue
        var callback: @Sendable (StoreChange) -> Void
    }

    private let registrations = Mutex<[Registration]>([])
    private let nextID = Atomic<UInt64>(1)
    private let watcher = Mutex<StoreWatcher?>(nil)

    init() {}

    /// Adds a callback, starting the watcher with the first one.
    func register(storeURL: URL, queue: DispatchQueue, callback: @escaping @Sendable (StoreChange) -> Void) throws -> UInt64 {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        try watcher.withLock { watcher in
            if watcher == nil {
                let delivery = DispatchQueue(label: "PlainContacts.external-changes")
                watcher = try StoreWatcher(storeURL: storeURL, queue: delivery) { [weak self] change in
                    self?.deliver(change)
                }
            }
        }
        registrations.withLock { $0.append(Registration(id: id, queue: queue, callback: callback)) }
        return id
    }

    /// Removes a callback; the watcher stops with the last one.
    func unregister(_ id: UInt64) {
        let remaining = registrations.withLock { list in
            list.removeAll { $0.id == id }
            return list.count
        }
        if remaining == 0 { stop() }
    }

    /// Tells the watcher that this book itself is about to write or delete these files.
    func ignore(_ changes: [FileChange]) {
        watcher.withLock { watcher in
            guard let watcher else { return }
            for change in changes {
                switch change.kind {
                case .write(let data): watcher.ignore(path: change.path, fingerprint: fnv1a64(data))
                case .delete: watcher.ignore(path: change.path, fingerprint: 0)
                }
            }
        }
    }

    func stop() {
        let stopped = watcher.withLock { watcher in
            defer { watcher = nil }
            return watcher
        }
        stopped?.stop()
    }

    private func deliver(_ change: StoreChange) {
        for registration in registrations.withLock({ $0 }) {
            let callback = registration.callback
            registration.queue.async { callback(change) }
        }
    }
}
