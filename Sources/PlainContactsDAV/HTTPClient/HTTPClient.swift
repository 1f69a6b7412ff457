import Foundation
import PlainContacts

/// Sends requests to a CardDAV server the way a sync needs: with HTTP Basic authentication,
/// following redirects itself, retrying with exponential backoff what may pass (no connection,
/// timeouts, 5xx, 429), and turning what will not pass into ``ContactsError``s that name the URL.
///
/// Redirects keep the method, body and credentials only while they stay on the request's origin
/// (scheme, host and port); a `303`, or a redirect to another origin, becomes a plain `GET`
/// without credentials. 4xx answers are never retried: they come back to the caller, except
/// `401` and `403`, which throw. An answer larger than its transport reads
/// (``HTTPResponseLimits``) throws at once, never retried.
///
/// ```swift
/// let client = HTTPClient(transport: CurlTransport.standard(), credentials: credentials)
/// let response = try client.send(HTTPRequest(method: "PROPFIND", url: url, headers: ["Depth": "0"]))
/// ```
struct HTTPClient: Sendable {
    /// How many redirects one request may follow: more means a loop or a misconfigured server.
    static let maximumRedirects = 5
    /// How many times one request is sent before the server counts as unavailable.
    static let maximumAttempts = 4
    /// The wait before the first retry, doubled before each next one (0.5, 1, 2 seconds).
    static let initialRetryDelay: TimeInterval = 0.5
    /// The longest `Retry-After` of a `429` that is waited for; a longer one fails at once, as a
    /// sync should not hang for minutes.
    static let maximumRetryAfter: TimeInterval = 10

    /// Carries the requests.
    var transport: any HTTPTransport
    /// The user and password sent to the request's origin, or `nil` for none.
    var credentials: RemoteCredentials?
    /// Waits between retries; tests pass one that records instead of sleeping.
    var wait: @Sendable (TimeInterval) -> Void
    /// How long the requests were in flight.
    let waited = ServerWaitTime()

    /// Creates a client.
    init(
        transport: any HTTPTransport, credentials: RemoteCredentials?,
        wait: @escaping @Sendable (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) }
    ) {
        self.transport = transport
        self.credentials = credentials
        self.wait = wait
    }

    /// Sends a request, following redirects and retrying, and returns the final response.
    ///
    /// - Parameter handled: statuses the caller reads itself instead of the errors below (such as
    ///   `403` for a `sync-collection` report, which means a stale token).
    /// - Throws: `SyncError.Code.readOnly` on a `403` with `DAV:need-privileges`;
    ///   `SyncError.Code.authenticationFailed` on another `401` or `403`;
    ///   `SyncError.Code.serverUnavailable` when the server cannot be reached, times out or
    ///   answers 5xx or 429 after every attempt, or redirects too often;
    ///   `SyncError.Code.responseTooLarge`, without retrying, when an answer passes the
    ///   transport's ``HTTPResponseLimits``.
    func send(_ request: HTTPRequest, handling handled: Set<Int> = []) throws -> HTTPResponse {
        let origin = Self.origin(of: request.url)
        var current = request
        for _ in 0...Self.maximumRedirects {
            var outgoing = current
            if let credentials, Self.origin(of: current.url) == origin {
                outgoing.headers["Authorization"] = credentials.basicAuthorization
            }
            var response = try sendRetrying(outgoing)
            response.url = current.url
            if handled.contains(response.status) { return response }
            if response.status == 403, Self.lacksPrivileges(response) {
                throw SyncError(
                    .readOnly, "the server refused the change: the account may only read this address book (HTTP 403)",
                    path: Self.describe(current.url))
            }
            if response.status == 401 || response.status == 403 {
                throw SyncError(.authenticationFailed, "the server refused the credentials (HTTP \(response.status))",
                    path: Self.describe(current.url))
            }
            guard Self.redirectStatuses.contains(response.status), let location = response.header("Location"),
                let next = URL(string: location, relativeTo: current.url)?.absoluteURL
            else { return response }
            current = Self.redirected(current, to: next, status: response.status, origin: origin)
        }
        throw SyncError(.serverUnavailable, "the server redirected more than \(Self.maximumRedirects) times",
            path: Self.describe(request.url))
    }

    /// Whether a 403 says that the account lacks a privilege (a `DAV:error` holding
    /// `DAV:need-privileges`, RFC 3744 section 7.1.1), rather than refusing its credentials.
    static func lacksPrivileges(_ response: HTTPResponse) -> Bool {
        guard let error = try? WebDAVXML.parse(response.body, maximumDepth: 8), error.name == .dav("error") else { return false }
        return error.child(.dav("need-privileges")) != nil
    }

    /// The statuses that carry a `Location` to follow.
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The request to send after a redirect: the same one on the same origin, else a `GET`
    /// without a body (credentials are only ever added for the first request's origin).
    static func redirected(_ request: HTTPRequest, to url: URL, status: Int, origin: String) -> HTTPRequest {
        if status != 303 && Self.origin(of: url) == origin {
            var next = request
            next.url = url
            return next
        }
        return HTTPRequest(method: "GET", url: url)
    }

    /// Sends one request up to ``maximumAttempts`` times while it fails in a way that may pass.
    private func sendRetrying(_ request: HTTPRequest) throws -> HTTPResponse {
        var attempt = 1
        while true {
            var failure: String
            var delay = Self.initialRetryDelay * pow(2, Double(attempt - 1))
            do {
                let began = waited.begin()
                let sent = Result { try transport.send(request) }
                waited.end(began)
                let response = try sent.get()
                guard response.status >= 500 || response.status == 429 else { return response }
                failure = "HTTP \(response.status)"
                if response.status == 429 {
                    guard let after = Self.retryAfter(response), after <= Self.maximumRetryAfter else {
                        throw SyncError(.serverUnavailable, "the server asked to wait before trying again (HTTP 429)",
                            path: Self.describe(request.url))
                    }
                    delay = max(delay, after)
                }
            } catch let error as HTTPTransportError {
                // The same answer would come again, as large, and be read up to the bound again.
                guard error.kind != .responseTooLarge else {
                    throw SyncError(.responseTooLarge, "the server's answer is larger than a sync reads: \(error.detail)",
                        path: Self.describe(request.url))
                }
                failure = error.kind == .timedOut ? "timed out" : "could not connect (\(error.detail))"
            }
            guard attempt < Self.maximumAttempts else {
                throw SyncError(.serverUnavailable, "the server is unavailable: \(failure) after \(attempt) attempts",
                    path: Self.describe(request.url))
            }
            wait(delay)
            attempt += 1
        }
    }

    /// A `Retry-After` given in seconds, or `nil` (an HTTP date is not waited for).
    static func retryAfter(_ response: HTTPResponse) -> TimeInterval? {
        response.header("Retry-After").flatMap { TimeInterval($0.trimmingWhitespaceAndNewlines) }
    }

    /// The scheme, host and port of a URL, compared to decide where credentials may go.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }

    /// A URL for messages: without any user name or password written into it.
    static func describe(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return "the server" }
        components.user = nil
        components.password = nil
        return components.string ?? "the server"
    }
}
