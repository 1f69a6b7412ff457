#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One request as the server received it: what a handler is given.
///
/// The target is kept exactly as sent; nothing is percent-decoded, so that the layer above
/// decodes once.
///
/// ```swift
/// let server = HTTPServer(host: "127.0.0.1", port: 0, log: { _ in }) { request in
///     guard request.method == "GET", request.path == "/hello" else { return HTTPServerResponse(status: 404) }
///     return HTTPServerResponse(status: 200, body: Data("hi \(request.query ?? "")".utf8))
/// }
/// ```
struct HTTPServerRequest: Sendable, Hashable {
    /// An HTTP version the server speaks.
    enum Version: String, Sendable, Hashable {
        /// HTTP/1.0: connections close after each request unless the client asks to keep them.
        case http1_0 = "HTTP/1.0"
        /// HTTP/1.1: connections stay open unless either side says `Connection: close`.
        case http1_1 = "HTTP/1.1"
    }

    /// The method, such as `GET` or `PROPFIND`, exactly as sent (methods are case-sensitive).
    var method: String
    /// The request target as sent: usually a path with an optional query (`/dav/a%20b?x=1`),
    /// possibly an absolute URL, or `*`.
    var target: String
    /// The version of the request line.
    var version: Version
    /// The header fields, in order, repeats kept.
    var headers: HTTPHeaderFields
    /// The body, decoded from chunks if it came chunked; empty when there was none.
    var body: Data
    /// The client's IP address (`127.0.0.1`, `::1`); empty when not known, as in parser tests.
    var peerAddress: String

    /// Creates a request.
    init(
        method: String, target: String, version: Version = .http1_1, headers: HTTPHeaderFields = [:],
        body: Data = Data(), peerAddress: String = ""
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        self.peerAddress = peerAddress
    }

    /// The target without its query, still percent-encoded. For an absolute URL
    /// (`http://host/dav/`) it is the path part (`/dav/`), `/` when there is none.
    var path: String {
        let bytes = Array(target.utf8.prefix { $0 != UInt8(ascii: "?") })
        guard let colon = bytes.firstIndex(of: HTTPSyntax.colon), colon > 0,
            bytes[..<colon].allSatisfy(Self.isSchemeByte),
            bytes[(colon + 1)...].starts(with: "//".utf8)
        else { return String(decoding: bytes, as: UTF8.self) }
        let authorityAndPath = bytes[(colon + 3)...]
        guard let slash = authorityAndPath.firstIndex(of: UInt8(ascii: "/")) else { return "/" }
        return String(decoding: bytes[slash...], as: UTF8.self)
    }

    /// Whether a byte may appear in a URL scheme (`http`, `https`).
    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }

    /// The part of the target after the first `?`, still percent-encoded; `nil` when there is
    /// no `?`.
    var query: String? {
        guard let mark = target.firstIndex(of: "?") else { return nil }
        return String(target[target.index(after: mark)...])
    }

    /// The first value of a header, its name compared without case.
    func header(_ name: String) -> String? {
        headers[name]
    }

    /// Whether the client wants the connection kept open after the response: the HTTP/1.1
    /// default unless it sent `Connection: close`; for HTTP/1.0 only with `Connection: keep-alive`.
    var keepsAlive: Bool {
        if headers.containsToken("close", in: "Connection") { return false }
        switch version {
        case .http1_1: return true
        case .http1_0: return headers.containsToken("keep-alive", in: "Connection")
        }
    }

    /// Whether the client waits for `100 Continue` before sending its body
    /// (`Expect: 100-continue`, which HTTP/1.0 clients cannot ask for).
    var expectsContinue: Bool {
        version == .http1_1 && headers.containsToken("100-continue", in: "Expect")
    }

    /// Whether this is a `HEAD` request, whose response carries headers only.
    var isHead: Bool { method == "HEAD" }
}

extension HTTPServerRequest: CustomStringConvertible {
    /// The method and path only: headers may hold credentials, and the body a person's card.
    var description: String { "\(method) \(path)" }
}
