import Synchronization

/// How the server treats requests that come through reverse proxies it trusts: it names their
/// client (``HTTPForwardedClient``), and caps the requests one forwarded client has in
/// progress at once.
///
/// A proxy's connections carry every client's requests, so the per-address connection cap
/// (``HTTPServerLimits/maxConnectionsPerAddress``) does not apply to a trusted proxy; instead a
/// forwarded client with ``maxRequestsInFlightPerClient`` requests in progress has the next
/// one answered at once with 503 and `Retry-After`, before its credentials are checked, so that
/// one client sending many requests at once cannot take every connection's thread.
///
/// ```swift
/// let policy = ReverseProxyPolicy(trustedProxies: try TrustedProxies(["127.0.0.1"]))
/// let client = policy.client(of: request) { print($0) }
/// guard policy.enter(client) else { return busy }
/// defer { policy.leave(client) }
/// ```
final class ReverseProxyPolicy: Sendable {
    /// The default ``maxRequestsInFlightPerClient``: 8 is more than the connections a phone's
    /// or a desktop's DAV client opens to one host at once (iOS and DAVx5 use up to 6), and
    /// leaves most of ``HTTPServerLimits/defaultMaxConnections`` (64) to the other clients.
    static let standardMaxRequestsInFlightPerClient = 8

    /// The proxies believed.
    let trustedProxies: TrustedProxies
    /// The most requests one forwarded client may have in progress at once.
    let maxRequestsInFlightPerClient: Int
    /// The requests in progress per forwarded client address.
    private let inFlight = Mutex<[String: Int]>([:])
    /// Whether an unreadable forwarded header was logged already: once per server, so that a
    /// misconfigured proxy does not fill the log.
    private let reportedUnreadableHeader = Atomic<Bool>(false)

    /// A policy trusting `trustedProxies` (none by default: forwarded headers are then
    /// ignored).
    init(
        trustedProxies: TrustedProxies = TrustedProxies(),
        maxRequestsInFlightPerClient: Int = standardMaxRequestsInFlightPerClient
    ) {
        precondition(maxRequestsInFlightPerClient >= 1, "a forwarded client may have at least one request in progress")
        self.trustedProxies = trustedProxies
        self.maxRequestsInFlightPerClient = maxRequestsInFlightPerClient
    }

    /// Who sent `request`; the first time a trusted proxy's forwarded header cannot be read,
    /// says so on `log` (the request then counts as the proxy's own).
    ///
    /// ```swift
    /// let client = policy.client(of: request, log: log)
    /// ```
    func client(of request: HTTPServerRequest, log: (String) -> Void) -> HTTPForwardedClient {
        let client = HTTPForwardedClient(
            headers: request.headers, peerAddress: request.peerAddress, trustedProxies: trustedProxies)
        if let header = client.unreadableHeader,
            reportedUnreadableHeader.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
        {
            log(
                "a \(header) header from the trusted proxy \(request.peerAddress) could not be read; such requests count "
                    + "as the proxy's own (logged once)")
        }
        return client
    }

    /// Counts one more request in progress for a forwarded client; returns `false`, counting
    /// nothing, when it has ``maxRequestsInFlightPerClient`` already. Requests not forwarded
    /// by a trusted proxy are not counted here and always enter.
    func enter(_ client: HTTPForwardedClient) -> Bool {
        guard client.proxy != nil else { return true }
        return inFlight.withLock { counts in
            guard counts[client.address, default: 0] < maxRequestsInFlightPerClient else { return false }
            counts[client.address, default: 0] += 1
            return true
        }
    }

    /// Counts a request of `client` that ``enter(_:)`` let in as finished.
    func leave(_ client: HTTPForwardedClient) {
        guard client.proxy != nil else { return }
        inFlight.withLock { counts in
            let remaining = counts[client.address, default: 1] - 1
            counts[client.address] = remaining > 0 ? remaining : nil
        }
    }
}
