/// The most a transport reads of one server's answer, so that no answer can grow a sync's
/// memory without end: a server that streams a multistatus forever once grew `contacts sync`
/// to 10.7 GB before it gave up.
///
/// A transport stops reading as soon as an answer passes a bound, before keeping the bytes
/// that passed it, and throws ``HTTPTransportError/Kind/responseTooLarge``; a `Content-Length`
/// above ``maximumBodySize`` is refused before any of the body is read. ``HTTPClient`` turns
/// that into `SyncError.Code.responseTooLarge` naming the URL, and never retries it.
///
/// ```swift
/// var limits = HTTPResponseLimits()
/// limits.maximumBodySize = 64 * 1024
/// let transport = CurlTransport(curl: curl, limits: limits)
/// ```
struct HTTPResponseLimits: Sendable, Hashable {
    /// The default ``maximumBodySize``: 256 MiB.
    ///
    /// The largest answer a sync of a 100,000-card book needs is its first `sync-collection`
    /// report, which carries every card with its `address-data` in one multistatus: 65.9 MB
    /// (62.8 MiB, 659 bytes a card) from `contacts serve` for 100,000 people of
    /// `gen_contacts.py` and 5 groups. The `Depth: 1` `PROPFIND` of every ETag is 29.8 MB
    /// (298 bytes a card), and a multiget of 250 cards 0.16 MB. 256 MiB is four times the
    /// largest: room for cards four times as long on average, or for more verbose XML, while
    /// bounding what one answer, and the tree parsed from it, can cost a sync. A first sync
    /// whose report passes it lists the ETags and fetches the cards in batches instead, as
    /// for a server without the report.
    static let defaultMaximumBodySize = 256 * 1024 * 1024
    /// The default ``maximumHeaderBlockSize``: 256 KiB, sixteen times the header block
    /// `contacts serve` accepts from a client, room for long `Set-Cookie`s and proxies' own
    /// fields; a CardDAV answer's header block is a few hundred bytes. (libcurl gives up on
    /// one past 300 KiB by itself.)
    static let defaultMaximumHeaderBlockSize = 256 * 1024

    /// The largest body, in bytes, as received after any `Content-Encoding` is undone (so that
    /// a small compressed answer cannot unpack without end).
    var maximumBodySize = Self.defaultMaximumBodySize
    /// The largest header block, in bytes: every field line with its line end, of every
    /// response of the exchange (a `100 Continue`'s too).
    var maximumHeaderBlockSize = Self.defaultMaximumHeaderBlockSize

    /// The default limits.
    init() {}

    /// Limits with these bounds, for tests that pass them with a small answer.
    init(maximumBodySize: Int, maximumHeaderBlockSize: Int = Self.defaultMaximumHeaderBlockSize) {
        self.maximumBodySize = maximumBodySize
        self.maximumHeaderBlockSize = maximumHeaderBlockSize
    }

    /// A size in bytes for messages, in MiB or KiB (`256 MiB`).
    static func describe(_ bytes: Int) -> String {
        bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0
            ? "\(bytes / (1024 * 1024)) MiB"
            : bytes >= 1024 && bytes % 1024 == 0 ? "\(bytes / 1024) KiB" : "\(bytes) bytes"
    }
}
