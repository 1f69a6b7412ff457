import Dispatch

/// Holds a server's handler until the test lets it go, and tells the test once the handler has
/// begun: a request kept in progress.
///
/// ```swift
/// let gate = HTTPHandlerGate()
/// let server = try HTTPTestServer { _ in gate.pass(); return .text(200, "done") }
/// // send a request, then:
/// #expect(gate.waitUntilEntered())
/// gate.release()
/// ```
final class HTTPHandlerGate: Sendable {
    /// Signalled when the handler begins.
    private let entered = DispatchSemaphore(value: 0)
    /// Signalled when the test lets the handler go on.
    private let released = DispatchSemaphore(value: 0)

    /// Called by the handler: says it has begun and waits (at most 20 s) to be let go.
    func pass() {
        entered.signal()
        _ = released.wait(timeout: .now() + .seconds(20))
    }

    /// Waits (at most 10 s) until a handler has begun; returns whether one did.
    func waitUntilEntered() -> Bool {
        entered.wait(timeout: .now() + .seconds(10)) == .success
    }

    /// Lets the handler go on.
    func release() {
        released.signal()
    }
}
