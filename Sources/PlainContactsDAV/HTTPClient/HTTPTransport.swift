import Foundation

/// Carries one request to a server and brings back its response, without following redirects,
/// retrying or authenticating: ``HTTPClient`` does those.
///
/// ``CurlTransport`` is the real one, and ``MissingCurlTransport`` where libcurl cannot be loaded;
/// tests use a fake that answers from a queue.
///
/// ```swift
/// let response = try CurlTransport.standard().send(HTTPRequest(method: "GET", url: url))
/// ```
protocol HTTPTransport: Sendable {
    /// Sends a request and waits for its response.
    ///
    /// - Throws: ``HTTPTransportError`` when no response came (no connection, a timeout), or
    ///   when the answer passed its ``HTTPResponseLimits`` (then it is not read further).
    func send(_ request: HTTPRequest) throws -> HTTPResponse
}

/// Why a transport brought back no response.
///
/// ```swift
/// throw HTTPTransportError(.timedOut, detail: "no answer within 30 s")
/// ```
struct HTTPTransportError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    enum Kind: Sendable {
        /// The server could not be reached or closed the connection.
        case connectionFailed
        /// The server did not answer in time.
        case timedOut
        /// The answer's body or header block passed its ``HTTPResponseLimits``, or its
        /// `Content-Length` announced a body that would: reading stopped there.
        case responseTooLarge
    }

    var kind: Kind
    /// What the system said, for messages.
    var detail: String

    /// Creates an error.
    init(_ kind: Kind, detail: String) {
        self.kind = kind
        self.detail = detail
    }

    var description: String { detail }
}
