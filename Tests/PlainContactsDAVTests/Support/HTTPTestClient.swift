import Foundation
import Glibc
import TestTags
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// Why a test client failed.
struct HTTPTestClientError: Error, CustomStringConvertible {
    /// What went wrong.
    var description: String
}

/// A response as a test client read it.
struct HTTPTestResponse {
    /// The status code.
    var status: Int
    /// The whole status line, without its line end.
    var statusLine: String
    /// The header fields in order.
    var headers: [(name: String, value: String)]
    /// The body, read by its `Content-Length`.
    var body: [UInt8]

    /// The first value of a header, the name compared without case.
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// A blocking client socket that speaks raw bytes to the server under test, so that tests can
/// send exactly what they mean (half a header, a pipelined batch) and see exactly what comes
/// back. Every read gives up after ``readTimeout`` so that a test fails rather than hangs.
final class HTTPTestClient {
    /// How long a read may block: far longer than any test waits on purpose.
    static let readTimeout = Duration.seconds(10)

    /// The socket.
    let descriptor: Int32
    /// Bytes received and not yet handed out.
    private var pending: [UInt8] = []

    /// Connects to the server on the loopback address of a family.
    init(port: UInt16, host: String = "127.0.0.1") throws {
        let address = try #require(try HTTPServerAddress.addresses(forHost: host).first)
        descriptor = socket(address.domain, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw HTTPTestClientError(description: "socket: errno \(errno)") }
        let connected = address.withSocketAddress(port: port) { connect(descriptor, $0, $1) }
        guard connected == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw HTTPTestClientError(description: "connect: errno \(code)")
        }
        var timeout = timeval(tv_sec: Int(Self.readTimeout.components.seconds), tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        Glibc.close(descriptor)
    }

    /// Sends text as UTF-8.
    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Sends bytes.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw HTTPTestClientError(description: "send: errno \(errno)") }
            offset += count
        }
    }

    /// Reads one response; its body is read by `Content-Length` unless `hasBody` is false
    /// (for `HEAD`).
    func readResponse(hasBody: Bool = true) throws -> HTTPTestResponse {
        let head = try readHead()
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let statusLine = try #require(lines.first)
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0] == "HTTP/1.1", let status = Int(parts[1]) else {
            throw HTTPTestClientError(description: "bad status line \(statusLine)")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw HTTPTestClientError(description: "bad header \(line)") }
            headers.append((String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
        }
        var response = HTTPTestResponse(status: status, statusLine: statusLine, headers: headers, body: [])
        if hasBody, let length = response.header("Content-Length").flatMap(Int.init) {
            response.body = try readExactly(length)
        }
        return response
    }

    /// Reads up to and including the empty line that ends a response head; returns the head
    /// without that empty line's end.
    func readHead() throws -> String {
        let end = Array("\r\n\r\n".utf8)
        while true {
            if let range = pending.firstRange(of: end) {
                let head = String(decoding: pending[..<range.lowerBound], as: UTF8.self)
                pending.removeSubrange(..<range.upperBound)
                return head
            }
            guard try receiveMore() else { throw HTTPTestClientError(description: "closed before a full head") }
        }
    }

    /// Reads exactly `count` bytes.
    func readExactly(_ count: Int) throws -> [UInt8] {
        while pending.count < count {
            guard try receiveMore() else { throw HTTPTestClientError(description: "closed after \(pending.count) of \(count) bytes") }
        }
        let bytes = Array(pending[..<count])
        pending.removeSubrange(..<count)
        return bytes
    }

    /// Whether the server closes the connection (end of file or reset) within `timeout`,
    /// dropping anything it sends first; `false` also if it sends bytes but stays open.
    func waitForClose(timeout: Duration = .seconds(10)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            let remaining = ContinuousClock.now.duration(to: deadline)
            let milliseconds = Int32(clamping: remaining.components.seconds * 1000 + 1)
            guard poll(&descriptors, 1, milliseconds) > 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
        return false
    }

    /// Whether nothing arrives and the connection stays open for `duration`.
    func staysQuiet(for duration: Duration) -> Bool {
        var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        let (seconds, attoseconds) = duration.components
        let milliseconds = Int32(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        return pending.isEmpty && poll(&descriptors, 1, milliseconds) == 0
    }

    /// Everything the server sends until it closes the connection; throws if it stays open
    /// past ``readTimeout``.
    func readToEnd() throws -> [UInt8] {
        while try receiveMore() {}
        let bytes = pending
        pending = []
        return bytes
    }

    /// Sends bytes one at a time, `pause` apart, until all are sent or the server answers or
    /// closes; returns how many were sent. A slow client, as slowloris is.
    func dribble(_ text: String, pause: Duration) -> Int {
        var sent = 0
        for byte in text.utf8 {
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            let (seconds, attoseconds) = pause.components
            let milliseconds = Int32(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
            if poll(&descriptors, 1, milliseconds) != 0 { break }
            var value = byte
            guard Glibc.send(descriptor, &value, 1, Int32(MSG_NOSIGNAL)) == 1 else { break }
            sent += 1
        }
        return sent
    }

    /// Whether connecting to the port fails: nothing listens there.
    static func connectionIsRefused(port: UInt16, host: String = "127.0.0.1") -> Bool {
        (try? HTTPTestClient(port: port, host: host)) == nil
    }

    /// Shuts down the sending side, as a client does after its last request.
    func finishSending() {
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Receives what has arrived into ``pending``; `false` at end of file.
    private func receiveMore() throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        if count > 0 {
            pending.append(contentsOf: buffer[..<count])
            return true
        }
        if count == 0 { return false }
        throw HTTPTestClientError(description: "recv: errno \(errno)")
    }
}
