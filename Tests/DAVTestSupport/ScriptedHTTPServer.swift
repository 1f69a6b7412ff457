import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 and a free port that answers each request as a test
/// scripts it, including the answers no real server gives: a body streamed without end, a
/// `Content-Length` never followed by its body, a header block without end.
///
/// Each connection has its own thread and is kept alive between complete answers. Whatever it
/// streams stops by itself after ``maximumStreamedBytes`` or ``maximumStreamTime``, or as soon
/// as the client closes the connection.
///
/// ```swift
/// let server = try ScriptedHTTPServer { request in
///     request.method == "REPORT" ? .endlessChunks(status: 207, headers: [:], prefix: head, repeating: response) : .complete(status: 404)
/// }
/// let url = server.url("/user/contacts/")
/// ```
public final class ScriptedHTTPServer: @unchecked Sendable {
    // @unchecked: the mutable records are read and written under `lock`; the descriptor is
    // set once in `init` and closed once in `stop()`.

    /// A request as the server read it.
    public struct Request: Sendable {
        /// The method, such as `REPORT`.
        public var method: String
        /// The request target, such as `/user/contacts/`.
        public var path: String
        /// The header fields, names lowercased.
        public var headers: [String: String]
        /// The body, read by its `Content-Length`.
        public var body: Data
    }

    /// How to answer one request.
    public enum Reply: Sendable {
        /// A whole response with its `Content-Length`; the connection stays open.
        case complete(status: Int, headers: [String: String] = [:], body: Data = Data())
        /// A chunked response: `prefix`, then `repeating` again and again until the client
        /// closes the connection (or the server's own bounds are reached).
        case endlessChunks(status: Int, headers: [String: String], prefix: Data, repeating: Data)
        /// A response head announcing a body of `length` bytes, then none of it: the server
        /// waits for the client to close the connection (at most ``maximumStreamTime``).
        case announcedLength(status: Int, headers: [String: String], length: Int)
        /// A status line, then header fields without end.
        case endlessHeaders(status: Int)
    }

    /// The most bytes one endless answer sends before it stops by itself: far more than any
    /// client under test should read.
    public static let maximumStreamedBytes = 8 << 30
    /// The longest one endless answer, or a wait for the client to close, lasts.
    public static let maximumStreamTime: TimeInterval = 120
    /// How long a connection waits for a request or for the client to take bytes.
    static let socketTimeout = timeval(tv_sec: 30, tv_usec: 0)
    /// The longest request head read.
    static let maximumRequestHead = 64 * 1024
    /// How many bytes one send of an endless answer carries.
    static let streamPiece = 256 * 1024

    /// The port the server listens on.
    public let port: Int
    private let listener: Int32
    private let answer: @Sendable (Request) -> Reply
    private let lock = NSLock()
    private var recordedRequests: [Request] = []
    private var streamedBytes = 0
    /// How many endless answers are being sent.
    private var streamsUnderway = 0
    private var stopped = false

    /// Starts listening and answering on a thread of its own.
    ///
    /// - Throws: ``DAVTestServerError`` when no socket can listen.
    public init(answer: @escaping @Sendable (Request) -> Reply) throws {
        self.answer = answer
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw DAVTestServerError("socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && listen(descriptor, 16) == 0
                    && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard listening else {
            close(descriptor)
            throw DAVTestServerError("cannot listen on 127.0.0.1")
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptConnections() }
        thread.start()
    }

    deinit {
        stop()
    }

    /// A URL of this server, such as `http://127.0.0.1:PORT/user/contacts/`.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// The requests read so far, in order.
    public var requests: [Request] {
        lock.withLock { recordedRequests }
    }

    /// The body bytes sent so far by endless answers (one that announced a length sends none).
    public var bytesStreamed: Int {
        lock.withLock { streamedBytes }
    }

    /// Waits until no endless answer is being sent, at most `timeout`; returns whether none was.
    ///
    /// An endless answer ends as soon as the client hangs up, and otherwise once the client has
    /// taken no bytes for 30 s or the answer has reached ``maximumStreamedBytes`` or
    /// ``maximumStreamTime``.
    public func waitUntilStreamsEnd(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while lock.withLock({ streamsUnderway }) > 0 {
            guard ContinuousClock.now < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }

    /// Stops accepting connections; connections open go on until their client closes them.
    public func stop() {
        let wasStopped = lock.withLock {
            defer { stopped = true }
            return stopped
        }
        guard !wasStopped else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private var isStopped: Bool {
        lock.withLock { stopped }
    }

    private func acceptConnections() {
        while !isStopped {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            var timeout = Self.socketTimeout
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let thread = Thread { [self] in
                serve(connection)
                close(connection)
            }
            thread.start()
        }
    }

    /// Answers the requests of one connection until it closes or an answer leaves it unusable.
    private func serve(_ connection: Int32) {
        var pending = Data()
        while let request = readRequest(connection, pending: &pending) {
            lock.withLock { recordedRequests.append(request) }
            switch answer(request) {
            case .complete(let status, let headers, let body):
                var fields = headers
                fields["Content-Length"] = String(body.count)
                guard write(connection, head(status, fields) + body) else { return }
            case .endlessChunks(let status, let headers, let prefix, let repeating):
                var fields = headers
                fields["Transfer-Encoding"] = "chunked"
                stream(connection, head: head(status, fields), prefix: prefix, repeating: repeating)
                return
            case .announcedLength(let status, let headers, let length):
                var fields = headers
                fields["Content-Length"] = String(length)
                guard write(connection, head(status, fields)) else { return }
                waitForClose(connection)
                return
            case .endlessHeaders(let status):
                let line = Data(("X-Filler: " + String(repeating: "f", count: 1000) + "\r\n").utf8)
                var piece = Data()
                while piece.count < Self.streamPiece { piece += line }
                stream(connection, head: Data("HTTP/1.1 \(status) Scripted\r\n".utf8), prefix: Data(), repeating: piece, chunked: false)
                return
            }
        }
    }

    /// A response head: the status line and the fields, and the empty line that ends them.
    private func head(_ status: Int, _ fields: [String: String]) -> Data {
        var text = "HTTP/1.1 \(status) Scripted\r\n"
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            text += "\(name): \(value)\r\n"
        }
        return Data((text + "\r\n").utf8)
    }

    /// Sends `head`, `prefix` and then `repeating` (as chunks, when `chunked`) until the
    /// client stops taking them or the server's bounds are reached.
    private func stream(_ connection: Int32, head: Data, prefix: Data, repeating: Data, chunked: Bool = true) {
        func framed(_ data: Data) -> Data {
            chunked ? Data((String(data.count, radix: 16) + "\r\n").utf8) + data + Data("\r\n".utf8) : data
        }
        lock.withLock { streamsUnderway += 1 }
        defer { lock.withLock { streamsUnderway -= 1 } }
        var piece = Data()
        while piece.count < Self.streamPiece { piece += repeating }
        let framedPiece = framed(piece)
        guard write(connection, head + (prefix.isEmpty ? Data() : framed(prefix))) else { return }
        let deadline = Date(timeIntervalSinceNow: Self.maximumStreamTime)
        var sent = 0
        while sent < Self.maximumStreamedBytes, Date() < deadline, !isStopped {
            guard write(connection, framedPiece) else { return }
            sent += piece.count
            lock.withLock { streamedBytes += piece.count }
        }
    }

    /// Waits until the client closes the connection (or sends more, which is dropped).
    private func waitForClose(_ connection: Int32) {
        let deadline = Date(timeIntervalSinceNow: Self.maximumStreamTime)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) { return }
        }
    }

    /// Reads one request: its head, then as many body bytes as its `Content-Length` says;
    /// `nil` when the connection closes or sends something else.
    private func readRequest(_ connection: Int32, pending: inout Data) -> Request? {
        let blankLine = Data("\r\n\r\n".utf8)
        while pending.range(of: blankLine) == nil {
            guard pending.count < Self.maximumRequestHead, read(connection, into: &pending) else { return nil }
        }
        guard let end = pending.range(of: blankLine) else { return nil }
        let lines = String(decoding: pending[pending.startIndex..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        pending = Data(pending[end.upperBound...])
        let requestLine = lines.first?.split(separator: " ") ?? []
        guard requestLine.count == 3 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        while pending.count < length {
            guard read(connection, into: &pending) else { return nil }
        }
        let body = Data(pending.prefix(length))
        pending = Data(pending.dropFirst(length))
        return Request(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers, body: body)
    }

    /// Appends what the connection has to `data`; false at its end or on an error.
    private func read(_ connection: Int32, into data: inout Data) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
                return true
            }
            if count < 0, errno == EINTR { continue }
            return false
        }
    }

    /// Sends all of `data`; false when the client has gone or stopped taking bytes.
    private func write(_ connection: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let count = send(connection, raw.baseAddress.map { $0 + sent }, raw.count - sent, Int32(MSG_NOSIGNAL))
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                sent += count
            }
            return true
        }
    }
}
