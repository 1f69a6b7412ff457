import FoundationEssentials

/// The store's canonical JSON text: one spelling for every value, the same on every machine,
/// so that files diff cleanly under Git and unchanged records keep their bytes.
///
/// The rules:
/// - object keys sorted by their UTF-8 bytes (plain byte order, independent of locale);
/// - two-space indentation, one member or element per line, `"key": value` with one space
///   after the colon and none before it;
/// - `{}` and `[]` for an empty object and an empty array;
/// - `\n` line ends and a final newline after the document;
/// - numbers written with their literal text (see ``JSONNumber``);
/// - strings written as UTF-8, non-ASCII characters as they are and `/` unescaped; only `"`,
///   `\`, control characters below U+0020 (as `\b` `\t` `\n` `\f` `\r`, otherwise `\u00XX`
///   with lowercase hex) and U+2028 / U+2029 (as `\u2028` / `\u2029`) are escaped.
///
/// Parsing the output gives back the same value: `JSONParser.parse(encode(v)) == v`.
/// To tell whether a file is already canonical, compare its bytes with
/// `encode(try JSONParser.parse(bytes))`.
///
/// ```swift
/// let value = JSONValue.object(["b": .array([]), "a": .number(JSONNumber(1))])
/// String(decoding: CanonicalJSON.encode(value), as: UTF8.self)
/// // {
/// //   "a": 1,
/// //   "b": []
/// // }
/// ```
package enum CanonicalJSON {
    /// Returns the canonical bytes of `value`, ending with a newline.
    package static func encode(_ value: JSONValue) -> Data {
        var output: [UInt8] = []
        output.reserveCapacity(1024)
        write(value, indentation: 0, to: &output)
        output.append(UInt8(ascii: "\n"))
        return Data(output)
    }

    /// The canonical text of `value` on one line: the same keys in the same order and the same
    /// escapes, without line breaks and indentation, a space after each comma; for a log line
    /// or a line of a textual view of a record.
    ///
    /// ```swift
    /// CanonicalJSON.compact(.object(["b": .array([.number(JSONNumber(2)), .number(JSONNumber(3))]), "a": .number(JSONNumber(1))]))
    /// // {"a": 1, "b": [2, 3]}
    /// ```
    package static func compact(_ value: JSONValue) -> String {
        let text = String(decoding: encode(value), as: UTF8.self)
        var result = ""
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            if result.hasSuffix(",") { result += " " }
            result += trimmed
        }
        return result
    }

    private static func write(_ value: JSONValue, indentation: Int, to output: inout [UInt8]) {
        switch value {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let bool):
            output.append(contentsOf: bool ? "true".utf8 : "false".utf8)
        case .number(let number):
            output.append(contentsOf: number.literal.utf8)
        case .string(let string):
            writeString(string, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else {
                output.append(contentsOf: "[]".utf8)
                return
            }
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                writeLineBreak(indentation: indentation + 1, to: &output)
                write(element, indentation: indentation + 1, to: &output)
            }
            writeLineBreak(indentation: indentation, to: &output)
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else {
                output.append(contentsOf: "{}".utf8)
                return
            }
            output.append(UInt8(ascii: "{"))
            let sorted = members.sorted { utf8Precedes($0.key, $1.key) }
            for (position, member) in sorted.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                writeLineBreak(indentation: indentation + 1, to: &output)
                writeString(member.key, to: &output)
                output.append(contentsOf: ": ".utf8)
                write(member.value, indentation: indentation + 1, to: &output)
            }
            writeLineBreak(indentation: indentation, to: &output)
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func writeLineBreak(indentation: Int, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\n"))
        for _ in 0..<indentation {
            output.append(UInt8(ascii: " "))
            output.append(UInt8(ascii: " "))
        }
    }

    /// Whether `left` sorts before `right` in plain UTF-8 byte order.
    private static func utf8Precedes(_ left: String, _ right: String) -> Bool {
        let fast = left.utf8.withContiguousStorageIfAvailable { leftBytes in
            right.utf8.withContiguousStorageIfAvailable { rightBytes in
                leftBytes.lexicographicallyPrecedes(rightBytes)
            }
        }
        if let fast, let result = fast { return result }
        return left.utf8.lexicographicallyPrecedes(right.utf8)
    }

    private static func writeString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = string
        text.withUTF8 { bytes in
            var copiedUpTo = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                let escapeLength: Int
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    escapeLength = 1
                } else if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80,
                    bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9
                {
                    escapeLength = 3  // U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR
                } else {
                    index += 1
                    continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copiedUpTo..<index]))
                if escapeLength == 3 {
                    output.append(contentsOf: (bytes[index + 2] == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8)
                } else {
                    appendEscape(of: byte, to: &output)
                }
                index += escapeLength
                copiedUpTo = index
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copiedUpTo..<bytes.count]))
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(of byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): output.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\"))
        case 0x08: output.append(UInt8(ascii: "b"))
        case 0x09: output.append(UInt8(ascii: "t"))
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0C: output.append(UInt8(ascii: "f"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        default:
            output.append(contentsOf: "u00".utf8)
            output.append(lowercaseHexDigit(byte >> 4))
            output.append(lowercaseHexDigit(byte & 0x0F))
        }
    }

    private static func lowercaseHexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
