/// Assembles vCards from physical lines, one line at a time.
///
/// It unfolds continuation lines (a line starting with a space or tab continues the previous
/// one, minus that one character), joins quoted-printable soft line breaks (a quoted-printable
/// value ending in `=` continues on the next line as written), joins vCard 2.1 base64 lines
/// that are not indented, checks the `BEGIN:VCARD` / `END:VCARD` structure and decodes values.
/// A card nested in an `AGENT` property (vCard 2.1) becomes that property's escaped value.
///
/// Since a line can only be complete once the next one is seen, a card is returned by the
/// call that feeds the line after its `END:VCARD`, or by ``finish()``.
struct VCardParser {
    /// The file name used in errors.
    let source: String

    /// The logical line being assembled.
    private var logical: [UInt8] = []
    /// Where each physical line of ``logical`` begins: offset in ``logical`` and line number.
    private var segments: [(offset: Int, line: Int)] = []
    /// The encoding of ``logical``, once looked up.
    private var logicalEncoding: VCardContentLine.Encoding?

    /// The line of the open card's `BEGIN:VCARD`, or 0 outside a card.
    private var cardStart = 0
    /// The open card's `VERSION`, once seen.
    private var version: String?
    /// The open card's properties so far.
    private var properties: [VCardProperty] = []
    /// The open card's properties left out so far.
    private var leftOut: [VCard.LeftOutProperty] = []

    /// The longest text value a property may have, in bytes as written: 64 KiB, sixteen times
    /// a long note, so that a card cannot make every later step (names, keys, search words,
    /// the record file) work on megabytes. A longer property is left out of its card with a
    /// warning. Binary values (base64 `ENCODING`, and `PHOTO`, `LOGO`, `SOUND`, `KEY`, which
    /// vCard 4 writes as `data:` URIs) are not text and are not limited here.
    static let maximumTextValueBytes = 65_536
    /// How many `BEGIN:VCARD` lines of a nested `AGENT` card are open.
    private var agentDepth = 0
    /// The logical lines of the nested `AGENT` card so far.
    private var agentLines: [String] = []

    /// Creates a parser; `source` names the input in errors.
    init(source: String) {
        self.source = source
    }

    /// Feeds one physical line (without its line break) and its 1-based number.
    /// Returns a card when the line completes one.
    /// - Throws: `ContactsError` `.malformedVCard` for a line that breaks the vCard syntax.
    mutating func consume(_ line: UnsafeBufferPointer<UInt8>, number: Int) throws -> VCard? {
        if !segments.isEmpty {
            if logical.last == Self.equals, !line.isEmpty, encodingOfLogicalLine() == .quotedPrintable,
                !Self.isEndLine(line)
            {
                logical.removeLast()
                append(line, number: number)
                return nil
            }
            if let first = line.first, first == Self.space || first == Self.tab {
                append(UnsafeBufferPointer(rebasing: line.dropFirst()), number: number)
                return nil
            }
            if !line.isEmpty, Self.isBase64Text(line), encodingOfLogicalLine() == .base64 {
                append(line, number: number)
                return nil
            }
        }
        let card = try completeLogicalLine()
        if !line.isEmpty { append(line, number: number) }
        return card
    }

    /// Ends the input: completes the last line and checks that no card is left open.
    /// Returns the last card when the final line completes it.
    /// - Throws: `ContactsError` `.malformedVCard` when a card has no `END:VCARD`.
    mutating func finish() throws -> VCard? {
        let card = try completeLogicalLine()
        if cardStart != 0 {
            throw error(
                "The vCard that begins here has no END:VCARD; add END:VCARD after its last property.",
                line: cardStart
            )
        }
        return card
    }

    // MARK: - Logical lines

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, number: Int) {
        segments.append((logical.count, number))
        logical.append(contentsOf: bytes)
    }

    /// The encoding the logical line's parameters declare (`.plain` when it cannot be parsed).
    private mutating func encodingOfLogicalLine() -> VCardContentLine.Encoding {
        if let logicalEncoding { return logicalEncoding }
        let encoding = logical.withUnsafeBufferPointer { bytes in
            (try? VCardContentLine.parse(bytes).get())?.encoding ?? .plain
        }
        logicalEncoding = encoding
        return encoding
    }

    /// Handles the assembled logical line, if any, and starts afresh.
    private mutating func completeLogicalLine() throws -> VCard? {
        guard let first = segments.first else { return nil }
        var bytes: [UInt8] = []
        swap(&bytes, &logical)
        defer {
            bytes.removeAll(keepingCapacity: true)
            logical = bytes
            segments.removeAll(keepingCapacity: true)
            logicalEncoding = nil
        }
        if bytes.allSatisfy({ $0 == Self.space || $0 == Self.tab }) { return nil }
        return try bytes.withUnsafeBufferPointer { line in
            if agentDepth > 0 {
                continueAgent(line)
                return nil
            }
            return try handle(line, number: first.line)
        }
    }

    // MARK: - Content lines

    private mutating func handle(_ line: UnsafeBufferPointer<UInt8>, number: Int) throws -> VCard? {
        let content: VCardContentLine
        switch VCardContentLine.parse(line) {
        case .success(let parsed):
            content = parsed
        case .failure(let failure):
            guard cardStart != 0 else { throw outsideCard(number) }
            throw error(Self.message(for: failure), line: number)
        }
        let value = UnsafeBufferPointer(rebasing: line[content.valueStart...])
        guard cardStart != 0 else {
            guard content.name == "BEGIN", Self.isWord("VCARD", value) else { throw outsideCard(number) }
            cardStart = number
            leftOut = []
            return nil
        }
        switch content.name {
        case "BEGIN" where Self.isWord("VCARD", value):
            if let last = properties.last, last.name == "AGENT", last.rawValue.isEmpty {
                agentDepth = 1
                agentLines = ["BEGIN:VCARD"]
                return nil
            }
            throw error(
                "BEGIN:VCARD starts a new vCard before the one that begins on line \(cardStart) has ended; "
                    + "add END:VCARD before this line.",
                line: number
            )
        case "END":
            guard Self.isWord("VCARD", value) else {
                throw error(
                    "This END does not close the vCard that begins on line \(cardStart); write END:VCARD.",
                    line: number
                )
            }
            var card = VCard(version: version ?? "", properties: properties, startLine: cardStart)
            card.leftOut = leftOut
            leftOut = []
            cardStart = 0
            version = nil
            properties = []
            properties.reserveCapacity(card.properties.count)
            return card
        case "VERSION" where version == nil:
            version = String(VCardText.trimmingWhitespace(Substring(String(decoding: value, as: UTF8.self))))
            return nil
        default:
            if value.count > Self.maximumTextValueBytes, !Self.holdsBinaryData(content) {
                leftOut.append(VCard.LeftOutProperty(name: content.name, byteCount: value.count, line: number))
                return nil
            }
            properties.append(try makeProperty(content, value: value, number: number))
            return nil
        }
    }

    /// Whether a property's value is binary data rather than text (see ``maximumTextValueBytes``).
    private static func holdsBinaryData(_ content: VCardContentLine) -> Bool {
        if content.encoding == .base64 { return true }
        return ["PHOTO", "LOGO", "SOUND", "KEY"].contains(content.name)
    }

    /// Decodes the value and builds the property.
    private func makeProperty(
        _ content: VCardContentLine,
        value: UnsafeBufferPointer<UInt8>,
        number: Int
    ) throws -> VCardProperty {
        var parameters = content.parameters
        let rawValue: String
        if parameters.isEmpty {
            rawValue = try decode(value, charset: nil, number: number)
        } else {
            let encoding = content.encoding
            let charset = content.charset
            switch encoding {
            case .plain:
                rawValue = try decode(value, charset: charset, number: number)
            case .quotedPrintable:
                let decoded: [UInt8]
                do {
                    decoded = try QuotedPrintable.decode(value)
                } catch {
                    let offset = content.valueStart + error.offset
                    let line = segments.last { $0.offset <= offset }?.line ?? number
                    throw self.error(
                        "Malformed quoted-printable value: '=' must be followed by two hexadecimal digits "
                            + "or end the line; write a literal '=' as =3D.",
                        line: line
                    )
                }
                let text = try decoded.withUnsafeBufferPointer { try decode($0, charset: charset, number: number) }
                rawValue = VCardText.escapeLineBreaks(text)
                parameters.removeAll { Self.isQuotedPrintableParameter($0) }
            case .base64:
                rawValue = String(decoding: value.filter { !Self.isWhitespace($0) }, as: UTF8.self)
            }
            if charset != nil { parameters.removeAll { $0.name == "CHARSET" } }
        }
        return VCardProperty(
            uncheckedGroup: content.group,
            name: content.name,
            parameters: parameters,
            rawValue: rawValue,
            line: number
        )
    }

    /// Decodes value bytes in the given charset.
    private func decode(_ bytes: UnsafeBufferPointer<UInt8>, charset: String?, number: Int) throws -> String {
        if let text = VCardCharset.decode(bytes, charset: charset) { return text }
        let name = charset ?? "UTF-8"
        if VCardCharset.isKnown(name) {
            throw error(
                "The value is not valid \(name) text; fix the CHARSET parameter or re-export the file as UTF-8.",
                line: number
            )
        }
        throw error("The charset \(name) is not supported; re-export the file as UTF-8.", line: number)
    }

    /// Records one line of a nested `AGENT` card; at its `END:VCARD` stores the card's text as
    /// the escaped value of the `AGENT` property.
    private mutating func continueAgent(_ line: UnsafeBufferPointer<UInt8>) {
        if Self.isWord("BEGIN:VCARD", line) {
            agentDepth += 1
        } else if Self.isWord("END:VCARD", line) {
            agentDepth -= 1
        }
        agentLines.append(String(decoding: line, as: UTF8.self))
        guard agentDepth == 0 else { return }
        if let index = properties.indices.last {
            properties[index].rawValue = VCardText.escape(agentLines.joined(separator: "\n"))
        }
        agentLines = []
    }

    // MARK: - Errors

    private func error(_ message: String, line: Int) -> ContactsError {
        ContactsError(.malformedVCard, message, path: source, line: line)
    }

    private func outsideCard(_ number: Int) -> ContactsError {
        error(
            "Text outside a vCard; remove it, or put it between BEGIN:VCARD and END:VCARD.",
            line: number
        )
    }

    private static func message(for failure: VCardContentLine.Failure) -> String {
        switch failure {
        case .noColon:
            "The line has no ':' after the property name; write NAME:value, and start a continuation "
                + "line with a space."
        case .invalidName:
            "The property name may hold only letters, digits and '-', with an optional group before a "
                + "dot (item1.TEL); fix or remove the line."
        case .unterminatedQuote:
            "A parameter value opens a double quote that is never closed; add the closing quote."
        }
    }

    // MARK: - Byte tests

    /// Whether the bytes, without surrounding white space, equal `word` (upper case), ignoring case.
    private static func isWord(_ word: StaticString, _ value: UnsafeBufferPointer<UInt8>) -> Bool {
        var lower = 0
        var upper = value.count
        while lower < upper, isWhitespace(value[lower]) { lower += 1 }
        while upper > lower, isWhitespace(value[upper - 1]) { upper -= 1 }
        guard upper - lower == word.utf8CodeUnitCount else { return false }
        return word.withUTF8Buffer { expected in
            (0..<expected.count).allSatisfy { offset in
                VCardText.asciiUppercased(value[lower + offset]) == expected[offset]
            }
        }
    }

    /// Whether the line reads `END:VCARD`, ignoring case and surrounding white space.
    private static func isEndLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        isWord("END:VCARD", line)
    }

    /// Whether every byte is in the base64 alphabet or white space.
    private static func isBase64Text(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), equals, space, tab:
                true
            default:
                false
            }
        }
    }

    private static func isQuotedPrintableParameter(_ parameter: VCardParameter) -> Bool {
        if parameter.name == "ENCODING" {
            return parameter.values.contains { VCardText.asciiUppercased($0) == "QUOTED-PRINTABLE" }
        }
        return parameter.name == "QUOTED-PRINTABLE" && parameter.values.isEmpty
    }

    @inline(__always)
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab || byte == 10 || byte == 13
    }

    private static let equals = UInt8(ascii: "=")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
}
