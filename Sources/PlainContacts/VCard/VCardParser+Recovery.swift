/// How the parser recovers from what breaks the vCard syntax, as ez-vcard, the Android vCard
/// importer and other lenient readers do, instead of refusing the input.
///
/// | problem | strict | lenient (default) |
/// |---|---|---|
/// | text outside a card | refused | skipped; refused when the input holds no card at all |
/// | `#` comment line, blank line inside a folded value | refused | skipped |
/// | card without `END:VCARD` | refused | ends where the next card begins, or at the end |
/// | `END` naming something else | refused | read as `END:VCARD` |
/// | line without `:`, name with other characters | refused | kept verbatim; dropped when it has no value |
/// | quoted-printable `=` not followed by two hex digits | refused | a literal `=` |
/// | base64 with characters outside the alphabet | refused | those characters removed |
/// | `data:` URI marked `ENCODING=b` | refused | the parameter ignored |
/// | bytes not valid in their charset, unknown charset | refused | read as the likeliest charset |
/// | UTF-16 input | refused | read as UTF-16 (see ``VCardStreamReader``) |
///
/// Each recovery adds one entry, the line and what was done, to ``VCard/recoveries``; an import
/// reports it as a warning with code `malformedVCard`.
extension VCardParser {
    /// Refuses a problem (strict) or notes the recovery (lenient).
    ///
    /// - Parameters:
    ///   - refusal: The error message when strict: what is wrong and how to fix it.
    ///   - warning: The warning when lenient: what is wrong and what was done.
    /// - Throws: `InterchangeError` `.malformedVCard` with `refusal` when strict.
    mutating func recover(refusal: String, warning: String, line: Int) throws {
        if isStrict { throw error(refusal, line: line) }
        note(warning, line: line)
    }

    /// Notes a recovery, made without asking ``isStrict``: the caller only gets here when lenient.
    mutating func note(_ warning: String, line: Int) {
        recoveries.append(VCard.Recovery(message: warning, line: line))
    }

    /// Handles a line outside a card that is not `BEGIN:VCARD`: refused, or skipped.
    /// One warning covers the lines skipped up to the next card.
    mutating func skipOutsideCard(_ number: Int) throws {
        if firstSkippedLine == nil { firstSkippedLine = number }
        guard !isSkippingText else { return }
        try recover(
            refusal: "Text outside a vCard; remove it, or put it between BEGIN:VCARD and END:VCARD.",
            warning: "Text outside a vCard was skipped, from this line to the next BEGIN:VCARD.",
            line: number)
        isSkippingText = true
    }

    /// Handles a line of a card that cannot be split into name, parameters and value: refused,
    /// or kept verbatim among the card's properties (dropped when it holds no value).
    mutating func keepUnreadableLine(
        _ line: UnsafeBufferPointer<UInt8>, failure: VCardContentLine.Failure, number: Int
    ) throws {
        let (refusal, problem) = Self.messages(for: failure)
        guard Self.holdsValue(line) else {
            try recover(refusal: refusal, warning: problem + "; the line holds no value and was dropped.", line: number)
            return
        }
        guard line.count <= Self.maximumTextValueBytes else {
            try recover(
                refusal: refusal,
                warning: problem + "; the line is longer than \(Self.maximumTextValueBytes) bytes and was dropped.",
                line: number)
            return
        }
        try recover(refusal: refusal, warning: problem + "; the line was kept as written.", line: number)
        properties.append(VCardProperty(verbatimLine: VCardCharset.decodeGuessing(line).text, line: number))
    }

    /// Whether an unreadable line holds a value: text after its first `:`, or, without `:`,
    /// anything but a bare name with parameters (`FN`, `TEL;CELL`).
    private static func holdsValue(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            return line[(colon + 1)...].contains { !isWhitespace($0) }
        }
        guard let first = line.firstIndex(where: { !isWhitespace($0) }),
            let last = line.lastIndex(where: { !isWhitespace($0) })
        else { return false }
        return line[first...last].contains { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ","), UInt8(ascii: "\""):
                false
            default:
                true
            }
        }
    }

    /// The error message when strict, and the problem a warning names when lenient.
    private static func messages(for failure: VCardContentLine.Failure) -> (refusal: String, problem: String) {
        switch failure {
        case .noColon:
            ("The line has no ':' after the property name; write NAME:value, and start a continuation "
                + "line with a space.", "The line has no ':' after the property name")
        case .invalidName:
            ("The property name may hold only letters, digits and '-', with an optional group before a "
                + "dot (item1.TEL); fix or remove the line.",
             "The property name holds characters other than letters, digits and '-'")
        case .unterminatedQuote:
            ("A parameter value opens a double quote that is never closed; add the closing quote.",
             "A parameter value opens a double quote that is never closed")
        }
    }

    // MARK: Values

    /// In a vCard 2.1 card, where a backslash is literal except before `;` and in the line
    /// break `\n` (or `\N`) that Nokia phones and gammu write in a `NOTE`, the text with the
    /// literal backslashes doubled, so that unescaping as in 3.0 and 4.0 gives them back.
    func literalBackslashes(_ text: String) -> String {
        guard version == "2.1", text.utf8.contains(Self.backslash) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 4)
        var bytes = text.utf8.makeIterator()
        var pending = bytes.next()
        while let byte = pending {
            pending = bytes.next()
            out.append(byte)
            if byte == Self.backslash, !Self.escapedIn21.contains(pending ?? 0) { out.append(Self.backslash) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The characters a backslash escapes in vCard 2.1: `;`, and `n` and `N` for a line break.
    private static let escapedIn21: Set<UInt8> = [UInt8(ascii: ";"), UInt8(ascii: "n"), UInt8(ascii: "N")]

    /// The text of a base64 value without white space. Characters outside the base64 alphabet
    /// are refused, or removed; a `data:` URI marked base64 loses the marking parameter.
    mutating func base64Text(
        _ value: UnsafeBufferPointer<UInt8>, parameters: inout [VCardParameter], number: Int
    ) throws -> String {
        let text = value.filter { !Self.isWhitespace($0) }
        if VCardBase64.isDataURI(text) {
            try recover(
                refusal: "The value is a data: URI, which is not base64 text; remove the ENCODING parameter.",
                warning: "The data: URI value is marked as base64; the ENCODING parameter was ignored.",
                line: number)
            parameters.removeAll { VCardBase64.isBase64Parameter($0) }
            return try repairedDataURI(String(decoding: text, as: UTF8.self), number: number)
        }
        let (cleaned, removed) = VCardBase64.cleaned(text[...])
        if removed > 0 { try recoverBase64(removed: removed, number: number) }
        return String(decoding: cleaned, as: UTF8.self)
    }

    /// A `data:` URI value with its base64 payload cleaned as ``base64Text(_:parameters:number:)``
    /// cleans a base64 value; any other value as it is.
    mutating func repairedDataURI(_ value: String, number: Int) throws -> String {
        let bytes = Array(value.utf8)
        guard VCardBase64.isDataURI(bytes), let comma = bytes.firstIndex(of: UInt8(ascii: ",")),
            VCardBase64.declaresBase64(bytes[..<comma])
        else { return value }
        let (cleaned, removed) = VCardBase64.cleaned(bytes[(comma + 1)...].filter { !Self.isWhitespace($0) }[...])
        guard removed > 0 else { return value }
        try recoverBase64(removed: removed, number: number)
        return String(decoding: bytes[...comma] + cleaned, as: UTF8.self)
    }

    private mutating func recoverBase64(removed: Int, number: Int) throws {
        try recover(
            refusal: "The base64 value holds characters outside the base64 alphabet; fix or remove the property.",
            warning: "The base64 value held \(removed) characters outside the base64 alphabet; they were removed.",
            line: number)
    }

    private static let backslash = UInt8(ascii: "\\")
}
