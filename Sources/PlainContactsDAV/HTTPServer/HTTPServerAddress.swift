import Glibc
import PlainContacts

/// An IP address the server listens on, checked with `inet_pton`, or read from a peer's
/// socket address.
///
/// Only literals and `localhost` are accepted: resolving other names would make `start()`
/// wait on DNS and listen on addresses the user did not see.
///
/// ```swift
/// try HTTPServerAddress.addresses(forHost: "localhost")   // 127.0.0.1, then ::1
/// try HTTPServerAddress.addresses(forHost: "[::1]")       // ::1
/// ```
struct HTTPServerAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address family.
    enum Family: Sendable, Hashable {
        /// IPv4 (`AF_INET`).
        case ipv4
        /// IPv6 (`AF_INET6`).
        case ipv6
    }

    /// The family of ``text``.
    var family: Family
    /// The address in its usual text form, without brackets.
    var text: String

    var description: String { text }

    /// The addresses a host stands for: itself for an IPv4 or IPv6 literal (brackets allowed
    /// around IPv6), `127.0.0.1` and `::1` for `localhost`.
    ///
    /// - Throws: ``HTTPServerError/Code/invalidHost`` for anything else.
    static func addresses(forHost host: String) throws(HTTPServerError) -> [HTTPServerAddress] {
        if host.lowercased() == "localhost" {
            return [HTTPServerAddress(family: .ipv4, text: "127.0.0.1"), HTTPServerAddress(family: .ipv6, text: "::1")]
        }
        guard let literal = IPAddressRange.literal(host) else {
            throw HTTPServerError(.invalidHost, "host to listen on is not an IP address literal nor localhost")
        }
        return [HTTPServerAddress(family: literal.bytes.count == 4 ? .ipv4 : .ipv6, text: literal.text)]
    }

    /// The `AF_` constant of the family.
    var domain: Int32 {
        switch family {
        case .ipv4: AF_INET
        case .ipv6: AF_INET6
        }
    }

    /// Calls `body` with this address and `port` as a socket address and its length.
    func withSocketAddress<Result>(port: UInt16, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        switch family {
        case .ipv4:
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            _ = inet_pton(AF_INET, text, &address.sin_addr)
            return withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case .ipv6:
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            _ = inet_pton(AF_INET6, text, &address.sin6_addr)
            return withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
    }

    /// The IP address and port of a socket address filled in by `accept` or `getsockname`;
    /// `nil` for a family other than IPv4 and IPv6.
    static func decode(_ storage: sockaddr_storage) -> (text: String, port: UInt16)? {
        var storage = storage
        return withUnsafePointer(to: &storage) { pointer -> (text: String, port: UInt16)? in
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var ip = address.pointee.sin_addr
                    guard inet_ntop(AF_INET, &ip, &text, socklen_t(text.count)) != nil else { return nil }
                    return (Self.string(fromNulTerminated: text), UInt16(bigEndian: address.pointee.sin_port))
                }
            case AF_INET6:
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var ip = address.pointee.sin6_addr
                    guard inet_ntop(AF_INET6, &ip, &text, socklen_t(text.count)) != nil else { return nil }
                    return (Self.string(fromNulTerminated: text), UInt16(bigEndian: address.pointee.sin6_port))
                }
            default:
                return nil
            }
        }
    }

    /// The text of a C string buffer up to its first NUL.
    private static func string(fromNulTerminated characters: [CChar]) -> String {
        let bytes = characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
