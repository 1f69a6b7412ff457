import FoundationEssentials

/// A strict RFC 8259 JSON parser for the store's files.
///
/// The parser reads UTF-8 bytes (a leading UTF-8 byte order mark is skipped) and accepts exactly
/// one JSON value surrounded by optional whitespace. It is strict where the store benefits from
/// it: invalid UTF-8, lone surrogate escapes, numbers outside the JSON grammar, raw control
/// characters in strings, duplicate keys in one object, text after the value and nesting deeper
/// than ``maximumDepth`` are all errors. Numbers keep their literal text (see ``JSONNumber``).
///
/// Error locations are 1-based. Lines end at LF (a CR before the LF belongs to the line). The
/// column counts Unicode scalars, not bytes, from the start of the line (after the byte order
/// mark on the first line), so `é` counts as one column and a tab counts as one.
///
/// A file that holds Git conflict markers (a line that starts with `<<<<<<< `, `||||||| ` or
/// `>>>>>>> `, or a line that is exactly `=======`) is reported as a
/// ``JSONSyntaxError/Kind/conflictMarkers`` error with the line of the first marker. Such a line
/// can never occur in valid JSON, so the check runs only after a syntax error and costs nothing
/// for valid files.
///
/// ```swift
/// let value = try JSONParser.parse(Data(#"{"id": 7, "note": "caf\u00e9"}"#.utf8))
/// value["id"]?.int        // 7
/// value["note"]?.string   // "café"
/// ```
package struct JSONParser {
    /// The deepest nesting of arrays and objects that ``parse(_:)`` accepts; the top-level
    /// array or object is depth 1.
    static let maximumDepth = 512

    /// A syntax error at a byte offset, before it is turned into a ``JSONSyntaxError``.
    struct Failure: Error {
        var offset: Int
        var message: String

        init(at offset: Int, _ message: String) {
            self.offset = offset
            self.message = message
        }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index: Int
    /// Object members read but not yet stored in their object's dictionary, innermost last.
    private var pendingMembers: [(key: String, value: JSONValue)] = []
    /// The offsets of the keys in ``pendingMembers``.
    private var pendingKeyOffsets: [Int] = []
    private var pendingElements: [JSONValue] = []

    private init(bytes: UnsafeBufferPointer<UInt8>, index: Int) {
        self.bytes = bytes
        self.index = index
    }

    /// Parses one JSON document.
    ///
    /// ```swift
    /// let record = try JSONParser.parse(Data(contentsOf: url))
    /// ```
    ///
    /// - Parameter data: The document's bytes, in UTF-8.
    /// - Returns: The document's value.
    /// - Throws: ``JSONSyntaxError`` of kind ``JSONSyntaxError/Kind/conflictMarkers`` when the
    ///   bytes hold unresolved Git conflict markers (the line is the first marker's), or
    ///   ``JSONSyntaxError/Kind/malformed`` for any other deviation from RFC 8259 or the rules
    ///   above, with the line and column of the offending character.
    package static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
        let result: Result<JSONValue, JSONSyntaxError> = data.withUnsafeBytes { raw in
            parse(raw.assumingMemoryBound(to: UInt8.self))
        }
        return try result.get()
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONSyntaxError> {
        let bodyStart = startsWithByteOrderMark(bytes) ? 3 : 0
        var parser = JSONParser(bytes: bytes, index: bodyStart)
        do throws(Failure) {
            return .success(try parser.parseDocument())
        } catch {
            if let markerLine = firstConflictMarkerLine(in: bytes, from: bodyStart) {
                return .failure(
                    JSONSyntaxError(
                        kind: .conflictMarkers,
                        message: "unresolved Git merge conflict; edit the file to keep one side, "
                            + "or run `contacts doctor`",
                        line: markerLine, column: 1))
            }
            let (line, column) = location(of: error.offset, in: bytes, from: bodyStart)
            return .failure(JSONSyntaxError(kind: .malformed, message: error.message, line: line, column: column))
        }
    }

    private static func startsWithByteOrderMark(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }
}

// MARK: - Grammar

extension JSONParser {
    private mutating func parseDocument() throws(Failure) -> JSONValue {
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if index < bytes.count {
            throw Failure(at: index, "expected the end of the file after the JSON value")
        }
        return value
    }

    /// Parses the value at `index`, which must not be whitespace. `depth` counts the arrays and
    /// objects that enclose it.
    private mutating func parseValue(depth: Int) throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw failure(expected: "a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["):
            return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = index
            index = try JSONNumber.scanLiteral(bytes, from: start)
            let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            return .number(JSONNumber(validatedLiteral: literal))
        case UInt8(ascii: "t"):
            try expectWord("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return .null
        default:
            throw failure(expected: "a value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func parseObject(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= Self.maximumDepth else {
            throw Failure(at: index, "arrays and objects are nested deeper than \(Self.maximumDepth) levels")
        }
        index += 1  // {
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object([:])
        }
        // Members collect on a stack shared by all objects of the document, so that the
        // dictionary is allocated once at its final size.
        let firstMember = pendingMembers.count
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure(expected: "a member name in double quotes")
            }
            let keyOffset = index
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw failure(expected: "':' after the member name")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            pendingMembers.append((key, value))
            pendingKeyOffsets.append(keyOffset)
            skipWhitespace()
            guard index < bytes.count else { throw failure(expected: "',' or '}' after an object member") }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                index += 1
                return .object(try takeMembers(from: firstMember))
            default:
                throw failure(expected: "',' or '}' after an object member")
            }
        }
    }

    /// Removes the members from `firstMember` on from the stacks and returns them as a
    /// dictionary.
    private mutating func takeMembers(from firstMember: Int) throws(Failure) -> [String: JSONValue] {
        var members = [String: JSONValue](minimumCapacity: pendingMembers.count - firstMember)
        // Popping moves each member out of the stack without copying it.
        while pendingMembers.count > firstMember, let member = pendingMembers.popLast() {
            if members.updateValue(member.value, forKey: member.key) != nil {
                throw duplicateKeyFailure(keyOffsets: pendingKeyOffsets[firstMember...])
            }
        }
        pendingKeyOffsets.removeSubrange(firstMember...)
        return members
    }

    /// The failure for the first key, in document order, that repeats an earlier key of the
    /// same object; the keys are read again from their offsets.
    private func duplicateKeyFailure(keyOffsets: ArraySlice<Int>) -> Failure {
        var seen: Set<String> = []
        for offset in keyOffsets {
            var reader = JSONParser(bytes: bytes, index: offset)
            guard let key = try? reader.parseString() else { continue }
            if !seen.insert(key).inserted {
                return Failure(at: offset, "duplicate key \"\(key)\"")
            }
        }
        return Failure(at: keyOffsets.first ?? index, "duplicate key")
    }

    private mutating func parseArray(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= Self.maximumDepth else {
            throw Failure(at: index, "arrays and objects are nested deeper than \(Self.maximumDepth) levels")
        }
        index += 1  // [
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array([])
        }
        // Elements collect on a stack shared by all arrays of the document, so that each array
        // is allocated once at its final size.
        let firstElement = pendingElements.count
        while true {
            let element = try parseValue(depth: depth)
            pendingElements.append(element)
            skipWhitespace()
            guard index < bytes.count else { throw failure(expected: "',' or ']' after an array element") }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                index += 1
                return .array(takeElements(from: firstElement))
            default:
                throw failure(expected: "',' or ']' after an array element")
            }
        }
    }

    /// Removes the elements from `firstElement` on from the stack and returns them in order.
    private mutating func takeElements(from firstElement: Int) -> [JSONValue] {
        var elements: [JSONValue] = []
        elements.reserveCapacity(pendingElements.count - firstElement)
        // Popping moves each element out of the stack without copying it.
        while pendingElements.count > firstElement, let element = pendingElements.popLast() {
            elements.append(element)
        }
        elements.reverse()
        return elements
    }

    private mutating func expectWord(_ word: StaticString) throws(Failure) {
        let length = word.utf8CodeUnitCount
        let letters = word.utf8Start
        var offset = 0
        while offset < length {
            guard index + offset < bytes.count, bytes[index + offset] == letters[offset] else {
                throw Failure(at: index, "expected '\(word)'")
            }
            offset += 1
        }
        index += length
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09:
                index += 1
            default:
                return
            }
        }
    }

    /// A failure at the current position that says what was expected and, at the end of the
    /// input, that the file ended.
    private func failure(expected: String) -> Failure {
        if index >= bytes.count {
            return Failure(at: index, "expected \(expected), but the file ends")
        }
        return Failure(at: index, "expected \(expected)")
    }
}

// MARK: - Strings

extension JSONParser {
    /// Parses the string whose opening quote is at `index`.
    private mutating func parseString() throws(Failure) -> String {
        let quote = index
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let string = String(
                    decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return string
            } else if byte == UInt8(ascii: "\\") {
                return try parseEscapedString(from: start, quote: quote)
            } else if byte < 0x20 {
                throw Self.controlCharacterFailure(at: index)
            } else if byte < 0x80 {
                index += 1
            } else {
                try skipUTF8Sequence()
            }
        }
        throw Failure(at: quote, "string is never closed")
    }

    /// Continues a string at its first backslash, copying its bytes into a buffer.
    private mutating func parseEscapedString(from start: Int, quote: Int) throws(Failure) -> String {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(index - start + 16)
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            } else if byte == UInt8(ascii: "\\") {
                try appendEscape(to: &buffer)
            } else if byte < 0x20 {
                throw Self.controlCharacterFailure(at: index)
            } else if byte < 0x80 {
                buffer.append(byte)
                index += 1
            } else {
                let sequenceStart = index
                try skipUTF8Sequence()
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[sequenceStart..<index]))
            }
        }
        throw Failure(at: quote, "string is never closed")
    }

    /// Decodes the escape sequence whose backslash is at `index` and appends its UTF-8 bytes.
    private mutating func appendEscape(to buffer: inout [UInt8]) throws(Failure) {
        let escapeStart = index
        guard index + 1 < bytes.count else {
            throw Failure(at: index + 1, "expected an escape sequence after '\\', but the file ends")
        }
        let replacement: UInt8
        switch bytes[index + 1] {
        case UInt8(ascii: "\""): replacement = 0x22
        case UInt8(ascii: "\\"): replacement = 0x5C
        case UInt8(ascii: "/"): replacement = 0x2F
        case UInt8(ascii: "b"): replacement = 0x08
        case UInt8(ascii: "f"): replacement = 0x0C
        case UInt8(ascii: "n"): replacement = 0x0A
        case UInt8(ascii: "r"): replacement = 0x0D
        case UInt8(ascii: "t"): replacement = 0x09
        case UInt8(ascii: "u"):
            index += 2
            let scalar = try readUnicodeEscape(escapeStart: escapeStart)
            Self.appendUTF8(of: scalar, to: &buffer)
            return
        default:
            throw Failure(
                at: index + 1,
                #"expected an escape character (", \, /, b, f, n, r, t or u) after '\'"#)
        }
        buffer.append(replacement)
        index += 2
    }

    /// Reads the four hex digits after `\u` (and a second `\uXXXX` for a surrogate pair) and
    /// returns the scalar value they denote.
    private mutating func readUnicodeEscape(escapeStart: Int) throws(Failure) -> UInt32 {
        let unit = try readHexQuad()
        switch unit {
        case 0xD800...0xDBFF:
            let loneSurrogate = Failure(
                at: escapeStart,
                "lone surrogate: a \\uD800-\\uDBFF escape must be followed by a \\uDC00-\\uDFFF escape")
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                bytes[index + 1] == UInt8(ascii: "u")
            else { throw loneSurrogate }
            index += 2
            let low = try readHexQuad()
            guard (0xDC00...0xDFFF).contains(low) else { throw loneSurrogate }
            return 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        case 0xDC00...0xDFFF:
            throw Failure(
                at: escapeStart,
                "lone surrogate: a \\uDC00-\\uDFFF escape must follow a \\uD800-\\uDBFF escape")
        default:
            return unit
        }
    }

    private mutating func readHexQuad() throws(Failure) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else {
                throw Failure(at: index, "expected four hex digits after \\u, but the file ends")
            }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Failure(at: index, "expected four hex digits after \\u")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Steps over one well-formed UTF-8 sequence of two to four bytes at `index`.
    ///
    /// Follows Unicode's table of well-formed byte sequences: no overlong forms, no encoded
    /// surrogates, nothing above U+10FFFF.
    @inline(__always)
    private mutating func skipUTF8Sequence() throws(Failure) {
        let lead = bytes[index]
        let length: Int
        var lowest: UInt8 = 0x80
        var highest: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF:
            length = 2
        case 0xE0:
            length = 3
            lowest = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF:
            length = 3
        case 0xED:
            length = 3
            highest = 0x9F
        case 0xF0:
            length = 4
            lowest = 0x90
        case 0xF1...0xF3:
            length = 4
        case 0xF4:
            length = 4
            highest = 0x8F
        default:
            throw Failure(at: index, "invalid UTF-8")
        }
        guard bytes.count - index >= length else { throw Failure(at: index, "invalid UTF-8") }
        let second = bytes[index + 1]
        guard second >= lowest, second <= highest else { throw Failure(at: index, "invalid UTF-8") }
        var offset = 2
        while offset < length {
            guard bytes[index + offset] & 0xC0 == 0x80 else { throw Failure(at: index, "invalid UTF-8") }
            offset += 1
        }
        index += length
    }

    private static func controlCharacterFailure(at offset: Int) -> Failure {
        Failure(at: offset, "control character in a string; write it as an escape such as \\n or \\u0001")
    }

    private static func appendUTF8(of scalar: UInt32, to buffer: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            buffer.append(UInt8(scalar))
        case 0x80..<0x800:
            buffer.append(UInt8(0xC0 | scalar >> 6))
            buffer.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            buffer.append(UInt8(0xE0 | scalar >> 12))
            buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            buffer.append(UInt8(0x80 | scalar & 0x3F))
        default:
            buffer.append(UInt8(0xF0 | scalar >> 18))
            buffer.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            buffer.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}

// MARK: - Error locations

extension JSONParser {
    /// The 1-based line of the first Git conflict marker in the file, if there is one.
    private static func firstConflictMarkerLine(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int?
    {
        var line = 1
        var lineStart = start
        while true {
            if isConflictMarker(in: bytes, at: lineStart) { return line }
            var next = lineStart
            while next < bytes.count, bytes[next] != 0x0A { next += 1 }
            guard next < bytes.count else { return nil }
            lineStart = next + 1
            line += 1
        }
    }

    /// Whether the line starting at `lineStart` is a conflict marker line: seven `<`, `|` or
    /// `>` followed by a space or the end of the line, or exactly seven `=`.
    private static func isConflictMarker(in bytes: UnsafeBufferPointer<UInt8>, at lineStart: Int) -> Bool {
        let markerLength = 7
        guard bytes.count - lineStart >= markerLength else { return false }
        let first = bytes[lineStart]
        switch first {
        case UInt8(ascii: "<"), UInt8(ascii: "="), UInt8(ascii: ">"), UInt8(ascii: "|"):
            break
        default:
            return false
        }
        for offset in 1..<markerLength where bytes[lineStart + offset] != first {
            return false
        }
        let after = lineStart + markerLength
        let endsLine =
            after == bytes.count || bytes[after] == 0x0A
            || (bytes[after] == 0x0D && (after + 1 == bytes.count || bytes[after + 1] == 0x0A))
        if first == UInt8(ascii: "=") { return endsLine }
        return endsLine || bytes[after] == 0x20
    }

    /// The 1-based line and column of the byte at `offset`; the column counts Unicode scalars.
    private static func location(
        of offset: Int, in bytes: UnsafeBufferPointer<UInt8>, from start: Int
    ) -> (line: Int, column: Int) {
        let end = min(offset, bytes.count)
        var line = 1
        var lineStart = start
        var position = start
        while position < end {
            if bytes[position] == 0x0A {
                line += 1
                lineStart = position + 1
            }
            position += 1
        }
        var column = 1
        position = lineStart
        while position < end {
            if bytes[position] & 0xC0 != 0x80 { column += 1 }
            position += 1
        }
        return (line, column)
    }
}
