import Dispatch
import Synchronization

/// A server's connection slots, shared by the accept thread and every connection's thread: it
/// admits each new connection, dropping an idle one for it when every slot is taken (in
/// ``HTTPServerSlotTable/dropOrder``), and follows each connection in and out of waiting for a
/// request.
///
/// Dropping never races with a connection starting on a request. The accept thread shuts an
/// idle connection's socket down (`shutdown(2)`, which wakes the thread polling it) only under
/// the lock, while the connection is registered as waiting and no byte waits on its socket;
/// and a connection takes the same lock to leave that state before it reads a byte or closes
/// its socket, and closes without reading once it finds itself dropped. So a request is never
/// cut once begun, and a descriptor being shut down is always still the connection's own
/// (never one closed and reused for another connection).
///
/// A dropped connection keeps its slot until its thread has ended, and the accept thread waits
/// for that (it takes microseconds) before it starts the new one: there are never more than
/// ``HTTPServerLimits/maxConnections`` connection threads.
///
/// ```swift
/// switch slots.admit(socket, peerAddress: "127.0.0.1", isCountedPerAddress: false) {
/// case .admitted(let slot, _): serve(socket, slot)   // then slot.release()
/// case .refused(let reason, _): refuse(socket, reason)
/// }
/// ```
final class HTTPServerSlots: Sendable {
    /// How long the accept thread waits for a dropped connection's thread to end and free its
    /// slot: the thread only wakes, closes its socket and returns, in microseconds; 1 s covers
    /// a machine so loaded that it is not scheduled at once, and past it the new connection is
    /// refused with 503 rather than the accept thread keeping every other client waiting.
    static let droppedConnectionEndTimeout = Duration.seconds(1)

    /// A connection dropped for a new one, as its log line tells of it.
    struct Drop: Sendable, Hashable {
        /// Whether it had answered a request (idle between requests) or never sent one.
        var hadSentARequest: Bool
        /// How long it had been waiting.
        var waited: Duration
    }

    /// What ``admit(_:peerAddress:isCountedPerAddress:)`` decided.
    enum Admission: Sendable {
        /// The connection holds a slot; `dropped` is the idle connection dropped for it.
        case admitted(HTTPServerSlot, dropped: Drop?)
        /// The connection gets no slot, for `reason`; `dropped` is an idle connection dropped
        /// for it whose thread did not end in time.
        case refused(reason: String, dropped: Drop?)
    }

    /// The table and whether the accept thread waits for a slot.
    private struct Shared: Sendable {
        /// The connections holding slots.
        var table: HTTPServerSlotTable
        /// Whether the accept thread waits on ``slotFreed`` for a dropped connection to end.
        var isAcceptWaiting = false
    }

    /// The table, under the lock every change takes.
    private let shared: Mutex<Shared>
    /// Signalled when a slot is freed while the accept thread waits for one; a wake-up left
    /// over from a wait that had timed out only makes the next wait look at the table again.
    private let slotFreed = DispatchSemaphore(value: 0)

    /// Slots for `maxConnections` connections, at most `maxConnectionsPerAddress` from one
    /// counted address.
    init(maxConnections: Int, maxConnectionsPerAddress: Int) {
        let table = HTTPServerSlotTable(maxConnections: maxConnections, maxConnectionsPerAddress: maxConnectionsPerAddress)
        shared = Mutex(Shared(table: table))
    }

    /// Gives a new connection a slot. With every slot taken, drops the first connection of
    /// the drop order with no byte waiting on its socket, and waits (at most
    /// ``droppedConnectionEndTimeout``) for its thread to end. Called by the accept thread only.
    func admit(_ socket: HTTPServerSocket, peerAddress: String, isCountedPerAddress: Bool) -> Admission {
        /// What one look at the table decided.
        enum Step: Sendable {
            /// A slot was given, under this identifier.
            case admitted(Int)
            /// No slot, for this reason.
            case refused(String)
            /// A connection was dropped; wait for a slot to be freed.
            case waiting
        }
        let deadline = ContinuousClock.now + Self.droppedConnectionEndTimeout
        var dropped: Drop?
        while true {
            let step = shared.withLock { shared -> Step in
                let now = ContinuousClock.now
                switch shared.table.admit(
                    peerAddress: peerAddress, isCountedPerAddress: isCountedPerAddress, descriptor: socket.descriptor, at: now)
                {
                case .admitted(let id):
                    shared.isAcceptWaiting = false
                    return .admitted(id)
                case .addressFull:
                    return .refused("too many connections from one address")
                case .full where dropped == nil:
                    let victim = shared.table.dropOrder.first { !HTTPServerSocket(descriptor: $0.descriptor).isReadable }
                    guard let victim, shared.table.drop(victim.id) != nil else { return .refused("too many connections") }
                    HTTPServerSocket(descriptor: victim.descriptor).shutDown()
                    dropped = Drop(hadSentARequest: victim.state == .idle, waited: victim.since.duration(to: now))
                    shared.isAcceptWaiting = true
                    return .waiting
                case .full:
                    shared.isAcceptWaiting = true
                    return .waiting
                }
            }
            switch step {
            case .admitted(let id):
                return .admitted(HTTPServerSlot(id: id, slots: self), dropped: dropped)
            case .refused(let reason):
                return .refused(reason: reason, dropped: dropped)
            case .waiting:
                guard waitForFreedSlot(until: deadline) else {
                    shared.withLock { $0.isAcceptWaiting = false }
                    return .refused(reason: "too many connections", dropped: dropped)
                }
            }
        }
    }

    /// Registers a connection as busy before it takes bytes or closes its socket; `false`
    /// when it was dropped, and must close without reading.
    func leaveIdle(_ id: Int) -> Bool {
        shared.withLock { $0.table.leaveIdle(id) }
    }

    /// Registers a connection as idle between requests, held for `holder`.
    func enterIdle(_ id: Int, holder: String) {
        shared.withLock { $0.table.enterIdle(id, holder: holder, at: .now) }
    }

    /// Frees a connection's slot once its thread is done with it, waking the accept thread
    /// if it waits for one.
    func release(_ id: Int) {
        let wakesAccept = shared.withLock { shared in
            shared.table.remove(id)
            defer { shared.isAcceptWaiting = false }
            return shared.isAcceptWaiting
        }
        if wakesAccept { slotFreed.signal() }
    }

    /// How many connections hold a slot in `state`: what a test waits on before it opens one
    /// more.
    func connectionCount(in state: HTTPServerSlotTable.State) -> Int {
        shared.withLock { shared in shared.table.entries.count { $0.state == state } }
    }

    /// Waits until a slot is freed or the deadline passes; returns whether one was.
    private func waitForFreedSlot(until deadline: ContinuousClock.Instant) -> Bool {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return false }
        let (seconds, attoseconds) = remaining.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        return slotFreed.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
    }
}
