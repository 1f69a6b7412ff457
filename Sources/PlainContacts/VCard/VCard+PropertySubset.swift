import FoundationEssentials

/// A card cut down to some of its properties: what a CardDAV server gives as a card's
/// `address-data` when the request names the properties it wants (RFC 6352 section 10.4.2).
extension VCard {
    /// The first card of `data` with only the properties named in `names` (matched
    /// case-insensitively) besides its version, as vCard text; `nil` when `data` holds no card
    /// the reader can read.
    ///
    /// ```swift
    /// let card = Data("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Jane Doe\r\nEMAIL:jane@example.com\r\nEND:VCARD\r\n".utf8)
    /// VCard.firstCard(in: card, keepingPropertiesNamed: ["email"])
    /// // "BEGIN:VCARD\r\nVERSION:3.0\r\nEMAIL:jane@example.com\r\nEND:VCARD\r\n"
    /// ```
    package static func firstCard(in data: Data, keepingPropertiesNamed names: Set<String>) -> Data? {
        guard var card = try? VCardReader.parse(data, source: "").first else { return nil }
        let wanted = Set(names.map(VCardText.asciiUppercased))
        card.properties = card.properties.filter { wanted.contains($0.name) }
        return Data(VCardWriter.serialize(card).utf8)
    }
}
