import Dispatch
import Synchronization
import PlainContacts

/// A small HTTP/1.1 server on the platform's sockets: it parses requests, calls a handler,
/// writes responses, and knows nothing of what it serves.
///
/// Each connection is served on its own thread, one request at a time, so a handler may block
/// (on file I/O, on a lock) without holding up other clients; the handler is called from many
/// threads at once. Up to ``HTTPServerLimits/maxConnections`` connections are served; when
/// every slot is taken, a connection waiting for a request is dropped for the new one (see
/// ``HTTPServerSlots``), and only when none is waiting is the new one answered with 503 and
/// closed. ``stop()`` shuts down gracefully.
///
/// ```swift
/// let server = HTTPServer(host: "127.0.0.1", port: 8080, log: { print($0) }) { request in
///     .text(200, "hello\n")
/// }
/// try server.start()
/// print("listening on port \(server.port)")
/// let watch = try HTTPServerSignalWatch(server: server)   // SIGINT, SIGTERM: stop gracefully
/// server.waitUntilStopped()
/// watch.cancel()
/// ```
final class HTTPServer: Sendable {
    /// How long the accept loop pauses after `accept` fails for want of resources (`EMFILE`,
    /// `ENFILE`, `ENOBUFS`, `ENOMEM`): 100 ms keeps it from spinning on a connection it cannot
    /// take, while connections close and free descriptors.
    static let acceptRetryDelay = Duration.milliseconds(100)

    /// The most connections taken from the queue per wake-up: 64 keeps one listener (IPv4 or
    /// IPv6 of `localhost`) from starving the other, or the stop signal.
    static let maxAcceptsPerWakeup = 64

    /// The `Retry-After` sent with a 503 when all connections are taken: a sync client retrying
    /// after 5 s finds most short-lived connections gone.
    static let busyRetryAfterSeconds = 5

    /// How long a connection refused with 503 is kept open to read what the client sends:
    /// 500 ms lets its request arrive, so that closing does not reset the connection (and
    /// destroy the 503) before the client has read it.
    static let refusalLingerTimeout = Duration.milliseconds(500)

    /// The most refused connections kept open at once, each on a thread of its own: 8 bounds
    /// the threads a flood of connections can cost beyond ``HTTPServerLimits/maxConnections``.
    static let maxLingeringRefusals = 8

    /// Where the server is in its life.
    private enum Phase: Sendable {
        /// ``start(preparing:)`` has not been called.
        case notStarted
        /// Listening; the signal that stops it.
        case running(HTTPServerStopSignal)
        /// ``stop()`` has been called.
        case stopped
    }

    /// The host asked for: an IPv4 or IPv6 literal, or `localhost`.
    let host: String
    /// The port asked for; 0 for one the system chooses.
    let requestedPort: UInt16
    /// The limits requests and connections are held to.
    let limits: HTTPServerLimits
    /// What every connection shares: limits, log, handler and journal.
    let settings: HTTPServerConnection.Settings
    /// The listening sockets inherited to serve on instead of binding; empty to bind.
    let adoptedDescriptors: [Int32]
    /// Where the server is in its life.
    private let phase = Mutex(Phase.notStarted)
    /// The port bound, once started.
    private let boundPort = Atomic<UInt16>(0)
    /// The connections being served, each holding a slot until its thread has ended.
    let slots: HTTPServerSlots
    /// The refused connections being read before they close.
    let lingeringRefusals = Mutex(0)
    /// Entered by the accept loop and by every connection; empty once all have finished.
    let activity = DispatchGroup()

    /// Creates a server; nothing happens until ``start(preparing:)``.
    ///
    /// - Parameters:
    ///   - host: An IPv4 literal (`127.0.0.1`, `0.0.0.0`), an IPv6 literal with or without
    ///     brackets (`::1`, `[::]`, which listens on IPv6 only), or `localhost` (both
    ///     `127.0.0.1` and `::1`).
    ///   - port: The port; 0 lets the system choose one, read back from ``port``.
    ///   - limits: The limits requests and connections are held to.
    ///   - trustedProxies: The reverse proxies whose forwarded headers name the client an idle
    ///     connection is held for, when one must be dropped (none by default: the peer
    ///     address). The handler reads those headers on its own.
    ///   - log: Receives, from many threads at once, one line per request: method, path
    ///     without its query, status and milliseconds (`PUT /dav/a.vcf 201 4ms`), with
    ///     ` (not delivered)` when the client did not take the whole response, and the
    ///     response's ``HTTPServerResponse/logNote`` in parentheses when it has one. A refused
    ///     request's line ends with the refusal's code (`PUT /dav/a.vcf 413 0ms (bodyTooLarge)`,
    ///     `- - 414 0ms (requestLineTooLong)` when there is no request line to name), a refused
    ///     connection's with the reason (`- - 503 0ms (too many connections)`). A connection
    ///     dropped for a new one gets a line with how long it had waited and whether it had sent
    ///     a request: `- - - 8034ms (idle connection dropped for a new one)`, or
    ///     `- - - 950ms (connection without a request dropped for a new one)`. Failures of the
    ///     server itself (`accept failed: errno 24`) get a line too. Never a header value, a
    ///     query nor a body.
    ///   - adopting: Listening sockets this process inherited, bound already (by
    ///     ``openListeners(host:port:log:)`` in a supervisor); ``start(preparing:)`` serves on them, and
    ///     `host` and `port` only name them. Empty to bind `host` and `port`.
    ///   - journal: Where each request is marked while it is handled, for a supervisor to read
    ///     if the process dies; `nil` for none.
    ///   - handler: Turns a request into a response; called from many threads at once.
    init(
        host: String, port: UInt16, limits: HTTPServerLimits = HTTPServerLimits(),
        trustedProxies: TrustedProxies = TrustedProxies(), adopting: [Int32] = [], journal: HTTPRequestJournal? = nil,
        log: @escaping @Sendable (String) -> Void,
        handler: @escaping @Sendable (HTTPServerRequest) -> HTTPServerResponse
    ) {
        self.host = host
        requestedPort = port
        self.limits = limits
        adoptedDescriptors = adopting
        settings = HTTPServerConnection.Settings(
            limits: limits, log: log, handler: handler, trustedProxies: trustedProxies, journal: journal)
        slots = HTTPServerSlots(maxConnections: limits.maxConnections, maxConnectionsPerAddress: limits.maxConnectionsPerAddress)
    }

    /// The port the server listens on, once ``start(preparing:)`` took its address; 0 before.
    var port: UInt16 {
        boundPort.load(ordering: .acquiring)
    }

    /// Binds, listens, runs `prepare` and starts accepting connections on a thread of its own;
    /// returns once clients are answered.
    ///
    /// What `prepare` does (the work a first request would otherwise wait for) runs after the
    /// address is taken, so that a port in use is said at once, and before the first
    /// connection is accepted: clients that connect meanwhile wait in the listen queue instead
    /// of being refused. ``stop()`` waits for it.
    ///
    /// For `localhost`, `::1` is listened on as well as `127.0.0.1` when the system has IPv6
    /// (on the same port); without it, IPv4 alone.
    ///
    /// - Throws: ``HTTPServerError/Code/invalidHost`` for a host that is not a literal nor
    ///   `localhost`; ``HTTPServerError/Code/listenFailed`` when the port is taken or the
    ///   socket cannot be made; ``HTTPServerError/Code/alreadyStarted`` on a second call or
    ///   after ``stop()``.
    func start(preparing prepare: () -> Void = {}) throws(HTTPServerError) {
        try phase.withLock { phase throws(HTTPServerError) in
            guard case .notStarted = phase else {
                throw HTTPServerError(.alreadyStarted, "the server was already started or stopped")
            }
            let stopSignal = try HTTPServerStopSignal()
            let listeners = try adoptedDescriptors.isEmpty
                ? Self.openListeners(host: host, port: requestedPort, log: settings.log)
                : Self.adoptListeners(adoptedDescriptors)
            guard let first = listeners.first else {
                throw HTTPServerError(.listenFailed, "no address to listen on")
            }
            boundPort.store(first.port, ordering: .releasing)
            prepare()
            activity.enter()
            do throws(SystemCallError) {
                try HTTPServerThread.start { [self] in
                    acceptLoop(listeners: listeners, stopSignal: stopSignal)
                    activity.leave()
                }
            } catch {
                activity.leave()
                listeners.forEach { $0.close() }
                throw HTTPServerError(.listenFailed, "could not start the accept thread", underlying: error)
            }
            phase = .running(stopSignal)
        }
    }

    /// Begins a graceful shutdown and returns at once: the server stops accepting and closes
    /// connections waiting for their next request; a request already begun (being received
    /// within its read timeout, or in the handler) is finished and answered with
    /// `Connection: close`, then its connection closes. ``waitUntilStopped()`` returns once all
    /// are closed. Safe from any thread, including a request handler (not from a C signal
    /// handler: use ``HTTPServerSignalWatch``); later calls do nothing.
    func stop() {
        phase.withLock { phase in
            if case .running(let stopSignal) = phase {
                stopSignal.raise()
            }
            phase = .stopped
        }
    }

    /// Waits until a server that was started has stopped: its listening sockets and every
    /// connection closed. Returns at once for a server never started.
    func waitUntilStopped() {
        activity.wait()
    }

    /// Waits at most `timeout` for the server to stop; returns whether it did.
    func waitUntilStopped(timeout: Duration) -> Bool {
        let (seconds, attoseconds) = timeout.components
        let nanosecondsPerSecond = 1_000_000_000
        let nanoseconds = seconds >= Int64(Int.max / nanosecondsPerSecond - 1)
            ? Int.max : Int(seconds) * nanosecondsPerSecond + Int(attoseconds / 1_000_000_000)
        return activity.wait(timeout: .now() + .nanoseconds(max(0, nanoseconds))) == .success
    }

    /// The listeners of inherited listening sockets.
    ///
    /// - Throws: ``HTTPServerError/Code/listenFailed`` when one is not a bound socket.
    private static func adoptListeners(_ descriptors: [Int32]) throws(HTTPServerError) -> [HTTPServerListener] {
        var listeners: [HTTPServerListener] = []
        for descriptor in descriptors {
            listeners.append(try HTTPServerListener(adopting: descriptor))
        }
        return listeners
    }

    /// Opens a listener on each address of `host`, all on the same port, as ``start(preparing:)`` does.
    /// For `localhost`, an IPv6 address that cannot be listened on is left out with a log line.
    ///
    /// - Throws: ``HTTPServerError/Code/invalidHost`` for a host that is not a literal nor
    ///   `localhost`; ``HTTPServerError/Code/listenFailed`` when the port is taken or the
    ///   socket cannot be made.
    static func openListeners(host: String, port: UInt16, log: (String) -> Void) throws(HTTPServerError) -> [HTTPServerListener] {
        var listeners: [HTTPServerListener] = []
        for address in try HTTPServerAddress.addresses(forHost: host) {
            do throws(HTTPServerError) {
                listeners.append(try HTTPServerListener.open(address: address, port: listeners.first?.port ?? port))
            } catch where !listeners.isEmpty {
                log("listening without \(address): \(error)")
            } catch {
                listeners.forEach { $0.close() }
                throw error
            }
        }
        return listeners
    }
}
