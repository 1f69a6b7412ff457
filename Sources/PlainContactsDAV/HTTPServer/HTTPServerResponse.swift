#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One response, as a handler returns it: a status, header fields in order, and the body as
/// bytes.
///
/// The server writes `Content-Length`, `Date` and `Connection` itself and drops any the handler
/// set (a handler's `Connection: close` still closes the connection). For a `HEAD` request the
/// server writes no body; the `Content-Length` it declares is ``headContentLength`` when set,
/// otherwise the length of ``body``, so a handler may answer `HEAD` exactly as `GET`.
///
/// ```swift
/// var response = HTTPServerResponse(status: 401, body: Data("sign in\n".utf8))
/// response.headers.append("WWW-Authenticate", "Basic realm=\"contacts\", charset=\"UTF-8\"")
/// response.headers.append("WWW-Authenticate", "Bearer")
/// ```
struct HTTPServerResponse: Sendable, Hashable {
    /// The status code, such as `207`; a handler gives a final status (200 to 599).
    var status: Int
    /// The header fields, written in this order, repeats kept.
    var headers: HTTPHeaderFields
    /// The body; the server declares its length.
    var body: Data
    /// For a `HEAD` request: the length the `GET` body would have, when the handler did not
    /// build that body; `nil` declares the length of ``body``.
    var headContentLength: Int?
    /// What the request's log line adds in parentheses after the status and time, such as
    /// `for 203.0.113.7 via 127.0.0.1`; never sent to the client. Never a header value, a
    /// query nor a body.
    var logNote: String?

    /// Creates a response.
    init(status: Int, headers: HTTPHeaderFields = [:], body: Data = Data(), headContentLength: Int? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.headContentLength = headContentLength
    }

    /// A plain-text response: the text in UTF-8 with `Content-Type: text/plain; charset=utf-8`.
    ///
    /// ```swift
    /// return .text(404, "no such address book\n")
    /// ```
    static func text(_ status: Int, _ text: String) -> HTTPServerResponse {
        HTTPServerResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data(text.utf8))
    }

    /// The answer to a refused request: the status with its reason phrase as a one-line text body.
    static func refusal(_ status: Int) -> HTTPServerResponse {
        text(status, HTTPStatus.reasonPhrase(for: status) + "\n")
    }
}
