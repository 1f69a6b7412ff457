/// The byte classes of HTTP/1.1's grammar (RFC 9110 §5.6, RFC 9112), used by the parser to
/// check requests and by the serializer to check what handlers put in responses.
///
/// ```swift
/// HTTPSyntax.isToken(Array("PROPFIND".utf8))   // true
/// HTTPSyntax.trimmed(" keep-alive ")           // "keep-alive"
/// ```
enum HTTPSyntax {
    /// Carriage return, the first byte of a line end.
    static let carriageReturn: UInt8 = 0x0D
    /// Line feed, which ends a line.
    static let lineFeed: UInt8 = 0x0A
    /// A space.
    static let space: UInt8 = 0x20
    /// A horizontal tab.
    static let tab: UInt8 = 0x09
    /// The colon between a field's name and its value.
    static let colon: UInt8 = 0x3A
    /// The semicolon that starts a chunk extension.
    static let semicolon: UInt8 = 0x3B

    /// Whether a byte may appear in a token (a method or a field name): `tchar` of RFC 9110.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Whether bytes form a non-empty token.
    static func isToken(_ bytes: some Collection<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy(isTokenByte)
    }

    /// Whether a byte may appear in a field value: visible ASCII, space, tab, or the high bytes
    /// of `obs-text`. Controls (NUL, CR, LF, DEL) may not.
    static func isFieldValueByte(_ byte: UInt8) -> Bool {
        byte == tab || (byte >= space && byte != 0x7F)
    }

    /// Whether a byte may appear in a request target: visible ASCII only, no spaces.
    static func isTargetByte(_ byte: UInt8) -> Bool {
        byte > space && byte < 0x7F
    }

    /// Whether a byte is a space or a tab (`OWS`).
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab
    }

    /// The ASCII lower case of a byte; other bytes unchanged.
    static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 0x20 : byte
    }

    /// The value of a hexadecimal digit, or `nil` for another byte.
    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    /// A slice without the spaces and tabs at its ends.
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var result = bytes
        while let first = result.first, isWhitespace(first) { result.removeFirst() }
        while let last = result.last, isWhitespace(last) { result.removeLast() }
        return result
    }

    /// A string without the spaces and tabs at its ends.
    static func trimmed(_ text: some StringProtocol) -> String {
        let bytes = trimmed(ArraySlice(text.utf8))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether a string may be written as a field value by the server: no control bytes, so
    /// that a handler cannot end the header block or start a new field (response splitting).
    static func isSafeFieldValue(_ text: String) -> Bool {
        text.utf8.allSatisfy(isFieldValueByte)
    }
}
