import Synchronization
@testable import PlainContacts
@testable import PlainContactsDAV

/// A handler for server tests that answers 200 with `METHOD target body` and counts the
/// requests it was given.
///
/// ```swift
/// let handler = CountingEchoHandler()
/// let server = try HTTPTestServer(limits: .small, handler: handler.echo)
/// #expect(handler.count == 0)
/// ```
final class CountingEchoHandler: Sendable {
    /// The requests handled so far.
    private let calls = Atomic<Int>(0)

    /// Creates a handler that has seen no request.
    init() {}

    /// How many requests the handler was given.
    var count: Int { calls.load(ordering: .relaxed) }

    /// The handler to give the server.
    var echo: @Sendable (HTTPServerRequest) -> HTTPServerResponse {
        { [self] request in
            calls.add(1, ordering: .relaxed)
            return .text(200, "\(request.method) \(request.target) \(String(decoding: request.body, as: UTF8.self))")
        }
    }
}
