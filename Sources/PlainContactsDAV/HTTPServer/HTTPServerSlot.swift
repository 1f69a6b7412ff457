/// One connection's hold on a slot of its server's ``HTTPServerSlots``: how its thread says it
/// waits for a request or has left off waiting, and learns that it was dropped for a new
/// connection.
///
/// ```swift
/// slot.enterIdle(holder: "127.0.0.1")           // answered; waiting for the next request
/// let readiness = socket.waitUntilReadable(deadline: deadline, stopDescriptor: nil)
/// guard slot.leaveIdle() else { socket.close(); return }   // dropped: close unread
/// ```
struct HTTPServerSlot: Sendable {
    /// Names the connection in the slots' table.
    let id: Int
    /// The slots it holds one of.
    let slots: HTTPServerSlots

    /// Says the connection stops waiting, before it takes a byte or closes its socket;
    /// returns `false` when it was dropped, and must close without reading.
    func leaveIdle() -> Bool {
        slots.leaveIdle(id)
    }

    /// Says the connection waits for its next request, having answered one for `holder`
    /// (the client a trusted proxy named, else the peer address); it may be dropped from now
    /// until ``leaveIdle()``.
    func enterIdle(holder: String) {
        slots.enterIdle(id, holder: holder)
    }

    /// Frees the slot, once the connection's socket is closed and its thread done with it.
    func release() {
        slots.release(id)
    }
}
