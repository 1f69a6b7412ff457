/// Turns ``VCard`` values into vCard text.
///
/// Each card is written as `BEGIN:VCARD`, `VERSION:…` (omitted when the version is empty), its
/// properties in order, and `END:VCARD`, with CRLF line ends. Lines longer than 75 octets are
/// folded (the continuation starts with one space) without splitting a UTF-8 sequence.
/// Parameter values holding `:`, `;` or `,` are quoted, and `^`, `"` and line breaks in them
/// are written as RFC 6868 caret escapes. Values are written as their ``VCardProperty/rawValue``
/// (build them with ``VCardText``); a line break left in a raw value is written as `\n`.
/// Choosing properties for a vCard version is the caller's task.
///
/// ```swift
/// let card = VCard(version: "3.0", properties: [VCardProperty(name: "FN", text: "Jane Doe")])
/// let text = VCardWriter.serialize([card])
/// // "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Jane Doe\r\nEND:VCARD\r\n"
/// ```
enum VCardWriter {
    /// The longest line in octets, without its CRLF (RFC 6350 section 3.2).
    static let maximumLineLength = 75

    /// Serializes the cards one after another.
    static func serialize(_ cards: [VCard]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(cards.count * 512)
        for card in cards { write(card, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Serializes one card.
    static func serialize(_ card: VCard) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        write(card, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// One property as a single unfolded content line, without line break.
    ///
    /// ```swift
    /// VCardWriter.contentLine(VCardProperty(group: "item1", name: "TEL", parameters: [.type("cell")],
    ///                                       rawValue: "+1 555 0100"))
    /// // "item1.TEL;TYPE=cell:+1 555 0100"
    /// ```
    static func contentLine(_ property: VCardProperty) -> String {
        var line: [UInt8] = []
        appendContentLine(property, to: &line)
        return String(decoding: line, as: UTF8.self)
    }

    /// Appends the card's folded lines to `out`.
    static func write(_ card: VCard, to out: inout [UInt8]) {
        appendFolded(Array("BEGIN:VCARD".utf8), to: &out)
        if !card.version.isEmpty {
            appendFolded(Array("VERSION:\(card.version)".utf8), to: &out)
        }
        var line: [UInt8] = []
        for property in card.properties {
            line.removeAll(keepingCapacity: true)
            appendContentLine(property, to: &line)
            appendFolded(line, to: &out)
        }
        appendFolded(Array("END:VCARD".utf8), to: &out)
    }

    /// Appends `[group.]NAME[;PARAM=values]:value` to `line`, or the property's verbatim line.
    private static func appendContentLine(_ property: VCardProperty, to line: inout [UInt8]) {
        if let verbatim = property.verbatim {
            for byte in VCardText.escapeLineBreaks(verbatim).utf8 { line.append(byte) }
            return
        }
        if let head = property.writtenHead {
            line.append(contentsOf: head.utf8)
            line.append(UInt8(ascii: ":"))
            for byte in VCardText.escapeLineBreaks(property.rawValue).utf8 { line.append(byte) }
            return
        }
        if let group = property.group, !group.isEmpty {
            line.append(contentsOf: group.utf8)
            line.append(UInt8(ascii: "."))
        }
        line.append(contentsOf: property.name.utf8)
        for parameter in property.parameters {
            line.append(UInt8(ascii: ";"))
            line.append(contentsOf: parameter.name.utf8)
            guard !parameter.values.isEmpty else { continue }
            line.append(UInt8(ascii: "="))
            for (index, value) in parameter.values.enumerated() {
                if index > 0 { line.append(UInt8(ascii: ",")) }
                appendParameterValue(value, to: &line)
            }
        }
        line.append(UInt8(ascii: ":"))
        for byte in VCardText.escapeLineBreaks(property.rawValue).utf8 { line.append(byte) }
    }

    /// Appends a parameter value, caret-escaped and quoted when needed.
    private static func appendParameterValue(_ value: String, to line: inout [UInt8]) {
        let needsQuotes = value.utf8.contains { byte in
            byte == UInt8(ascii: ":") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: ",")
        }
        if needsQuotes { line.append(UInt8(ascii: "\"")) }
        var previousWasCR = false
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "^"):
                line.append(contentsOf: [UInt8(ascii: "^"), UInt8(ascii: "^")])
            case UInt8(ascii: "\""):
                line.append(contentsOf: [UInt8(ascii: "^"), UInt8(ascii: "'")])
            case 13:
                line.append(contentsOf: [UInt8(ascii: "^"), UInt8(ascii: "n")])
            case 10:
                if !previousWasCR { line.append(contentsOf: [UInt8(ascii: "^"), UInt8(ascii: "n")]) }
            default:
                line.append(byte)
            }
            previousWasCR = byte == 13
        }
        if needsQuotes { line.append(UInt8(ascii: "\"")) }
    }

    /// Appends `line` folded at ``maximumLineLength`` octets, each piece ended by CRLF.
    /// A fold never falls inside a UTF-8 sequence; a continuation starts with one space.
    static func appendFolded(_ line: [UInt8], to out: inout [UInt8]) {
        var start = 0
        var limit = maximumLineLength
        while line.count - start > limit {
            var end = start + limit
            while end > start + 1, line[end] & 0xC0 == 0x80 { end -= 1 }
            out.append(contentsOf: line[start..<end])
            out.append(contentsOf: [13, 10, UInt8(ascii: " ")])
            start = end
            limit = maximumLineLength - 1
        }
        out.append(contentsOf: line[start...])
        out.append(contentsOf: [13, 10])
    }
}
