import Foundation
import Glibc

/// One keep-alive HTTP/1.1 connection to a server on a loopback address, on blocking sockets.
///
/// The server benchmarks time requests through it rather than through `URLSession`, so that
/// what is timed is the server: no client library's threads, retries or busy waiting; tests
/// send exactly the bytes they mean through it, lies and all. It reconnects by itself when
/// the server closed the connection after a response.
///
/// ```swift
/// let connection = RawHTTPConnection(port: 5232)
/// let response = try connection.send("PROPFIND", "/user/contacts/", headers: ["Depth": "1"], body: Data())
/// ```
public final class RawHTTPConnection {
    /// A response: its status, header fields (names lowercased) and body.
    public struct Response {
        /// The status code.
        public var status: Int
        /// The header fields, names lowercased, in order.
        public var headers: [(name: String, value: String)]
        /// The body, decoded from chunks when it came chunked.
        public var body: Data

        /// The first value of a header, by name in any case.
        public func header(_ name: String) -> String? {
            let lowercased = name.lowercased()
            return headers.first { $0.name == lowercased }?.value
        }

        /// The body as UTF-8 text.
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// A failure to connect, send or read, or a response that is not HTTP/1.1.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// The longest response header block read before the response is called malformed.
    static let maxHeaderBlock = 64 * 1024
    /// How long a connection waits for a response's next bytes before giving up: a server
    /// under load may be slow, but a minute of silence is a hung request.
    static let readTimeout = timeval(tv_sec: 60, tv_usec: 0)

    /// The server's port on 127.0.0.1.
    public let port: Int
    private var socket: Int32 = -1
    private var buffer: [UInt8] = []
    private var bufferStart = 0

    /// A connection to `127.0.0.1:port`, opened on the first request.
    public init(port: Int) {
        self.port = port
    }

    deinit {
        close()
    }

    /// Sends one request and reads its whole response.
    ///
    /// - Throws: ``Failure`` when the connection fails or the response is malformed.
    public func send(_ method: String, _ path: String, headers: [String: String] = [:], body: Data = Data()) throws -> Response {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || ["PUT", "POST", "PROPFIND", "REPORT"].contains(method) { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        let request = Array(head.utf8) + Array(body)
        // A kept-alive connection the server closed meanwhile fails on its first read: retry
        // once on a new connection, as clients do.
        for attempt in 0..<2 {
            if socket < 0 { try open() }
            do {
                try write(request)
                return try readResponse(method: method)
            } catch let failure as Failure where attempt == 0 && failure.description == Self.closedEarly {
                close()
            }
        }
        throw Failure(description: Self.closedEarly)
    }

    /// Sends `bytes` as they are (a whole request, or a request's head that lies about its
    /// body) on a new connection and reads one response.
    ///
    /// - Throws: ``Failure`` when the connection fails or the response is malformed.
    public func sendRaw(_ bytes: [UInt8], method: String = "GET") throws -> Response {
        close()
        try open()
        try write(bytes)
        return try readResponse(method: method)
    }

    /// Closes the connection; the next request opens a new one.
    public func close() {
        if socket >= 0 { Glibc.close(socket) }
        socket = -1
        buffer = []
        bufferStart = 0
    }

    private static let closedEarly = "the server closed the connection before a whole response"

    private func open() throws {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw Failure(description: "connecting to 127.0.0.1:\(port): \(reason)")
        }
        var noDelay: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var timeout = Self.readTimeout
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        socket = descriptor
    }

    private func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { raw in
                Glibc.send(socket, raw.baseAddress.map { $0 + sent }, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw Failure(description: Self.closedEarly)
            }
            sent += result
        }
    }

    /// Reads more bytes into the buffer; false at the end of the stream.
    private func fill() throws -> Bool {
        if bufferStart > 0, bufferStart == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            bufferStart = 0
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return true
            }
            if count == 0 { return false }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { throw Failure(description: "no response within 60 s") }
            return false
        }
    }

    /// The next line of the buffer without its CRLF, reading as needed.
    private func line() throws -> String {
        // Counted from bufferStart: a fill may move the unread bytes to the buffer's start.
        var searched = 0
        while true {
            if let end = buffer[(bufferStart + searched)...].firstIndex(of: UInt8(ascii: "\n")) {
                var lineEnd = end
                if lineEnd > bufferStart, buffer[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
                let text = String(decoding: buffer[bufferStart..<lineEnd], as: UTF8.self)
                bufferStart = end + 1
                return text
            }
            searched = buffer.count - bufferStart
            guard buffer.count - bufferStart < Self.maxHeaderBlock else { throw Failure(description: "a response line is too long") }
            guard try fill() else { throw Failure(description: Self.closedEarly) }
        }
    }

    /// The next `count` bytes, reading as needed.
    private func bytes(_ count: Int) throws -> Data {
        while buffer.count - bufferStart < count {
            guard try fill() else { throw Failure(description: Self.closedEarly) }
        }
        let data = Data(buffer[bufferStart..<(bufferStart + count)])
        bufferStart += count
        return data
    }

    private func readResponse(method: String) throws -> Response {
        var status = 0
        var headers: [(name: String, value: String)] = []
        repeat {
            let statusLine = try line()
            let parts = statusLine.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let code = Int(parts[1]) else {
                throw Failure(description: "not an HTTP status line: \(statusLine.prefix(80))")
            }
            status = code
            headers = []
            while true {
                let field = try line()
                if field.isEmpty { break }
                guard let colon = field.firstIndex(of: ":") else { continue }
                headers.append(
                    (field[..<colon].lowercased(), field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            }
        } while (100..<200).contains(status)
        var response = Response(status: status, headers: headers, body: Data())
        if method == "HEAD" || status == 204 || status == 304 {
            // No body.
        } else if response.header("transfer-encoding")?.lowercased().contains("chunked") == true {
            response.body = try chunkedBody()
        } else if let length = response.header("content-length").flatMap({ Int($0) }) {
            response.body = try bytes(length)
        } else {
            var body = Data(buffer[bufferStart...])
            bufferStart = buffer.count
            while try fill() {
                body.append(contentsOf: buffer[bufferStart...])
                bufferStart = buffer.count
            }
            response.body = body
            close()
            return response
        }
        if response.header("connection")?.lowercased() == "close" { close() }
        return response
    }

    private func chunkedBody() throws -> Data {
        var body = Data()
        while true {
            let sizeLine = try line()
            let sizeText = sizeLine.split(separator: ";").first.map(String.init) ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw Failure(description: "a malformed chunk size")
            }
            if size == 0 {
                while try !line().isEmpty {}
                return body
            }
            body.append(try bytes(size))
            _ = try line()
        }
    }
}
