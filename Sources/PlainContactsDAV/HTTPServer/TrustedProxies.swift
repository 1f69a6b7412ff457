import PlainContacts

/// The reverse proxies whose `X-Forwarded-For` and `Forwarded` headers the server believes:
/// what `contacts serve --trusted-proxy` names, each an IPv4 or IPv6 address, a CIDR range, or
/// `localhost` (`127.0.0.1` and `::1`).
///
/// From any other peer those headers are ignored: a client could write anything there.
///
/// ```swift
/// let proxies = try TrustedProxies(["127.0.0.1", "10.0.0.0/8"])
/// proxies.contains("10.9.8.7")     // true
/// proxies.contains("192.0.2.7")    // false
/// ```
package struct TrustedProxies: Sendable, Hashable, CustomStringConvertible {
    /// The addresses and ranges trusted.
    let ranges: [IPAddressRange]

    /// No proxy trusted: forwarded headers are ignored from everyone.
    ///
    /// ```swift
    /// TrustedProxies().isEmpty   // true
    /// ```
    init() {
        ranges = []
    }

    /// The proxies `entries` name, in the order given.
    ///
    /// ```swift
    /// let proxies = try TrustedProxies(["::1", "fd00::/8"])
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/invalidValue`` naming the first entry that is not an IP
    ///   address, a CIDR range nor `localhost` (host names are not resolved: a proxy's address
    ///   must not change behind the server's back).
    package init(_ entries: [String]) throws(ContactsError) {
        var ranges: [IPAddressRange] = []
        for entry in entries {
            if entry.lowercased() == "localhost" {
                ranges += [IPAddressRange("127.0.0.1"), IPAddressRange("::1")].compactMap { $0 }
                continue
            }
            guard let range = IPAddressRange(entry) else {
                throw ContactsError(
                    .invalidValue,
                    "--trusted-proxy \"\(entry)\" is not an IP address nor a CIDR range; give one such as 127.0.0.1, ::1 "
                        + "or 10.0.0.0/8")
            }
            ranges.append(range)
        }
        self.ranges = ranges
    }

    /// Whether no proxy is trusted.
    package var isEmpty: Bool { ranges.isEmpty }

    /// Whether `address` is one of the trusted proxies.
    ///
    /// ```swift
    /// proxies.contains(request.peerAddress)
    /// ```
    func contains(_ address: String) -> Bool {
        ranges.contains { $0.contains(address) }
    }

    /// The proxies as given, separated by commas: `127.0.0.1, 10.0.0.0/8`.
    package var description: String {
        ranges.map(\.description).joined(separator: ", ")
    }
}
