/// Cleaning of base64 text as phones and mail clients write it: line breaks, missing `=`
/// padding and a few stray characters.
enum VCardBase64 {
    /// The text with every character outside the base64 alphabet removed (an `=` counts as
    /// one unless it ends the text), padded with `=` to a multiple of four; a single character
    /// left over at the end, which cannot encode a byte, is removed too.
    ///
    /// ```swift
    /// VCardBase64.cleaned(Array("QUJ*D".utf8)[...])   // ("QUJD", 1)
    /// VCardBase64.cleaned(Array("QUI".utf8)[...])     // ("QUI=", 0)
    /// ```
    /// - Returns: The cleaned text and how many characters were removed.
    static func cleaned(_ text: ArraySlice<UInt8>) -> (text: [UInt8], removed: Int) {
        var end = text.endIndex
        while end > text.startIndex, text[end - 1] == equals { end -= 1 }
        let body = text[..<end]
        if body.allSatisfy(isAlphabet), body.count % 4 != 1 { return (padded(Array(body)), 0) }
        var out = body.filter(isAlphabet)
        var removed = body.count - out.count
        if out.count % 4 == 1 {
            out.removeLast()
            removed += 1
        }
        return (padded(out), removed)
    }

    /// The text with `=` added up to a multiple of four characters.
    private static func padded(_ text: [UInt8]) -> [UInt8] {
        let remainder = text.count % 4
        return remainder == 0 ? text : text + Array(repeating: equals, count: 4 - remainder)
    }

    /// Whether the text starts with `data:` in any case.
    static func isDataURI(_ text: [UInt8]) -> Bool {
        text.count > 5 && String(decoding: text.prefix(5), as: UTF8.self).lowercased() == "data:"
    }

    /// Whether the media type part of a `data:` URI (before its comma) ends with `;base64`.
    static func declaresBase64(_ header: ArraySlice<UInt8>) -> Bool {
        String(decoding: header, as: UTF8.self).lowercased().hasSuffix(";base64")
    }

    /// Whether a parameter marks a value as base64: `ENCODING=b`, `ENCODING=BASE64` or `BASE64`.
    static func isBase64Parameter(_ parameter: VCardParameter) -> Bool {
        if parameter.name == "ENCODING" {
            return parameter.values.contains { value in
                let upper = VCardText.asciiUppercased(value)
                return upper == "B" || upper == "BASE64"
            }
        }
        return parameter.values.isEmpty && parameter.name == "BASE64"
    }

    @inline(__always)
    private static func isAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"):
            true
        default:
            false
        }
    }

    private static let equals = UInt8(ascii: "=")
}
