/// Who a request is from: the client a trusted reverse proxy names in `X-Forwarded-For` (or,
/// without one, `Forwarded`), else the peer that connected.
///
/// Only a peer in ``TrustedProxies`` is believed. Its header is read from the right: the
/// right-most hop that is not itself a trusted proxy is the client, since every hop to its
/// right was added by a proxy the server trusts, and everything to its left was written by the
/// client or by proxies nobody vouches for. `X-Forwarded-For` is preferred because Caddy,
/// nginx, Apache, HAProxy and Traefik all set it, while most of them pass a client's
/// `Forwarded` through untouched.
///
/// When the hop reached is `unknown` or cannot be read, or the proxy sends neither header, the
/// request counts as the nearest trusted proxy's own (``proxy`` is then `nil`).
///
/// ```swift
/// let proxies = try TrustedProxies(["127.0.0.1"])
/// let headers: HTTPHeaderFields = ["X-Forwarded-For": "198.51.100.9, 203.0.113.7"]
/// let client = HTTPForwardedClient(headers: headers, peerAddress: "127.0.0.1", trustedProxies: proxies)
/// client.address   // "203.0.113.7"
/// client.proxy     // "127.0.0.1"
/// ```
struct HTTPForwardedClient: Sendable, Hashable {
    /// The client's address (or the identifier a proxy gave it), the peer's when no trusted
    /// proxy names another client.
    var address: String
    /// The trusted proxy the request came through, when it named a client; `nil` otherwise.
    var proxy: String?
    /// The header a trusted proxy sent that could not be read where it mattered
    /// (`Forwarded`, `X-Forwarded-For`); `nil` when there was none.
    var unreadableHeader: String?

    /// Works out who sent a request that came from `peerAddress` with `headers`.
    init(headers: HTTPHeaderFields, peerAddress: String, trustedProxies: TrustedProxies) {
        self.init(address: peerAddress)
        guard !trustedProxies.isEmpty, trustedProxies.contains(peerAddress) else { return }
        let hops: [HTTPForwardedNode?]
        let header: String
        let forwardedFor = headers.values(for: "X-Forwarded-For")
        let forwarded = headers.values(for: "Forwarded")
        if !forwardedFor.isEmpty {
            (hops, header) = (HTTPForwardedHeaders.xForwardedForHops(forwardedFor), "X-Forwarded-For")
        } else if !forwarded.isEmpty {
            guard let read = HTTPForwardedHeaders.forwardedHops(forwarded) else {
                unreadableHeader = "Forwarded"
                return
            }
            (hops, header) = (read, "Forwarded")
        } else {
            return
        }
        for hop in hops.reversed() {
            switch hop {
            case .address(let hopAddress)? where trustedProxies.contains(hopAddress):
                address = hopAddress
            case .address(let client)?, .obfuscated(let client)?:
                (address, proxy) = (client, peerAddress)
                return
            case .unknown?:
                return
            case nil:
                unreadableHeader = header
                return
            }
        }
    }

    /// A request from `address` itself, through no proxy.
    init(address: String) {
        self.address = address
    }

    /// What the log line of a request says about its client: `for 203.0.113.7 via 127.0.0.1`
    /// when it came through a trusted proxy; `nil` otherwise (the log names no address then).
    var logNote: String? {
        proxy.map { "for \(address) via \($0)" }
    }
}
