/// A state of the address book that a client can ask for the changes since (RFC 6578): the
/// collection's change number, within one history of the collection (its instance).
///
/// The instance is a random name given when the server first serves a store, or when its record
/// of the collection is lost; a token of another instance names a history the server no longer
/// has, and the client is told to sync afresh.
///
/// ```swift
/// let token = CardDAVSyncToken(instance: "9f3c2a", sequence: 42)
/// token.uri                                            // "data:,plaincontacts-9f3c2a-42"
/// CardDAVSyncToken(uri: token.uri) == token            // true
/// ```
struct CardDAVSyncToken: Sendable, Hashable {
    /// The history the change number belongs to.
    var instance: String
    /// The collection's change number.
    var sequence: UInt64

    /// What every token's URI starts with.
    private static let uriPrefix = "data:,plaincontacts-"

    /// Creates a token.
    init(instance: String, sequence: UInt64) {
        self.instance = instance
        self.sequence = sequence
    }

    /// Reads a token's URI; `nil` for text this server never wrote.
    init?(uri: String) {
        guard uri.hasPrefix(Self.uriPrefix) else { return nil }
        let rest = uri.dropFirst(Self.uriPrefix.count)
        guard let dash = rest.lastIndex(of: "-"), let sequence = UInt64(rest[rest.index(after: dash)...]) else { return nil }
        let instance = String(rest[..<dash])
        guard !instance.isEmpty else { return nil }
        self.init(instance: instance, sequence: sequence)
    }

    /// The token as the `sync-token` property and report give it: a URI, as RFC 6578 asks.
    var uri: String { Self.uriPrefix + instance + "-" + String(sequence) }

    /// The collection's `getctag`: the same state, shorter.
    var ctag: String { instance + "-" + String(sequence) }
}
