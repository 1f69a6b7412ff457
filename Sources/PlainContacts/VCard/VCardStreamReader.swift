import Foundation

/// Reads vCards one at a time from a file or from chunks of data, holding only the card being
/// read and one chunk in memory; for imports too big to read at once.
///
/// Line ends may be CRLF, LF, a lone CR, or CR CR LF (as iOS 6 writes them), and a UTF-8 byte
/// order mark is skipped. Input starting with a UTF-16 byte order mark is refused when strict;
/// otherwise it is read whole and decoded as UTF-16, with a warning. Line numbers in cards and
/// errors count physical lines of the whole input, as ``VCardReader`` does.
///
/// ```swift
/// var reader = try VCardStreamReader(contentsOf: URL(fileURLWithPath: "export.vcf"))
/// try reader.forEachCard { card in
///     try importer.add(card)
/// }
/// ```
struct VCardStreamReader {
    /// The file name used in errors.
    private let source: String
    /// Returns the next chunk of input, or `nil` or empty data at the end.
    private let nextChunk: () throws -> Data?
    /// Bytes read but not yet handled, from ``position`` on.
    private var buffer: [UInt8] = []
    /// The start of the next unhandled line in ``buffer``.
    private var position = 0
    /// Where to go on looking for the end of the line at ``position``.
    private var scanned = 0
    /// The number of the last line handed to the parser.
    private var lineNumber = 0
    /// Whether ``nextChunk`` has reported the end.
    private var reachedEnd = false
    /// Whether the byte order mark has been looked for.
    private var checkedStart = false
    /// Whether the parser has been told the input ended.
    private var finished = false
    private var parser: VCardParser

    /// Creates a reader that pulls chunks of input from `nextChunk` until it returns `nil` or
    /// empty data; `source` names the input in errors.
    ///
    /// ```swift
    /// var chunks = [Data("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A".utf8), Data("\r\nEND:VCARD\r\n".utf8)].makeIterator()
    /// var reader = VCardStreamReader(source: "upload.vcf") { chunks.next() }
    /// ```
    init(source: String, nextChunk: @escaping () throws -> Data?) {
        self.source = source
        self.nextChunk = nextChunk
        self.parser = VCardParser(source: source)
    }

    /// Whether any problem in the input is refused with `malformedVCard` (`true`), or
    /// recovered from with a warning in the card's ``VCard/recoveries`` (`false`, the default).
    /// Set it before reading the first card.
    var isStrict: Bool {
        get { parser.isStrict }
        set { parser.isStrict = newValue }
    }

    /// Creates a reader over data already in memory.
    init(data: Data, source: String) {
        self.init(source: source) { nil }
        buffer = Array(data)
        reachedEnd = true
    }

    /// Creates a reader that reads `fileHandle` in chunks of `chunkSize` bytes.
    init(fileHandle: FileHandle, source: String, chunkSize: Int = 256 * 1024) {
        let size = max(chunkSize, 1)
        self.init(source: source) { try fileHandle.read(upToCount: size) }
    }

    /// Opens the file at `url` for reading.
    /// - Throws: `InterchangeError` `.permissionDenied` or `.io` when the file cannot be opened.
    init(contentsOf url: URL) throws {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw PosixError.error("cannot open the vCard file for reading", path: url.path, foundationError: error, call: "FileHandle(forReadingFrom:)")
        }
        self.init(fileHandle: handle, source: url.path)
    }

    /// Returns the next card, or `nil` after the last one.
    /// - Throws: `InterchangeError` `.malformedVCard` for input that breaks the vCard syntax, with
    ///   the file and line; `.io` when reading fails.
    mutating func next() throws -> VCard? {
        while true {
            if !checkedStart {
                if buffer.count - position < 3, !reachedEnd {
                    try readChunk()
                    continue
                }
                try skipByteOrderMark()
                checkedStart = true
            }
            if let card = try handleCompleteLines() { return card }
            if reachedEnd {
                if finished { return nil }
                finished = true
                return try parser.finish()
            }
            try readChunk()
        }
    }

    /// Calls `body` with each card in order.
    /// - Throws: What ``next()`` throws, and what `body` throws.
    mutating func forEachCard(_ body: (VCard) throws -> Void) throws {
        while let card = try next() {
            try body(card)
        }
    }

    /// Feeds every complete line in the buffer to the parser until one completes a card.
    /// At the end of the input the last line needs no line break.
    private mutating func handleCompleteLines() throws -> VCard? {
        let count = buffer.count
        var start = position
        var end = max(scanned, position)
        defer {
            position = start
            scanned = max(end, start)
        }
        return try buffer.withUnsafeBufferPointer { bytes in
            while start < count {
                while end < count, bytes[end] != 10, bytes[end] != 13 { end += 1 }
                let next: Int
                if end == count {
                    guard reachedEnd else { return nil }
                    next = count
                } else if bytes[end] == 13 {
                    guard let after = Self.endOfCarriageReturn(bytes, at: end, reachedEnd: reachedEnd) else {
                        return nil
                    }
                    next = after
                } else {
                    next = end + 1
                }
                lineNumber += 1
                let card: VCard?
                do {
                    card = try parser.consume(UnsafeBufferPointer(rebasing: bytes[start..<end]), number: lineNumber)
                } catch {
                    // The failed line is read again by the next call; count it once.
                    lineNumber -= 1
                    throw error
                }
                start = next
                end = next
                if let card { return card }
            }
            return nil
        }
    }

    /// Where the next line starts after the CR at `index`: after CR LF, CR CR LF or the lone CR;
    /// `nil` when the bytes that decide it have not been read yet.
    private static func endOfCarriageReturn(
        _ bytes: UnsafeBufferPointer<UInt8>, at index: Int, reachedEnd: Bool
    ) -> Int? {
        let count = bytes.count
        guard index + 1 < count else { return reachedEnd ? index + 1 : nil }
        switch bytes[index + 1] {
        case 10:
            return index + 2
        case 13:
            guard index + 2 < count else { return reachedEnd ? index + 1 : nil }
            return bytes[index + 2] == 10 ? index + 3 : index + 1
        default:
            return index + 1
        }
    }

    /// Drops handled bytes and appends the next chunk, or notes the end of the input.
    private mutating func readChunk() throws {
        if position > 0 {
            buffer.removeSubrange(0..<position)
            scanned -= position
            position = 0
        }
        let chunk: Data?
        do {
            chunk = try nextChunk()
        } catch let error as InterchangeError {
            throw error
        } catch {
            throw ContactsError(
                .io,
                "Reading the vCard input failed.",
                path: source,
                underlying: error
            )
        }
        guard let chunk, !chunk.isEmpty else {
            reachedEnd = true
            return
        }
        buffer.append(contentsOf: chunk)
    }

    /// Skips a UTF-8 byte order mark; refuses UTF-16 input when strict, else decodes it.
    private mutating func skipByteOrderMark() throws {
        let available = buffer.count - position
        if available >= 3, buffer[position] == 0xEF, buffer[position + 1] == 0xBB, buffer[position + 2] == 0xBF {
            position += 3
            scanned = position
        } else if available >= 2,
            (buffer[position] == 0xFF && buffer[position + 1] == 0xFE)
                || (buffer[position] == 0xFE && buffer[position + 1] == 0xFF)
        {
            try parser.recover(
                refusal: "The file is UTF-16 encoded; save it as UTF-8 and import it again.",
                warning: "The file is UTF-16 encoded; it was read as UTF-16.",
                line: 1)
            try decodeUTF16()
        }
    }

    /// Reads the rest of the input and replaces it, from its byte order mark on, with its
    /// UTF-8 form.
    private mutating func decodeUTF16() throws {
        while !reachedEnd { try readChunk() }
        buffer = VCardCharset.utf8(fromUTF16: buffer[position...])
        position = 0
        scanned = 0
    }
}
