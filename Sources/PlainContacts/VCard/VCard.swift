/// One vCard at the syntax level: its version and its properties in order.
///
/// `BEGIN`, `END` and `VERSION` are not in ``properties``; the writer produces them.
///
/// ```swift
/// let cards = try VCardReader.parse(data, source: "contacts.vcf")
/// for card in cards {
///     let name = card.first(named: "FN")?.text
///     for tel in card.properties(named: "TEL") {
///         let label = card.label(for: tel)   // item1.X-ABLabel, if any
///     }
/// }
/// ```
package struct VCard: Sendable, Hashable {
    /// The `VERSION` value as written (`2.1`, `3.0`, `4.0`); empty when the card has none.
    var version: String
    /// The properties in the order written, without `BEGIN`, `END` and `VERSION`.
    var properties: [VCardProperty]
    /// The 1-based line of the input holding `BEGIN:VCARD`; 0 for a card not read from text.
    var startLine: Int
    /// The properties the reader left out of this card because their values were too long
    /// (see ``VCardParser/maximumTextValueBytes``).
    var leftOut: [LeftOutProperty] = []
    /// Whether the card ended with an `END` line; `false` for one a lenient reader ended at the
    /// next `BEGIN:VCARD` or at the end of the input.
    var hasEnd = true
    /// What the reader recovered from in this card, and in the lines between it and the next
    /// card, one entry per recovery; empty when the input was read strictly.
    var recoveries: [Recovery] = []

    /// The warnings to report for this card, in the order of their lines: the properties left
    /// out, and the recoveries (code ``PlainContactsError/Code/malformedVCard``, saying what was done).
    func warnings(source: String) -> [InterchangeError] {
        let all = leftOut.map { ($0.line, $0.warning(source: source)) }
            + recoveries.map { ($0.line, $0.warning(source: source)) }
        return all.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// A problem the reader recovered from.
    struct Recovery: Sendable, Hashable {
        /// What was wrong and what was done, naming no value.
        var message: String
        /// The 1-based line of the input at fault.
        var line: Int

        /// The warning to report, naming the input and the line.
        func warning(source: String) -> InterchangeError {
            InterchangeError(.malformedVCard, message, path: source, line: line)
        }
    }

    /// A property left out of a card because its value was too long.
    struct LeftOutProperty: Sendable, Hashable {
        /// The property name in upper case.
        var name: String
        /// The length of its value as written, in bytes.
        var byteCount: Int
        /// The 1-based line where it starts.
        var line: Int

        /// The warning to report, naming the input and the line; never the value.
        func warning(source: String) -> InterchangeError {
            InterchangeError(
                .oversizedValue,
                "the \(name) value is \(byteCount) bytes, over the limit of \(VCardParser.maximumTextValueBytes) "
                    + "bytes for a text value; the property was left out",
                path: source, line: line)
        }
    }

    /// Creates a card.
    init(version: String, properties: [VCardProperty] = [], startLine: Int = 0) {
        self.version = version
        self.properties = properties
        self.startLine = startLine
    }

    /// The properties with this name (matched case-insensitively), in order.
    package func properties(named name: String) -> [VCardProperty] {
        let wanted = VCardText.asciiUppercased(name)
        return properties.filter { $0.name == wanted }
    }

    /// The first property with this name (matched case-insensitively), if any.
    func first(named name: String) -> VCardProperty? {
        let wanted = VCardText.asciiUppercased(name)
        return properties.first { $0.name == wanted }
    }

    /// The properties of a group such as `item1` (matched case-insensitively), in order.
    func properties(inGroup group: String) -> [VCardProperty] {
        let wanted = VCardText.asciiUppercased(group)
        return properties.filter { property in
            guard let propertyGroup = property.group else { return false }
            return VCardText.asciiUppercased(propertyGroup) == wanted
        }
    }

    /// The Apple-style custom label of a grouped property: the unescaped value of the
    /// `X-ABLABEL` property in the same group, or `nil` when the property has no group or
    /// the group has no label.
    ///
    /// ```swift
    /// // item1.TEL:+1 555 0100
    /// // item1.X-ABLabel:Summer house
    /// card.label(for: tel)   // "Summer house"
    /// ```
    func label(for property: VCardProperty) -> String? {
        guard let group = property.group else { return nil }
        return properties(inGroup: group).first { $0.name == "X-ABLABEL" }?.text
    }
}
