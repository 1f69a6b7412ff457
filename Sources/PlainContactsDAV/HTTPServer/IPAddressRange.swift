import Glibc

/// One IP address or a CIDR range of them (`127.0.0.1`, `::1`, `10.0.0.0/8`, `fd00::/8`),
/// matched against a peer's or a forwarded client's address.
///
/// An IPv4 address written as IPv6 (`::ffff:192.0.2.7`) is the IPv4 address: a dual-stack
/// socket reports IPv4 peers that way.
///
/// ```swift
/// let range = IPAddressRange("10.0.0.0/8")
/// range?.contains("10.1.2.3")     // true
/// range?.contains("192.0.2.7")    // false
/// IPAddressRange.canonical("2001:DB8:0::1")   // "2001:db8::1"
/// ```
struct IPAddressRange: Sendable, Hashable, CustomStringConvertible {
    /// The network's bytes: 4 for IPv4, 16 for IPv6; bits past ``prefixLength`` are zero.
    let network: [UInt8]
    /// How many leading bits an address must share with ``network``: 32 or 128 for one address.
    let prefixLength: Int

    /// The range `text` names: an IPv4 or IPv6 address (IPv6 in brackets or not), alone or
    /// followed by `/` and a prefix length; `nil` for anything else, host names among them.
    ///
    /// ```swift
    /// IPAddressRange("[::1]")            // ::1 alone
    /// IPAddressRange("192.0.2.0/24")     // 192.0.2.0 to 192.0.2.255
    /// IPAddressRange("192.0.2.0/33")     // nil
    /// ```
    init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let bytes = Self.bytes(of: String(parts[0])) else { return nil }
        let bits = bytes.count * 8
        var length = bits
        if parts.count == 2 {
            guard let given = Int(parts[1]), parts[1].allSatisfy(\.isASCII), (0...bits).contains(given) else { return nil }
            length = given
        }
        network = Self.masked(bytes, prefixLength: length)
        prefixLength = length
    }

    /// Whether `address` (an address's text, as ``bytes(of:)`` reads it) is in the range.
    ///
    /// ```swift
    /// IPAddressRange("127.0.0.1")?.contains("127.0.0.1")   // true
    /// ```
    func contains(_ address: String) -> Bool {
        guard let bytes = Self.bytes(of: address), bytes.count == network.count else { return false }
        return Self.masked(bytes, prefixLength: prefixLength) == network
    }

    /// The range as it would be written: `10.0.0.0/8`, or the address alone for one address.
    var description: String {
        let address = Self.text(of: network) ?? "?"
        return prefixLength == network.count * 8 ? address : "\(address)/\(prefixLength)"
    }

    /// The bytes of an IPv4 or IPv6 address (IPv6 in brackets or not); an IPv4-mapped IPv6
    /// address gives the 4 bytes of its IPv4 address. `nil` for anything else.
    ///
    /// ```swift
    /// IPAddressRange.bytes(of: "::ffff:192.0.2.7")   // [192, 0, 2, 7]
    /// ```
    static func bytes(of text: String) -> [UInt8]? {
        guard let (_, bytes) = literal(text) else { return nil }
        let mappedPrefix: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]
        return bytes.count == 16 && bytes.starts(with: mappedPrefix) ? Array(bytes[12...]) : bytes
    }

    /// An IPv4 or IPv6 address literal (IPv6 in brackets or not) as written without brackets,
    /// and its 4 or 16 bytes as `inet_pton` reads them; `nil` for anything else.
    ///
    /// ```swift
    /// IPAddressRange.literal("[::1]")   // ("::1", [0, …, 1])
    /// ```
    static func literal(_ text: String) -> (text: String, bytes: [UInt8])? {
        var literal = Substring(text)
        if literal.hasPrefix("["), literal.hasSuffix("]") {
            literal = literal.dropFirst().dropLast()
        }
        guard !literal.isEmpty, literal.utf8.count <= Int(INET6_ADDRSTRLEN) else { return nil }
        let address = String(literal)
        var ipv4 = in_addr()
        if inet_pton(AF_INET, address, &ipv4) == 1 {
            return (address, withUnsafeBytes(of: &ipv4) { Array($0) })
        }
        var ipv6 = in6_addr()
        guard inet_pton(AF_INET6, address, &ipv6) == 1 else { return nil }
        return (address, withUnsafeBytes(of: &ipv6) { Array($0) })
    }

    /// An address in its usual text form (lower case, IPv6 shortened, IPv4-mapped as IPv4),
    /// so that two spellings of one address compare equal; `nil` when `text` is no address.
    ///
    /// ```swift
    /// IPAddressRange.canonical("[2001:DB8::0:1]")   // "2001:db8::1"
    /// ```
    static func canonical(_ text: String) -> String? {
        bytes(of: text).flatMap(Self.text(of:))
    }

    /// The text of 4 or 16 address bytes, as `inet_ntop` writes it.
    private static func text(of bytes: [UInt8]) -> String? {
        var characters = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { source in
            inet_ntop(family, source.baseAddress, &characters, socklen_t(characters.count)) != nil
        }
        guard written else { return nil }
        return String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `bytes` with every bit past the first `prefixLength` cleared.
    private static func masked(_ bytes: [UInt8], prefixLength: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let kept = min(8, max(0, prefixLength - index * 8))
            return kept == 8 ? byte : byte & ~(UInt8(0xFF) >> kept)
        }
    }
}
