import FoundationEssentials

/// Several inputs (files, standard input) as vCard text, joined into one text, so that one
/// import, and so one save, takes them all (``AddressBook/importContacts(from:format:options:decide:)``).
///
/// Each input is first read on its own, as an import of it alone would read it, so that a
/// malformed card is reported with the input's own name, line and message, and, without
/// `skipInvalid`, before anything is imported. In the joined text every input ends with a line
/// break and a blank line, so that no line runs on into the next input. An input that ends
/// inside a card is followed by `BEGIN:VCARD` and `END:VCARD` lines, which make the import drop
/// that card as malformed instead of joining it to the next input's first card; when the inputs
/// are read leniently (not `strict`), it is followed by an `END:VCARD` line instead, and
/// ``warnings`` says so.
///
/// ```swift
/// let joined = try JoinedContactInputs([.init(name: "a.vcf", data: a), .init(name: "-", data: b)], skipInvalid: false)
/// // Unless strict, the inputs are read leniently, and UTF-16 ones are turned into UTF-8 here.
/// let report = try book.importVCards(from: joined.data, source: joined.source)
/// joined.location(ofLine: 12)   // ("-", 3)
/// ```
struct JoinedContactInputs {
    /// One input as vCard text: its name in messages and its bytes.
    struct Input {
        var name: String
        var data: Data
        /// For input converted from another format, the line of the original file each line
        /// of `data` came from (index 0 is line 1); `nil` when `data` is what the file holds.
        var sourceLines: [Int]? = nil

        /// The original file's line for line `line` of `data`.
        func sourceLine(_ line: Int) -> Int {
            sourceLines.map { ConvertedContacts.sourceLine(ofLine: line, in: $0) } ?? line
        }

        /// `error` with the original file's line.
        func relocated<Domain>(_ error: PlainContactsError<Domain>) -> PlainContactsError<Domain> {
            guard sourceLines != nil, let line = error.line else { return error }
            var relocated = error
            relocated.line = sourceLine(line)
            return relocated
        }
    }

    /// The lines of the joined text that come from one input.
    private struct Part {
        var name: String
        /// The joined text's line that is the input's line 1.
        var firstLine: Int
        /// How many lines of the joined text come from the input, added lines included.
        var lineCount: Int
        /// The input, to map its lines to the original file's.
        var input: Input
    }

    /// What reading one input on its own found.
    private struct Check {
        var invalidCards: [InterchangeError] = []
        /// The `BEGIN:VCARD` line of the input's last card when, read leniently, that card has
        /// no `END:VCARD`: an `END:VCARD` line is added after the input.
        var unendedCardLine: Int?
        /// Whether the input ends inside a card, which the closing lines drop.
        var endsInsideCard = false
        /// Whether the input may go into the joined text: the reader got through it.
        var isJoinable = true
    }

    /// The joined text.
    let data: Data
    /// The name of the joined text, for errors that name no line: the inputs' names.
    let source: String
    /// The malformed cards of every input, in order, with the input's name and line (only with
    /// `skipInvalid`).
    let invalidCards: [InterchangeError]
    /// The recoveries made while joining (an input's last card ended for it), with the input's
    /// name and line.
    let warnings: [InterchangeError]
    private let parts: [Part]

    private static let lineBreak: [UInt8] = [13, 10]
    private static let closingLines = Array("BEGIN:VCARD\r\nEND:VCARD\r\n".utf8)
    private static let endLine = Array("END:VCARD\r\n".utf8)
    private static let carriageReturn: UInt8 = 13
    private static let lineFeed: UInt8 = 10

    /// Reads every input on its own, then joins them.
    ///
    /// - Throws: without `skipInvalid`, the first malformed card of the first input that has
    ///   one: `InterchangeError` `.malformedVCard` with the input's name and line.
    init(_ inputs: [Input], skipInvalid: Bool, strict: Bool = false) throws {
        var joined: [UInt8] = []
        var parts: [Part] = []
        var invalidCards: [InterchangeError] = []
        var warnings: [InterchangeError] = []
        var nextLine = 1
        for input in inputs {
            if !strict, Self.isUTF16(input.data) {
                // Read alone, the library says so; joined, the text reaches it as UTF-8.
                warnings.append(
                    InterchangeError(
                        .malformedVCard, "The file is UTF-16 encoded; it was read as UTF-16.", path: input.name, line: 1))
            }
            let body = Self.body(of: input.data, strict: strict)
            let check: Check
            do {
                check = try Self.check(body, name: input.name, skipInvalid: skipInvalid, strict: strict)
            } catch let error as InterchangeError {
                throw input.relocated(error)
            }
            invalidCards += check.invalidCards.map(input.relocated)
            guard check.isJoinable else { continue }
            var lineCount = Self.lineCount(body)
            joined += body
            if check.endsInsideCard {
                joined += Self.closingLines
                lineCount += 2
            } else if let line = check.unendedCardLine {
                joined += Self.endLine
                lineCount += 1
                warnings.append(
                    input.relocated(
                        InterchangeError(
                            .malformedVCard,
                            "The vCard that begins here has no END:VCARD; it was ended at the end of the input.",
                            path: input.name, line: line)))
            }
            parts.append(Part(name: input.name, firstLine: nextLine, lineCount: lineCount, input: input))
            nextLine += lineCount
        }
        data = Data(joined)
        source = inputs.map(\.name).joined(separator: ", ")
        self.invalidCards = invalidCards
        self.warnings = warnings
        self.parts = parts
    }

    /// The input and the line in it that a line of the joined text comes from.
    func location(ofLine line: Int) -> (name: String, line: Int)? {
        guard let part = parts.first(where: { $0.firstLine <= line && line < $0.firstLine + $0.lineCount }) else {
            return nil
        }
        return (part.name, part.input.sourceLine(line - part.firstLine + 1))
    }

    /// `error` naming the input and its line instead of the joined text's line.
    func relocated<Domain>(_ error: PlainContactsError<Domain>) -> PlainContactsError<Domain> {
        guard let line = error.line, let location = location(ofLine: line) else { return error }
        var relocated = error
        relocated.path = location.name
        relocated.line = location.line
        return relocated
    }

    // MARK: Reading one input

    /// The input without a UTF-8 byte order mark, ending with a line break and a blank line;
    /// UTF-16 input (with its byte order mark) as UTF-8, unless `strict`.
    private static func body(of data: Data, strict: Bool) -> [UInt8] {
        var bytes = Array(data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if !strict, isUTF16(data) {
            bytes = VCardCharset.utf8(fromUTF16: bytes[...])
        }
        switch bytes.last {
        case nil, lineFeed?: break
        case carriageReturn?: bytes.append(lineFeed)
        default: bytes += lineBreak
        }
        return bytes + lineBreak
    }

    /// Whether the input starts with a UTF-16 byte order mark.
    private static func isUTF16(_ data: Data) -> Bool {
        data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF])
    }

    /// Reads `body` followed by the closing lines as an import reads its input: a malformed card
    /// is noted (or thrown without `skipInvalid`) and the reader goes on after it; a card that
    /// held a syntax error is left out; the closing lines show whether the input ends inside a
    /// card.
    private static func check(_ body: [UInt8], name: String, skipInvalid: Bool, strict: Bool) throws -> Check {
        let closingLine = lineCount(body) + 1
        var reader = VCardStreamReader(data: Data(body + closingLines), source: name)
        reader.isStrict = strict
        var check = Check()
        var lastSyntaxErrorLine = 0
        var openCardLine: Int?
        var sawClosingCard = false
        var validCards = 0
        var lastCard: (line: Int, hasEnd: Bool)?
        func note(_ error: InterchangeError) throws {
            guard skipInvalid else { throw error }
            check.invalidCards.append(error)
        }
        while true {
            let next: VCard?
            do {
                next = try reader.next()
            } catch let error as InterchangeError where error.code == .malformedVCard {
                guard let line = error.line, line > lastSyntaxErrorLine else {
                    // The reader makes no progress, as with UTF-16 text: the import would stop here.
                    check.isJoinable = false
                    break
                }
                lastSyntaxErrorLine = line
                if line >= closingLine {
                    check.endsInsideCard = true
                } else {
                    try note(error)
                }
                continue
            }
            guard let card = next else { break }
            if card.startLine < closingLine { lastCard = (card.startLine, card.hasEnd) }
            if card.startLine >= closingLine {
                sawClosingCard = true
            } else if card.startLine <= lastSyntaxErrorLine {
                if check.endsInsideCard { openCardLine = card.startLine }
            } else {
                do {
                    try VCardImporter.check(card, source: name)
                    validCards += 1
                } catch let error as InterchangeError where error.code == .malformedVCard {
                    try note(error)
                }
            }
        }
        if !strict, let lastCard, !lastCard.hasEnd { check.unendedCardLine = lastCard.line }
        if check.endsInsideCard {
            try note(
                InterchangeError(
                    .malformedVCard, "The vCard that begins here has no END:VCARD; add END:VCARD after its last property.",
                    path: name, line: openCardLine ?? closingLine - 1))
        } else if !sawClosingCard {
            check.isJoinable = false
        }
        if !check.isJoinable && validCards > 0 {
            try note(
                InterchangeError(
                    .malformedVCard, "The input could not be read to its end, so none of its cards were imported.",
                    path: name, line: max(1, closingLine - 1)))
        }
        return check
    }

    /// The number of line breaks (CRLF, CR CR LF, LF or a lone CR) in `bytes`, counted as the
    /// reader counts them.
    private static func lineCount(_ bytes: [UInt8]) -> Int {
        var count = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == carriageReturn {
                count += 1
                if index + 1 < bytes.count, bytes[index + 1] == lineFeed {
                    index += 1
                } else if index + 2 < bytes.count, bytes[index + 1] == carriageReturn, bytes[index + 2] == lineFeed {
                    index += 2
                }
            } else if bytes[index] == lineFeed {
                count += 1
            }
            index += 1
        }
        return count
    }
}
