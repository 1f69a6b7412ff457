#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts

/// Serves one accepted connection on its own thread: reads requests one at a time, calls the
/// handler, writes each response, until either side closes, a timeout passes or the server
/// stops.
///
/// A refused request (a parse error, a limit, a timeout while it arrives) is answered with its
/// status and `Connection: close` and never reaches the handler. When the server stops, a
/// request already begun (being received, or handed to the handler) is finished and its
/// response written with `Connection: close`; a connection waiting for its next request is
/// closed without an answer.
///
/// While it waits for a request, the connection is registered as idle in its ``slot``, where
/// the accept thread may drop it for a new connection; it leaves that state before it takes a
/// byte or closes its socket, and closes unread once dropped.
///
/// ```swift
/// var connection = HTTPServerConnection(
///     socket: socket, peerAddress: "127.0.0.1", slot: slot, settings: settings, stopSignal: stop)
/// connection.run()   // returns once the socket is closed
/// slot.release()
/// ```
struct HTTPServerConnection: Sendable {
    /// What every connection of a server shares: its limits and callbacks.
    struct Settings: Sendable {
        /// The limits requests are held to.
        var limits: HTTPServerLimits
        /// Receives one line per request and per refusal.
        var log: @Sendable (String) -> Void
        /// Turns a request into a response.
        var handler: @Sendable (HTTPServerRequest) -> HTTPServerResponse
        /// The reverse proxies whose forwarded headers name who an idle connection is held
        /// for (see ``HTTPServerSlotTable/dropOrder``).
        var trustedProxies = TrustedProxies()
        /// Where each request is marked from the handler's call until its response is written.
        var journal: HTTPRequestJournal? = nil
    }

    /// Bodies up to this size are written in the same `send` as the head, so that a small
    /// response leaves in one packet: 64 KiB costs little to copy.
    static let maxCoalescedBodySize = 64 * 1024

    /// The connected socket; closed when ``run()`` returns.
    let socket: HTTPServerSocket
    /// The client's IP address, given to every request.
    let peerAddress: String
    /// The server's slot the connection holds.
    let slot: HTTPServerSlot
    /// The server's limits and callbacks.
    let settings: HTTPServerConnection.Settings
    /// Raised when the server stops.
    let stopSignal: HTTPServerStopSignal
    /// When the connection was accepted: its first request's header block is timed from here.
    let opened: ContinuousClock.Instant
    /// The requests read so far from the connection's bytes.
    private var parser: HTTPRequestParser

    /// Creates the server side of an accepted connection.
    init(
        socket: HTTPServerSocket, peerAddress: String, slot: HTTPServerSlot, settings: HTTPServerConnection.Settings,
        stopSignal: HTTPServerStopSignal
    ) {
        self.socket = socket
        self.peerAddress = peerAddress
        self.slot = slot
        self.settings = settings
        self.stopSignal = stopSignal
        opened = .now
        parser = HTTPRequestParser(limits: settings.limits)
    }

    /// Serves requests until the connection ends, then closes the socket.
    mutating func run() {
        let limits = settings.limits
        var idleSince = opened
        var requestStart: ContinuousClock.Instant?
        var hasAnswered = false
        while true {
            guard let event = parser.next() else {
                switch receive(idleSince: idleSince, requestStart: requestStart, hasAnswered: hasAnswered) {
                case .received:
                    if requestStart == nil { requestStart = .now }
                case .timedOut where requestStart != nil && parser.isPartway:
                    let timedOut = parser.isReadingHeaderBlock
                        ? HTTPServerError(.headerBlockTimedOut, "header block not received in time", status: 408)
                        : HTTPServerError(.requestTimedOut, "request not received in time", status: 408)
                    refuse(timedOut, since: requestStart ?? .now)
                    return
                case .stopped:
                    // Checked again by `receive`, which finishes a request begun before the stop.
                    continue
                case .timedOut, .closed, .failed:
                    socket.close()
                    return
                }
                continue
            }
            switch event {
            case .continueExpected:
                guard socket.send(HTTPServerResponse.continueHead, progressTimeout: limits.writeTimeout) else {
                    socket.close()
                    return
                }
            case .failure(let error):
                refuse(error, since: requestStart ?? .now)
                return
            case .request(var request):
                request.peerAddress = peerAddress
                let holder = HTTPForwardedClient(
                    headers: request.headers, peerAddress: peerAddress, trustedProxies: settings.trustedProxies
                ).address
                guard respond(to: request, since: requestStart ?? .now) else { return }
                hasAnswered = true
                idleSince = .now
                requestStart = parser.isPartway ? idleSince : nil
                if requestStart == nil { slot.enterIdle(holder: holder) }
            }
        }
    }

    /// Waits for the next bytes of a request: between requests as
    /// ``receiveWhileIdle(idleSince:hasAnswered:)`` does, until the request's read deadline once
    /// it has begun (see ``readDeadline(requestStart:hasAnswered:)``).
    ///
    /// While the server runs, a stop ends the wait. Once it is stopping, a request already
    /// begun is read on to its read deadline, so that it can be finished, and between
    /// requests only bytes that have already arrived are taken: a connection with none is
    /// idle, and its wait ends at once.
    private mutating func receive(
        idleSince: ContinuousClock.Instant, requestStart: ContinuousClock.Instant?, hasAnswered: Bool
    ) -> HTTPServerSocket.ReceiveOutcome {
        guard let requestStart else { return receiveWhileIdle(idleSince: idleSince, hasAnswered: hasAnswered) }
        let deadline = readDeadline(requestStart: requestStart, hasAnswered: hasAnswered)
        guard stopSignal.isRaised else {
            return socket.receive(into: &parser, deadline: deadline, stopDescriptor: stopSignal.readDescriptor)
        }
        guard parser.isPartway else {
            let outcome = socket.receive(into: &parser, deadline: .now, stopDescriptor: nil)
            return outcome == .received ? .received : .closed
        }
        return socket.receive(into: &parser, deadline: deadline, stopDescriptor: nil)
    }

    /// Waits for the first bytes of the next request while the slot is registered as idle;
    /// leaves that state before taking a byte or letting the socket be closed, and ends as if
    /// the client had closed when the connection was dropped for a new one.
    ///
    /// A first request's wait ends with the shortest of ``HTTPServerLimits/firstRequestTimeout``,
    /// ``HTTPServerLimits/idleTimeout`` and ``HTTPServerLimits/headerBlockTimeout`` (its whole
    /// header block is due by then); a later one's with the idle timeout. Once the server is
    /// stopping, only bytes that have already arrived are taken.
    private mutating func receiveWhileIdle(
        idleSince: ContinuousClock.Instant, hasAnswered: Bool
    ) -> HTTPServerSocket.ReceiveOutcome {
        let limits = settings.limits
        let stopping = stopSignal.isRaised
        let idle = hasAnswered
            ? limits.idleTimeout : min(limits.firstRequestTimeout, limits.idleTimeout, limits.headerBlockTimeout)
        let deadline = stopping ? ContinuousClock.now : idleSince + idle
        let stopDescriptor = stopping ? nil : stopSignal.readDescriptor
        let readiness = socket.waitUntilReadable(deadline: deadline, stopDescriptor: stopDescriptor)
        guard slot.leaveIdle() else { return .closed }
        switch readiness {
        case .ready:
            let outcome = socket.receive(into: &parser, deadline: deadline, stopDescriptor: stopDescriptor)
            return stopping && outcome != .received ? .closed : outcome
        case .timedOut:
            return stopping ? .closed : .timedOut
        case .stopped:
            return .stopped
        case .failed:
            return .failed
        }
    }

    /// When the request being read must have arrived: ``HTTPServerLimits/requestReadTimeout``
    /// after its first byte, and while its header block is incomplete, no later than
    /// ``HTTPServerLimits/headerBlockTimeout`` after the connection opened (for the first
    /// request) or after the request's first byte (for a later one).
    private func readDeadline(requestStart: ContinuousClock.Instant, hasAnswered: Bool) -> ContinuousClock.Instant {
        let limits = settings.limits
        let whole = requestStart + limits.requestReadTimeout
        guard parser.isReadingHeaderBlock else { return whole }
        return min(whole, (hasAnswered ? requestStart : opened) + limits.headerBlockTimeout)
    }

    /// Calls the handler and writes its response; returns whether the connection stays open.
    /// When it does not, the socket is closed on return.
    private func respond(to request: HTTPServerRequest, since start: ContinuousClock.Instant) -> Bool {
        let journalSlot = settings.journal?.begin(method: request.method, path: request.path)
        var response = settings.handler(request)
        if !HTTPServerResponse.finalStatuses.contains(response.status) {
            settings.log("\(request.method) \(request.path): the handler answered with status \(response.status); sending 500")
            response = .refusal(500)
        }
        let unwritable = response.unwritableFieldNames
        if !unwritable.isEmpty {
            settings.log("\(request.method) \(request.path): left out header fields with invalid bytes: \(unwritable.joined(separator: ", "))")
        }
        let closing = !request.keepsAlive || response.asksToClose || stopSignal.isRaised
        let connection: String? = closing ? "close" : (request.version == .http1_0 ? "keep-alive" : nil)
        let head = response.serializedHead(isHeadRequest: request.isHead, connection: connection, date: HTTPDate.now())
        let delivered = write(head: head, body: response.writesBody(forHeadRequest: request.isHead) ? response.body : Data())
        settings.journal?.end(journalSlot)
        let line = Self.logLine(request.method, request.path, status: response.status, since: start, delivered: delivered)
        settings.log(line + (response.logNote.map { " (\($0))" } ?? ""))
        if !delivered {
            socket.close()
            return false
        }
        if closing {
            socket.lingeringClose(deadline: .now + settings.limits.closeLingerTimeout)
            return false
        }
        return true
    }

    /// Answers a refused request with its status and closes the connection.
    private func refuse(_ error: HTTPServerError, since start: ContinuousClock.Instant) {
        let status = error.status ?? 400
        let response = HTTPServerResponse.refusal(status)
        let head = response.serializedHead(isHeadRequest: false, connection: "close", date: HTTPDate.now())
        let delivered = write(head: head, body: response.body)
        let line = parser.requestLine.map { HTTPServerRequest(method: $0.method, target: $0.target) }
        let entry = Self.logLine(line?.method ?? "-", line?.path ?? "-", status: status, since: start, delivered: delivered)
        settings.log("\(entry) (\(error.code))")
        if delivered {
            socket.lingeringClose(deadline: .now + settings.limits.closeLingerTimeout)
        } else {
            socket.close()
        }
    }

    /// Writes a response's head and body; returns whether all of it was written.
    private func write(head: [UInt8], body: Data) -> Bool {
        let timeout = settings.limits.writeTimeout
        if body.count <= Self.maxCoalescedBodySize {
            return socket.send(head + body, progressTimeout: timeout)
        }
        guard socket.send(head, progressTimeout: timeout) else { return false }
        return body.withUnsafeBytes { socket.send($0, progressTimeout: timeout) }
    }

    /// The log line of an answered request: method, path, status and milliseconds taken, with a
    /// note when the client did not take the whole response. Never a header value nor a body.
    static func logLine(_ method: String, _ path: String, status: Int, since start: ContinuousClock.Instant, delivered: Bool)
        -> String
    {
        let (seconds, attoseconds) = start.duration(to: .now).components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return "\(method) \(path) \(status) \(milliseconds)ms" + (delivered ? "" : " (not delivered)")
    }
}
