import PlainContacts

/// An error of the HTTP server: a request it refuses (with the status code it answers), or a
/// failure to start listening.
///
/// Messages name what was wrong with a request, never a header's value or a body, so that logs
/// do not leak credentials or contact data.
///
/// ```swift
/// if case .failure(let error) = parser.next(), error.code == .bodyTooLarge {
///     print(error.status ?? 0)   // 413
/// }
/// ```
struct HTTPServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, extensible identifier of what went wrong.
    struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        var rawValue: String

        /// Creates a code.
        init(rawValue: String) {
            self.rawValue = rawValue
        }

        var description: String { rawValue }

        /// The request breaks HTTP/1.1 syntax or framing rules (answered with 400).
        static let badRequest = Code(rawValue: "badRequest")
        /// The request line is longer than ``HTTPServerLimits/maxRequestLineLength`` (414).
        static let requestLineTooLong = Code(rawValue: "requestLineTooLong")
        /// The header block or the trailers pass ``HTTPServerLimits/maxHeaderBlockSize`` (431).
        static let headerBlockTooLarge = Code(rawValue: "headerBlockTooLarge")
        /// The request has more fields than ``HTTPServerLimits/maxHeaderCount`` (431).
        static let tooManyHeaders = Code(rawValue: "tooManyHeaders")
        /// The body passes ``HTTPServerLimits/maxBodySize`` (413).
        static let bodyTooLarge = Code(rawValue: "bodyTooLarge")
        /// The request uses a transfer coding other than `chunked` (501).
        static let unsupportedTransferCoding = Code(rawValue: "unsupportedTransferCoding")
        /// The request's HTTP version is well formed but neither 1.0 nor 1.1 (505).
        static let unsupportedVersion = Code(rawValue: "unsupportedVersion")
        /// The request's `Expect` header asks for something other than `100-continue` (417).
        static let unsupportedExpectation = Code(rawValue: "unsupportedExpectation")
        /// The request did not arrive within ``HTTPServerLimits/requestReadTimeout`` (408).
        static let requestTimedOut = Code(rawValue: "requestTimedOut")
        /// The request's header block did not arrive within
        /// ``HTTPServerLimits/headerBlockTimeout`` (408).
        static let headerBlockTimedOut = Code(rawValue: "headerBlockTimedOut")
        /// The host to listen on is not an IPv4 or IPv6 literal, nor `localhost`.
        static let invalidHost = Code(rawValue: "invalidHost")
        /// Creating, binding or listening on the socket, or starting the accept thread, failed;
        /// ``HTTPServerError/underlying`` says why.
        static let listenFailed = Code(rawValue: "listenFailed")
        /// ``HTTPServer/start()`` was called on a server that was already started or stopped.
        static let alreadyStarted = Code(rawValue: "alreadyStarted")
        /// The sockets or the thread an ``HTTPServerSignalWatch`` needs could not be made.
        static let signalWatchFailed = Code(rawValue: "signalWatchFailed")
    }

    /// What went wrong, as a stable code.
    var code: Code
    /// One sentence describing the failure; never holds a header's value or a body.
    var message: String
    /// The status code the server answers a refused request with; `nil` for errors that are
    /// not about a request.
    var status: Int?
    /// The failed system call and its `errno`, such as `bind` and `EADDRINUSE` for
    /// ``Code/listenFailed``.
    var underlying: SystemCallError?

    /// Creates an error.
    init(_ code: Code, _ message: String, status: Int? = nil, underlying: SystemCallError? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.underlying = underlying
    }

    var description: String {
        var text = message
        if let status { text += " (\(status))" }
        if let underlying { text += " (\(underlying))" }
        return text
    }
}

extension HTTPServerError {
    /// A request refused with 400 (Bad Request).
    static func badRequest(_ message: String) -> HTTPServerError {
        HTTPServerError(.badRequest, message, status: 400)
    }
}
