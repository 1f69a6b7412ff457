import Glibc
import Synchronization
@testable import PlainContacts
@testable import PlainContactsDAV

/// A server on an ephemeral loopback port for one test, with its log lines kept for checking.
///
/// ```swift
/// let server = try HTTPTestServer(limits: .small) { _ in .text(200, "ok") }
/// defer { server.stop() }
/// let client = try HTTPTestClient(port: server.port)
/// ```
final class HTTPTestServer: Sendable {
    /// The server under test.
    let server: HTTPServer
    /// The lines the server logged, in order.
    private let lines = LoggedLines()

    /// Starts a server with the given limits, trusted proxies and handler.
    init(
        host: String = "127.0.0.1", limits: HTTPServerLimits = HTTPServerLimits(),
        trustedProxies: TrustedProxies = TrustedProxies(),
        handler: @escaping @Sendable (HTTPServerRequest) -> HTTPServerResponse
    ) throws {
        let lines = lines
        server = HTTPServer(
            host: host, port: 0, limits: limits, trustedProxies: trustedProxies, log: { lines.append($0) }, handler: handler)
        try server.start()
    }

    /// The port the server listens on.
    var port: UInt16 { server.port }

    /// The lines logged so far.
    var logLines: [String] { lines.all }

    /// Waits (at most 10 s) until a logged line satisfies `predicate`; returns whether one did.
    func waitForLogLine(where predicate: (String) -> Bool) -> Bool {
        waitUntil { logLines.contains(where: predicate) }
    }

    /// Waits (at most 10 s) until `condition` holds; returns whether it did.
    func waitUntil(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            usleep(1000)
        }
        return condition()
    }

    /// Waits (at most 10 s) until `count` connections wait idle between requests, so that the
    /// next connection finds them droppable; returns whether they did.
    func waitForIdleConnections(_ count: Int) -> Bool {
        waitUntil { server.slots.connectionCount(in: .idle) == count }
    }

    /// Stops the server and waits for it; returns whether it stopped in time.
    @discardableResult
    func stop(timeout: Duration = .seconds(10)) -> Bool {
        server.stop()
        return server.waitUntilStopped(timeout: timeout)
    }
}

/// The lines a server logged, shared between its threads and the test.
private final class LoggedLines: Sendable {
    /// The lines so far, in order.
    private let lines = Mutex<[String]>([])

    /// Keeps a line.
    func append(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    /// The lines so far.
    var all: [String] { lines.withLock { $0 } }
}

extension HTTPServerLimits {
    /// Limits small enough for a test to pass with a few bytes, and timeouts long enough that
    /// a test slowed down by a busy machine does not meet them.
    static var small: HTTPServerLimits {
        var limits = HTTPServerLimits()
        limits.maxRequestLineLength = 64
        limits.maxHeaderBlockSize = 256
        limits.maxHeaderCount = 8
        limits.maxBodySize = 64
        limits.maxConnections = 4
        limits.idleTimeout = .seconds(10)
        limits.requestReadTimeout = .seconds(10)
        limits.writeTimeout = .seconds(10)
        limits.closeLingerTimeout = .milliseconds(100)
        return limits
    }
}
