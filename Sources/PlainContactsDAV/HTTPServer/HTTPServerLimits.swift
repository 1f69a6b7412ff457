/// The bounds an ``HTTPServer`` holds every client to: sizes, counts and timeouts, each with the
/// status code or action that enforces it.
///
/// The defaults suit a CardDAV server for one person's devices; tests set them small.
///
/// ```swift
/// var limits = HTTPServerLimits()
/// limits.maxBodySize = 1024
/// limits.requestReadTimeout = .milliseconds(200)
/// let server = HTTPServer(host: "127.0.0.1", port: 0, limits: limits, log: { _ in }, handler: handle)
/// ```
struct HTTPServerLimits: Sendable, Hashable {
    /// The default ``maxRequestLineLength``: 8 KiB, the figure RFC 9112 §3 recommends supporting
    /// at least; a CardDAV href is far shorter.
    static let defaultMaxRequestLineLength = 8 * 1024
    /// The default ``maxHeaderBlockSize``: 16 KiB holds the largest header blocks real clients
    /// send (long cookies, `Authorization` with a bearer token) while bounding memory per
    /// connection.
    static let defaultMaxHeaderBlockSize = 16 * 1024
    /// The default ``maxHeaderCount``: 100 is several times what DAV clients send and caps the
    /// work a header block of many tiny fields can cause.
    static let defaultMaxHeaderCount = 100
    /// The default ``maxBodySize``: 16 MiB holds a vCard with a large photo or an address book
    /// imported in one request, and bounds a connection's memory.
    static let defaultMaxBodySize = 16 * 1024 * 1024
    /// The default ``maxConnections``: 64 lets each of a person's devices hold several keep-alive
    /// connections, while capping threads (one per connection) and memory
    /// (at most 64 × ``defaultMaxBodySize`` of bodies).
    static let defaultMaxConnections = 64
    /// The default ``maxConnectionsPerAddress``: 16 is more than a phone, a mail client and a
    /// sync tool of one person open at once, and leaves most of ``defaultMaxConnections`` to
    /// the other clients when one address opens connections and leaves them idle.
    static let defaultMaxConnectionsPerAddress = 16
    /// The default ``unlimitedAddresses``: the loopback addresses, where a reverse proxy
    /// connects from with every client's requests, so that one address is many clients there.
    static let defaultUnlimitedAddresses: Set<String> = ["127.0.0.1", "::1"]
    /// The default ``firstRequestTimeout``: 10 s is ample for a client that opened a connection
    /// to send its request, and frees a connection opened and left silent three times sooner
    /// than an idle keep-alive one.
    static let defaultFirstRequestTimeout = Duration.seconds(10)
    /// The default ``headerBlockTimeout``: a client sends its header block (a few hundred bytes,
    /// at most ``defaultMaxHeaderBlockSize``) in one write as soon as it has connected, so it
    /// arrives within a round trip or two even on a slow mobile link; 10 s leaves room for
    /// several of TCP's retransmissions (the first after 1 s) and is the time the guide gives a
    /// new connection for its first request (as ``defaultFirstRequestTimeout`` does for its
    /// first byte), while a client dribbling its header block (slowloris) holds a connection a
    /// third as long as ``defaultRequestReadTimeout`` would let it.
    static let defaultHeaderBlockTimeout = Duration.seconds(10)
    /// The default ``idleTimeout``: 30 s keeps a connection open across a sync's bursts of
    /// requests, and frees its thread soon after the client has gone quiet.
    static let defaultIdleTimeout = Duration.seconds(30)
    /// The default ``requestReadTimeout``: 30 s is ample for a header block and a body of a few
    /// megabytes on a slow link, and keeps a client that dribbles bytes (slowloris) from holding
    /// a connection for longer.
    static let defaultRequestReadTimeout = Duration.seconds(30)
    /// The default ``writeTimeout``: a client that takes no bytes of a response for 30 s has
    /// gone away or is stalling on purpose.
    static let defaultWriteTimeout = Duration.seconds(30)
    /// The default ``closeLingerTimeout``: 2 s lets a client that was still sending read the
    /// final answer before the kernel resets the connection, without holding a thread for long.
    static let defaultCloseLingerTimeout = Duration.seconds(2)

    /// The longest request line, without its line end, in bytes; a longer one is answered
    /// with 414 (URI Too Long).
    var maxRequestLineLength = Self.defaultMaxRequestLineLength
    /// The largest header block (every field line with its line end, and the empty line that
    /// ends the block), in bytes; a larger one is answered with 431. Chunked trailers get the
    /// same allowance.
    var maxHeaderBlockSize = Self.defaultMaxHeaderBlockSize
    /// The most header fields one request may have; more are answered with 431.
    var maxHeaderCount = Self.defaultMaxHeaderCount
    /// The largest request body, in bytes; a larger `Content-Length` is answered with 413
    /// before any of the body is read, and a chunked body is cut off with 413 as soon as its
    /// chunk sizes pass it.
    var maxBodySize = Self.defaultMaxBodySize
    /// The most connections served at once. When all are taken, the server drops one waiting
    /// for a request to serve the new one: one that never sent a request, oldest first; else
    /// one idle between requests, from the address (or the client a trusted proxy named) that
    /// holds the most, oldest first. Only when none can be dropped (every connection is busy with
    /// a request) is the new one answered with 503 (Service Unavailable, with `Retry-After`)
    /// and closed.
    var maxConnections = Self.defaultMaxConnections
    /// The most connections served at once from one client address; one more is answered with
    /// 503 even when some of the address's are idle, so that one client holding connections
    /// open cannot shut out the others. Addresses in ``unlimitedAddresses`` count only towards
    /// ``maxConnections``.
    var maxConnectionsPerAddress = Self.defaultMaxConnectionsPerAddress
    /// The client addresses ``maxConnectionsPerAddress`` does not apply to: a reverse proxy's,
    /// whose connections carry many clients. Their idle connections are still dropped for new
    /// ones when ``maxConnections`` are taken, so that they cannot hold every slot.
    var unlimitedAddresses = Self.defaultUnlimitedAddresses
    /// More addresses and ranges ``maxConnectionsPerAddress`` does not apply to: the reverse
    /// proxies given with `contacts serve --trusted-proxy`, none by default.
    var unlimitedRanges: [IPAddressRange] = []
    /// How long a new connection may wait for the first byte of its first request before the
    /// server closes it without an answer: a connection that has not yet sent a request gets
    /// less time than ``idleTimeout`` gives one between requests.
    var firstRequestTimeout = Self.defaultFirstRequestTimeout
    /// How long a connection may wait for the first byte of its next request, once it has sent
    /// one, before the server closes it without an answer.
    var idleTimeout = Self.defaultIdleTimeout
    /// How long a request's header block (its request line, every field line and the empty
    /// line that ends them) may take to arrive: a connection's first request must have sent
    /// its whole header block within this time of the connection's opening, a later request
    /// within this time of its own first byte. A slower one is answered with 408 (Request
    /// Timeout) and its connection closed. The body that follows is held to
    /// ``requestReadTimeout`` alone.
    var headerBlockTimeout = Self.defaultHeaderBlockTimeout
    /// How long a request may take to arrive, header block and body together, from its first
    /// byte; a slower one is answered with 408 (Request Timeout) and its connection closed.
    /// Its header block is held to the shorter ``headerBlockTimeout`` too.
    var requestReadTimeout = Self.defaultRequestReadTimeout
    /// How long writing a response may go without progress (the client taking no bytes)
    /// before the server gives up and closes the connection.
    var writeTimeout = Self.defaultWriteTimeout
    /// How long the server keeps reading and discarding after its last response on a closing
    /// connection, so that the client receives that response instead of a reset.
    var closeLingerTimeout = Self.defaultCloseLingerTimeout

    /// Creates the default limits; change the properties to tighten them.
    init() {}
}
