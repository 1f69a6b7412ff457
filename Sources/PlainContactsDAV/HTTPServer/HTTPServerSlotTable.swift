/// The connections that hold a server's slots, what each is doing, and which to drop when a
/// new connection finds every slot taken: the decisions of ``HTTPServerSlots``, without a lock
/// or a socket, so that they can be tested alone.
///
/// A connection holds its slot from its admission until its thread has ended. Only one waiting
/// for a request can be dropped, in this order: those that never sent a request, oldest first
/// (a client that connects and says nothing gets no slot at another's expense); then those idle
/// between requests, from the client holding the most slots, oldest first (so that one
/// address, or one client a trusted proxy names, cannot keep more than its share idle).
///
/// ```swift
/// var table = HTTPServerSlotTable(maxConnections: 64, maxConnectionsPerAddress: 16)
/// if case .admitted(let id) = table.admit(peerAddress: "127.0.0.1", isCountedPerAddress: false, descriptor: 7, at: .now) {
///     table.dropOrder.first?.id == id   // true: it has sent no request yet
/// }
/// ```
struct HTTPServerSlotTable: Sendable {
    /// What a connection is doing, as far as dropping it goes.
    enum State: Sendable, Hashable {
        /// Accepted, and no byte of a request taken yet; dropped before any other.
        case awaitingFirstRequest
        /// Reading a request, in the handler, writing a response, or closing: never dropped.
        case busy
        /// Answered its last request and waiting for the next; dropped after those awaiting
        /// their first.
        case idle
        /// Dropped for a new connection; holds its slot until its thread has ended.
        case dropped
    }

    /// One connection holding a slot.
    struct Entry: Sendable, Hashable {
        /// Names the connection for as long as it holds its slot.
        let id: Int
        /// The address the connection came from.
        let peerAddress: String
        /// Whether the connection counts towards ``maxConnectionsPerAddress`` of its address.
        let isCountedPerAddress: Bool
        /// The connection's socket, to shut down when it is dropped.
        let descriptor: Int32
        /// Who the connection is held for: the client a trusted proxy named in its last
        /// request, else its peer address.
        var holder: String
        /// What the connection is doing.
        var state: State
        /// When the connection entered its state: accepted, or gone idle.
        var since: ContinuousClock.Instant
    }

    /// What ``admit(peerAddress:isCountedPerAddress:descriptor:at:)`` decided.
    enum Admission: Sendable, Hashable {
        /// The connection holds a slot, under this identifier.
        case admitted(Int)
        /// Its address holds ``maxConnectionsPerAddress`` slots already.
        case addressFull
        /// Every slot is held; drop a connection of ``dropOrder`` and try again once it ended.
        case full
    }

    /// The most connections holding slots, dropped ones included (each has a thread).
    let maxConnections: Int
    /// The most connections one counted address may hold.
    let maxConnectionsPerAddress: Int
    /// The connections holding slots, in the order they were admitted.
    private(set) var entries: [Entry] = []
    /// The identifier the next connection admitted gets.
    private var nextID = 1

    /// An empty table.
    init(maxConnections: Int, maxConnectionsPerAddress: Int) {
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
    }

    /// Gives a new connection a slot, awaiting its first request, unless its address, or the
    /// server, holds all it may.
    mutating func admit(
        peerAddress: String, isCountedPerAddress: Bool, descriptor: Int32, at now: ContinuousClock.Instant
    ) -> Admission {
        if isCountedPerAddress,
            entries.count(where: { $0.isCountedPerAddress && $0.peerAddress == peerAddress }) >= maxConnectionsPerAddress
        {
            return .addressFull
        }
        guard entries.count < maxConnections else { return .full }
        let id = nextID
        nextID += 1
        entries.append(
            Entry(
                id: id, peerAddress: peerAddress, isCountedPerAddress: isCountedPerAddress, descriptor: descriptor,
                holder: peerAddress, state: .awaitingFirstRequest, since: now))
        return .admitted(id)
    }

    /// The connections that may be dropped, first to drop first: those that never sent a
    /// request, oldest first; then those idle between requests, from the holder with the most
    /// connections (dropped ones aside), oldest first.
    var dropOrder: [Entry] {
        let awaiting = entries.filter { $0.state == .awaitingFirstRequest }.sorted { $0.since < $1.since }
        var held: [String: Int] = [:]
        for entry in entries where entry.state != .dropped {
            held[entry.holder, default: 0] += 1
        }
        let idle = entries.filter { $0.state == .idle }.sorted { first, second in
            let (firstHeld, secondHeld) = (held[first.holder, default: 0], held[second.holder, default: 0])
            return firstHeld != secondHeld ? firstHeld > secondHeld : first.since < second.since
        }
        return awaiting + idle
    }

    /// The connection `id`, if it holds a slot.
    func entry(_ id: Int) -> Entry? {
        entries.first { $0.id == id }
    }

    /// Marks a connection waiting for a request as dropped; returns it as it was, or `nil`
    /// (changing nothing) when it is not waiting.
    mutating func drop(_ id: Int) -> Entry? {
        guard let index = entries.firstIndex(where: { $0.id == id }),
            [.awaitingFirstRequest, .idle].contains(entries[index].state)
        else { return nil }
        let entry = entries[index]
        entries[index].state = .dropped
        return entry
    }

    /// Marks a connection as busy before it takes bytes or closes; returns `false` when it
    /// was dropped (it must then close without reading).
    mutating func leaveIdle(_ id: Int) -> Bool {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return false }
        guard entries[index].state != .dropped else { return false }
        entries[index].state = .busy
        return true
    }

    /// Marks a connection as idle between requests, held for `holder`; a dropped one stays
    /// dropped.
    mutating func enterIdle(_ id: Int, holder: String, at now: ContinuousClock.Instant) {
        guard let index = entries.firstIndex(where: { $0.id == id }), entries[index].state != .dropped else { return }
        entries[index].holder = holder
        entries[index].state = .idle
        entries[index].since = now
    }

    /// Frees a connection's slot once its thread has ended.
    mutating func remove(_ id: Int) {
        entries.removeAll { $0.id == id }
    }
}
