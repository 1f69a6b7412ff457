import PlainContacts

/// Postal addresses as text.
enum AddressText {
    /// The address as lines: the post office box, the extended address and the street lines,
    /// then `City, State ZIP`, then the country.
    static func lines(_ address: PostalAddress) -> [String] {
        var lines = [address.poBox, address.extendedAddress].compactMap(nonEmpty)
        lines += (address.street ?? "").split(separator: "\n").map(String.init)
        let city = [address.city, [address.state, address.zip].compactMap(nonEmpty).joined(separator: " ")]
            .compactMap(nonEmpty).joined(separator: ", ")
        if !city.isEmpty { lines.append(city) }
        if let country = nonEmpty(address.country) { lines.append(country) }
        return lines
    }

    /// The address on one line, its lines joined by `, `.
    static func singleLine(_ address: PostalAddress) -> String {
        lines(address).joined(separator: ", ")
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
