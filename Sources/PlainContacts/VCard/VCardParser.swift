/// Assembles vCards from physical lines, one line at a time.
///
/// It unfolds continuation lines (a line starting with a space or tab continues the previous
/// one, minus that one character), joins quoted-printable soft line breaks (a quoted-printable
/// value ending in `=` continues on the next line as written), joins vCard 2.1 base64 lines
/// that are not indented, checks the `BEGIN:VCARD` / `END:VCARD` structure and decodes values.
/// A card nested in an `AGENT` property (vCard 2.1), whose lines follow the `AGENT:` line or
/// begin on it (`AGENT:BEGIN:VCARD`), becomes that property's escaped value.
///
/// Since a line can only be complete once the next one is seen, a strict parser returns a card
/// from the call that feeds the line after its `END:VCARD`, or from ``finish()``. A lenient
/// parser (the default) returns it with the next `BEGIN:VCARD` or from ``finish()``, so that
/// the warnings about the lines after it go with it.
///
/// A lenient parser recovers from every problem a strict one refuses (see
/// `VCardParser+Recovery.swift`), adding one warning per recovery to the card's
/// ``VCard/recoveries``; a strict one throws `malformedVCard` at the first.
struct VCardParser {
    /// The file name used in errors.
    let source: String
    /// Whether any problem is refused (`true`) or recovered from with a warning (`false`).
    var isStrict: Bool

    /// Recoveries not yet handed out with a card.
    var recoveries: [VCard.Recovery] = []
    /// A card that has ended, held until the next card begins or the input ends (lenient only).
    var completed: VCard?
    /// Whether a card has been returned.
    var hasReturnedCard = false
    /// The first line outside a card that was skipped (lenient only).
    var firstSkippedLine: Int?
    /// Whether lines outside a card are being skipped since the last card (lenient only).
    var isSkippingText = false
    /// The line of a blank line after the logical line being assembled, not yet handled
    /// (lenient only): a continuation line after it continues the value.
    private var blankLine: Int?

    /// The logical line being assembled.
    private var logical: [UInt8] = []
    /// Where each physical line of ``logical`` begins: offset in ``logical`` and line number.
    private var segments: [(offset: Int, line: Int)] = []
    /// The encoding of ``logical``, once looked up.
    private var logicalEncoding: VCardContentLine.Encoding?

    /// The line of the open card's `BEGIN:VCARD`, or 0 outside a card.
    var cardStart = 0
    /// The open card's `VERSION`, once seen.
    var version: String?
    /// The open card's properties so far.
    var properties: [VCardProperty] = []
    /// The open card's properties left out so far.
    private var leftOut: [VCard.LeftOutProperty] = []

    /// The longest text value a property may have, in bytes as written: 64 KiB, sixteen times
    /// a long note, so that a card cannot make every later step (names, keys, search words,
    /// the record file) work on megabytes. A longer property is left out of its card with a
    /// warning. Binary values (base64 `ENCODING`, and `PHOTO`, `LOGO`, `SOUND`, `KEY`, which
    /// vCard 4 writes as `data:` URIs) are not text and are not limited here.
    static let maximumTextValueBytes = 65_536
    /// How many `BEGIN:VCARD` lines of a nested `AGENT` card are open.
    var agentDepth = 0
    /// The logical lines of the nested `AGENT` card so far.
    var agentLines: [String] = []

    /// Creates a parser; `source` names the input in errors and warnings.
    init(source: String, isStrict: Bool = false) {
        self.source = source
        self.isStrict = isStrict
    }

    /// Feeds one physical line (without its line break) and its 1-based number.
    /// Returns a card when the line completes one.
    /// - Throws: `InterchangeError` `.malformedVCard` for a line that breaks the vCard syntax.
    mutating func consume(_ line: UnsafeBufferPointer<UInt8>, number: Int) throws -> VCard? {
        if !segments.isEmpty {
            if line.isEmpty, !isStrict {
                if blankLine == nil { blankLine = number }
                return nil
            }
            if let blank = blankLine {
                blankLine = nil
                if let first = line.first, first == Self.space || first == Self.tab {
                    note("A blank line inside a folded value was skipped.", line: blank)
                    append(UnsafeBufferPointer(rebasing: line.dropFirst()), number: number)
                    return nil
                }
            } else if joinsLogicalLine(line, number: number) {
                return nil
            }
        }
        let card = try completeLogicalLine()
        if !line.isEmpty { append(line, number: number) }
        return card
    }

    /// Appends `line` to the logical line when it continues it: after a quoted-printable soft
    /// line break, as a folded line, or as more base64 text.
    private mutating func joinsLogicalLine(_ line: UnsafeBufferPointer<UInt8>, number: Int) -> Bool {
        if logical.last == Self.equals, !line.isEmpty, encodingOfLogicalLine() == .quotedPrintable,
            !Self.isEndLine(line)
        {
            logical.removeLast()
            append(line, number: number)
            return true
        }
        if let first = line.first, first == Self.space || first == Self.tab {
            append(UnsafeBufferPointer(rebasing: line.dropFirst()), number: number)
            return true
        }
        if !line.isEmpty, Self.isBase64Text(line), encodingOfLogicalLine() == .base64 {
            append(line, number: number)
            return true
        }
        return false
    }

    /// Ends the input: completes the last line and checks that no card is left open.
    /// Returns the last card, if it has not been returned yet.
    /// - Throws: `InterchangeError` `.malformedVCard` when a card has no `END:VCARD` (strict), or
    ///   when the input holds text but no card at all.
    mutating func finish() throws -> VCard? {
        var card = try completeLogicalLine()
        if agentDepth > 0 {
            try recover(
                refusal: "The vCard nested in AGENT has no END:VCARD; add END:VCARD after its last property.",
                warning: "The vCard nested in AGENT has no END:VCARD; it was ended at the end of the input.",
                line: cardStart)
            finishAgent()
        }
        if cardStart != 0 {
            try recover(
                refusal: "The vCard that begins here has no END:VCARD; add END:VCARD after its last property.",
                warning: "The vCard that begins here has no END:VCARD; it was ended at the end of the input.",
                line: cardStart)
            card = closeCard(hasEnd: false)
        }
        if let held = takeCompleted() { card = held }
        if card == nil, !hasReturnedCard, let line = firstSkippedLine {
            throw error("The input holds no vCard: no BEGIN:VCARD line was found.", line: line)
        }
        if card != nil { hasReturnedCard = true }
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
            blankLine = nil
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
        if line.first == Self.hash, !isStrict {
            note("A comment line (starting with #) was skipped.", line: number)
            return nil
        }
        let content: VCardContentLine
        switch VCardContentLine.parse(line) {
        case .success(let parsed):
            content = parsed
        case .failure(let failure):
            guard cardStart != 0 else {
                try skipOutsideCard(number)
                return nil
            }
            try keepUnreadableLine(line, failure: failure, number: number)
            return nil
        }
        let value = UnsafeBufferPointer(rebasing: line[content.valueStart...])
        guard cardStart != 0 else {
            guard content.name == "BEGIN", Self.isWord("VCARD", value) else {
                try skipOutsideCard(number)
                return nil
            }
            let previous = takeCompleted()
            openCard(at: number)
            return previous
        }
        switch content.name {
        case "BEGIN" where Self.isWord("VCARD", value):
            if let last = properties.last, last.name == "AGENT", last.rawValue.isEmpty {
                agentDepth = 1
                agentLines = ["BEGIN:VCARD"]
                return nil
            }
            try recover(
                refusal: "BEGIN:VCARD starts a new vCard before the one that begins on line \(cardStart) has ended; "
                    + "add END:VCARD before this line.",
                warning: "The vCard that begins here has no END:VCARD; it was ended before the BEGIN:VCARD "
                    + "on line \(number).",
                line: isStrict ? number : cardStart)
            let card = closeCard(hasEnd: false)
            openCard(at: number)
            return card
        case "END":
            if !Self.isWord("VCARD", value) {
                try recover(
                    refusal: "This END does not close the vCard that begins on line \(cardStart); write END:VCARD.",
                    warning: "This END does not name VCARD; it was read as END:VCARD.",
                    line: number)
            }
            let card = closeCard(hasEnd: true)
            guard isStrict else {
                completed = card
                return nil
            }
            hasReturnedCard = true
            return card
        case "VERSION" where version == nil:
            version = String(VCardText.trimmingWhitespace(Substring(String(decoding: value, as: UTF8.self))))
            return nil
        case "AGENT" where Self.isWord("BEGIN:VCARD", value):
            // The nested card begins on the AGENT line itself; its other lines follow.
            properties.append(try makeProperty(content, line: line, value: value, number: number))
            agentDepth = 1
            agentLines = ["BEGIN:VCARD"]
            return nil
        default:
            if value.count > Self.maximumTextValueBytes, !Self.holdsBinaryData(content) {
                leftOut.append(VCard.LeftOutProperty(name: content.name, byteCount: value.count, line: number))
                return nil
            }
            properties.append(try makeProperty(content, line: line, value: value, number: number))
            return nil
        }
    }

    /// Starts a card at its `BEGIN:VCARD` line.
    private mutating func openCard(at number: Int) {
        cardStart = number
        isSkippingText = false
        leftOut = []
    }

    /// Ends the open card, at its `END` line or not, and returns it with the recoveries so far.
    private mutating func closeCard(hasEnd: Bool) -> VCard {
        var card = VCard(version: version ?? "", properties: properties, startLine: cardStart)
        card.hasEnd = hasEnd
        card.leftOut = leftOut
        card.recoveries = recoveries
        recoveries = []
        leftOut = []
        cardStart = 0
        version = nil
        properties = []
        properties.reserveCapacity(card.properties.count)
        return card
    }

    /// The card held since its `END:VCARD`, with the recoveries since then; `nil` when none is held.
    private mutating func takeCompleted() -> VCard? {
        guard var card = completed else { return nil }
        completed = nil
        card.recoveries += recoveries
        recoveries = []
        hasReturnedCard = true
        return card
    }

    /// Whether a property's value is binary data rather than text (see ``maximumTextValueBytes``).
    static func holdsBinaryData(_ content: VCardContentLine) -> Bool {
        if content.encoding == .base64 { return true }
        return ["PHOTO", "LOGO", "SOUND", "KEY"].contains(content.name)
    }

    /// Decodes the value and builds the property.
    private mutating func makeProperty(
        _ content: VCardContentLine,
        line: UnsafeBufferPointer<UInt8>,
        value: UnsafeBufferPointer<UInt8>,
        number: Int
    ) throws -> VCardProperty {
        var parameters = content.parameters
        var rawValue: String
        let encoding = parameters.isEmpty ? .plain : content.encoding
        let charset = parameters.isEmpty ? nil : content.charset
        switch encoding {
        case .plain:
            rawValue = literalBackslashes(try decode(value, charset: charset, number: number))
            if Self.mayBeDataURI(value), Self.holdsBinaryData(content) {
                rawValue = try repairedDataURI(rawValue, number: number)
            }
        case .quotedPrintable:
            let text = try decodeQuotedPrintable(value, content: content, charset: charset, number: number)
            rawValue = VCardText.escapeLineBreaks(literalBackslashes(text))
            parameters.removeAll { Self.isQuotedPrintableParameter($0) }
        case .base64:
            rawValue = try base64Text(value, parameters: &parameters, number: number)
        }
        if charset != nil { parameters.removeAll { $0.name == "CHARSET" } }
        var property = VCardProperty(
            uncheckedGroup: content.group,
            name: content.name,
            parameters: parameters,
            rawValue: rawValue,
            line: number
        )
        // Keep the spelling of a plain line whose parts the reader did not change.
        if encoding == .plain, charset == nil, parameters.count == content.parameters.count {
            property.writtenHead = Self.unusualHead(UnsafeBufferPointer(rebasing: line[..<(content.valueStart - 1)]))
        }
        return property
    }

    /// The head of a line (group, name, parameters) as text when the writer might spell it
    /// otherwise: it holds a lowercase letter, a quote or a caret. `nil` for a head the writer
    /// spells the same, the common case, which then costs no string.
    private static func unusualHead(_ head: UnsafeBufferPointer<UInt8>) -> String? {
        let unusual = head.contains { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "^")
        }
        return unusual ? String(decoding: head, as: UTF8.self) : nil
    }

    /// Whether the value starts with `d` or `D`, as a `data:` URI does: a quick test before
    /// the full one.
    @inline(__always)
    private static func mayBeDataURI(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        value.count > 5 && (value[0] == UInt8(ascii: "d") || value[0] == UInt8(ascii: "D"))
    }

    /// Decodes a quoted-printable value, then its charset; an `=` not followed by two
    /// hexadecimal digits is refused, or kept as a literal `=` with a warning.
    private mutating func decodeQuotedPrintable(
        _ value: UnsafeBufferPointer<UInt8>, content: VCardContentLine, charset: String?, number: Int
    ) throws -> String {
        let (decoded, malformed) = QuotedPrintable.decodeKeepingMalformedEscapes(value)
        if let malformed {
            let offset = content.valueStart + malformed
            let line = segments.last { $0.offset <= offset }?.line ?? number
            try recover(
                refusal: "Malformed quoted-printable value: '=' must be followed by two hexadecimal digits "
                    + "or end the line; write a literal '=' as =3D.",
                warning: "An '=' in the quoted-printable value is not followed by two hexadecimal digits; "
                    + "it was kept as a literal '='.",
                line: line)
        }
        return try decoded.withUnsafeBufferPointer { try decode($0, charset: charset, number: number) }
    }

    /// Decodes value bytes in the given charset. Bytes that are not valid in it, or a charset
    /// that is not known, are refused, or read as the charset they most plausibly are, with a
    /// warning.
    private mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>, charset: String?, number: Int) throws -> String {
        if charset == nil, let text = VCardCharset.decodeUTF8(bytes) { return text }
        if let charset, let text = VCardCharset.decode(bytes, charset: charset) { return text }
        let guess = VCardCharset.decodeGuessing(bytes)
        guard let charset else {
            try recover(
                refusal: "The value is not valid UTF-8 and has no CHARSET parameter; add one or re-export the "
                    + "file as UTF-8.",
                warning: "The value is not valid UTF-8 and has no CHARSET parameter; it was read as \(guess.charset).",
                line: number)
            return guess.text
        }
        let refusal = VCardCharset.isKnown(charset)
            ? "The value is not valid \(charset) text; fix the CHARSET parameter or re-export the file as UTF-8."
            : "The charset \(charset) is not supported; re-export the file as UTF-8."
        let problem = VCardCharset.isKnown(charset) ? "is not valid \(charset) text" : "has an unknown CHARSET"
        try recover(refusal: refusal, warning: "The value \(problem); it was read as \(guess.charset).", line: number)
        return guess.text
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
        finishAgent()
    }

    /// Stores the nested card's lines so far as the escaped value of the `AGENT` property.
    mutating func finishAgent() {
        if let index = properties.indices.last {
            properties[index].rawValue = VCardText.escape(agentLines.joined(separator: "\n"))
        }
        agentDepth = 0
        agentLines = []
    }

    // MARK: - Errors

    func error(_ message: String, line: Int) -> InterchangeError {
        InterchangeError(.malformedVCard, message, path: source, line: line)
    }

    // MARK: - Byte tests

    /// Whether the bytes, without surrounding white space, equal `word` (upper case), ignoring case.
    static func isWord(_ word: StaticString, _ value: UnsafeBufferPointer<UInt8>) -> Bool {
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
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab || byte == 10 || byte == 13
    }

    static let equals = UInt8(ascii: "=")
    private static let hash = UInt8(ascii: "#")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
}
