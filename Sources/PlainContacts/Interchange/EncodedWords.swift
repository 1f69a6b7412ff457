/// Decodes RFC 2047 encoded words in header text: `=?UTF-8?Q?Zo=C3=AB?=` is "Zoë",
/// `=?ISO-8859-1?B?WuvrCg==?=` is read as Latin-1. White space between two encoded words is
/// dropped, as the RFC says; a word that cannot be decoded (unknown charset, bad base64) is
/// left as written.
///
/// ```swift
/// EncodedWords.decode("=?UTF-8?Q?Zo=C3=AB?= Smith")   // "Zoë Smith"
/// ```
enum EncodedWords {
    /// `text` with every encoded word decoded.
    static func decode(_ text: String) -> String {
        guard text.contains("=?") else { return text }
        var result = ""
        var rest = Substring(text)
        var pendingSpace = ""
        var afterWord = false
        while !rest.isEmpty {
            if rest.hasPrefix("=?"), let (decoded, remainder) = word(at: rest) {
                // Only white space between two encoded words is dropped.
                if !afterWord { result += pendingSpace }
                result += decoded
                pendingSpace = ""
                afterWord = true
                rest = remainder
                continue
            }
            guard let character = rest.popFirst() else { break }
            if character.isWhitespace {
                pendingSpace.append(character)
                continue
            }
            result += pendingSpace
            pendingSpace = ""
            result.append(character)
            afterWord = false
        }
        return result + pendingSpace
    }

    /// The decoded text of the encoded word at the start of `text`, and the text after it.
    private static func word(at text: Substring) -> (String, Substring)? {
        let parts = text.dropFirst(2).split(separator: "?", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[3].hasPrefix("="), !parts[0].isEmpty, parts[1].count == 1,
            !parts[2].contains(where: \.isWhitespace)
        else { return nil }
        let charset = String(parts[0].split(separator: "*").first ?? "")
        let payload = String(parts[2])
        let bytes: [UInt8]?
        switch parts[1].uppercased() {
        case "B": bytes = LDIFReader.decodeBase64(payload)
        case "Q": bytes = quoted(payload)
        default: bytes = nil
        }
        guard let bytes,
            let decoded = bytes.withUnsafeBufferPointer({ VCardCharset.decode($0, charset: charset) })
        else { return nil }
        return (decoded, parts[3].dropFirst())
    }

    /// The bytes of Q-encoded text: `_` is a space, `=XX` a byte in hexadecimal.
    private static func quoted(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var utf8 = Substring(text).utf8[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "_") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "=") {
                guard utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return bytes
    }
}
