/// One hop named in `X-Forwarded-For` or in a `Forwarded` element's `for=` (RFC 7239 §6): an
/// address, `unknown`, or an identifier a proxy made up to hide the address.
///
/// Ports are read and dropped: a client's port changes with every connection.
///
/// ```swift
/// HTTPForwardedNode("192.0.2.60:4711")           // .address("192.0.2.60")
/// HTTPForwardedNode("[2001:DB8:cafe::17]:4711")  // .address("2001:db8:cafe::17")
/// HTTPForwardedNode("unknown")                   // .unknown
/// HTTPForwardedNode("_hidden")                   // .obfuscated("_hidden")
/// HTTPForwardedNode("example.com")               // nil
/// ```
enum HTTPForwardedNode: Sendable, Hashable {
    /// An IPv4 or IPv6 address, in its canonical text (see ``IPAddressRange/canonical(_:)``).
    case address(String)
    /// The proxy does not know, or does not tell, where the request came from.
    case unknown
    /// An identifier the proxy gave the client instead of its address (`_` and letters,
    /// digits, `.`, `_`, `-`).
    case obfuscated(String)

    /// Reads a node: `nodename [ ":" port ]` with the node name an IPv4 address, an IPv6
    /// address in brackets (or bare, as some proxies write it in `X-Forwarded-For`), `unknown`
    /// or `_` and an identifier; `nil` for anything else.
    init?(_ text: some StringProtocol) {
        let node = String(text)
        if node.lowercased() == "unknown" {
            self = .unknown
            return
        }
        if let address = IPAddressRange.canonical(node) {
            self = .address(address)
            return
        }
        let (name, port) = Self.splitPort(node)
        if let port, !Self.isPort(port) { return nil }
        if name.hasPrefix("_") {
            guard Self.isObfuscated(name) else { return nil }
            self = .obfuscated(String(name))
            return
        }
        let isBracketed = name.hasPrefix("[") && name.hasSuffix("]")
        guard isBracketed || !name.contains(":"), let address = IPAddressRange.canonical(String(name)) else { return nil }
        self = .address(address)
    }

    /// The node name and the port after its last `:`, if there is a port; an IPv6 address
    /// without brackets has none.
    private static func splitPort(_ node: String) -> (name: Substring, port: Substring?) {
        if node.hasPrefix("["), let close = node.firstIndex(of: "]") {
            let rest = node[node.index(after: close)...]
            guard rest.hasPrefix(":") else { return (node[...], nil) }
            return (node[...close], rest.dropFirst())
        }
        guard let colon = node.lastIndex(of: ":"), node.firstIndex(of: ":") == colon else { return (node[...], nil) }
        return (node[..<colon], node[node.index(after: colon)...])
    }

    /// Whether `text` is a node port: 1 to 5 digits, or an obfuscated port.
    private static func isPort(_ text: Substring) -> Bool {
        if text.hasPrefix("_") { return isObfuscated(text) }
        return (1...5).contains(text.count) && text.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Whether `text` is `_` followed by letters, digits, `.`, `_` or `-` (RFC 7239 §6.3).
    private static func isObfuscated(_ text: Substring) -> Bool {
        text.count > 1 && text.hasPrefix("_")
            && text.dropFirst().allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }
}
