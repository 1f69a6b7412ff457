extension PostalAddress {
    /// The address as lines, as a label shows it: the post office box, the extended address
    /// and the street's lines, then `City, State ZIP`, then the country; empty parts left out.
    ///
    /// ```swift
    /// PostalAddress(street: "1 Main St", city: "Springfield", state: "IL", zip: "62701").formattedLines
    /// // ["1 Main St", "Springfield, IL 62701"]
    /// ```
    public var formattedLines: [String] {
        var lines = [poBox, extendedAddress].compactMap(Self.nonEmpty)
        lines += (street ?? "").split(separator: "\n").map(String.init)
        let city = [city, [state, zip].compactMap(Self.nonEmpty).joined(separator: " ")]
            .compactMap(Self.nonEmpty).joined(separator: ", ")
        if !city.isEmpty { lines.append(city) }
        if let country = Self.nonEmpty(country) { lines.append(country) }
        return lines
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
