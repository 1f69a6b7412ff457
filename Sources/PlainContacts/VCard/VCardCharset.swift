import Foundation

/// Turns the bytes of a vCard value into text according to its `CHARSET` parameter.
enum VCardCharset {
    /// Decodes `bytes`.
    ///
    /// Without a charset the bytes are read as UTF-8; bytes that are not valid UTF-8 are read
    /// as windows-1252 (then ISO-8859-1), which is what old exporters that omit `CHARSET` use.
    /// UTF-8, US-ASCII, ISO-8859-1 and windows-1252 are always known; other IANA names are
    /// looked up in Foundation. Returns `nil` when the charset is unknown or the bytes are not
    /// valid in it.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, charset: String?) -> String? {
        guard let charset else { return decodeDefault(bytes) }
        switch normalized(charset) {
        case "UTF8":
            return decodeUTF8(bytes)
        case "USASCII", "ASCII", "ANSIX3.41968", "ISO646US":
            return decodeDefault(bytes)
        case "ISO88591", "LATIN1", "L1", "ISOIR100", "CP819", "IBM819":
            return decodeLatin1(bytes)
        case "WINDOWS1252", "CP1252", "XCP1252", "MSANSI":
            return String(data: Data(buffer: bytes), encoding: .windowsCP1252) ?? decodeLatin1(bytes)
        default:
            guard let encoding = String.Encoding(ianaName: charset) else { return nil }
            return String(data: Data(buffer: bytes), encoding: encoding)
        }
    }

    /// UTF-16 text that starts with its byte order mark (`FF FE` little-endian, `FE FF`
    /// big-endian) as UTF-8 bytes without the mark; an odd last byte is dropped and unpaired
    /// surrogates become U+FFFD.
    ///
    /// ```swift
    /// VCardCharset.utf8(fromUTF16: [0xFF, 0xFE, 0x41, 0x00])   // [0x41]
    /// ```
    static func utf8(fromUTF16 bytes: ArraySlice<UInt8>) -> [UInt8] {
        guard bytes.count >= 2 else { return [] }
        let start = bytes.startIndex
        let littleEndian = bytes[start] == 0xFF
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = start + 2
        while index + 1 < bytes.endIndex {
            let first = UInt16(bytes[index])
            let second = UInt16(bytes[index + 1])
            units.append(littleEndian ? first | second << 8 : first << 8 | second)
            index += 2
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }

    /// Whether `charset` names an encoding that ``decode(_:charset:)`` knows.
    static func isKnown(_ charset: String) -> Bool {
        switch normalized(charset) {
        case "UTF8", "USASCII", "ASCII", "ANSIX3.41968", "ISO646US", "ISO88591", "LATIN1", "L1", "ISOIR100",
            "CP819", "IBM819", "WINDOWS1252", "CP1252", "XCP1252", "MSANSI":
            return true
        default:
            return String.Encoding(ianaName: charset) != nil
        }
    }

    /// Decodes bytes whose charset is unknown, bogus, or not the one they are in: as UTF-8 when
    /// they are valid UTF-8, else as the charset they most plausibly are (see ``VCardCharsetGuess``).
    ///
    /// ```swift
    /// VCardCharset.decodeGuessing([0xC8, 0xE2, 0xE0, 0xED])   // ("Иван", "windows-1251")
    /// ```
    /// - Returns: The text and the name of the charset it was read as.
    static func decodeGuessing(_ bytes: UnsafeBufferPointer<UInt8>) -> (text: String, charset: String) {
        if let text = decodeUTF8(bytes) { return (text, "UTF-8") }
        let guess = VCardCharsetGuess.guess(bytes)
        if guess != .windows1252, let text = String(data: Data(buffer: bytes), encoding: guess.encoding) {
            return (text, guess.rawValue)
        }
        return (decodeDefault(bytes), VCardCharsetGuess.windows1252.rawValue)
    }

    /// UTF-8 when valid, else windows-1252, else ISO-8859-1 (which accepts every byte).
    private static func decodeDefault(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if let text = decodeUTF8(bytes) { return text }
        return String(data: Data(buffer: bytes), encoding: .windowsCP1252) ?? decodeLatin1(bytes)
    }

    /// The bytes as UTF-8, or `nil` when they are not valid UTF-8.
    static func decodeUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if !bytes.contains(where: { $0 >= 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// ISO-8859-1: every byte is the Unicode scalar of the same value.
    private static func decodeLatin1(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var text = ""
        text.unicodeScalars.reserveCapacity(bytes.count)
        for byte in bytes { text.unicodeScalars.append(Unicode.Scalar(byte)) }
        return text
    }

    /// The name in upper case without `-`, `_` and spaces, so that `utf-8`, `UTF8` and `Utf_8` match.
    private static func normalized(_ charset: String) -> String {
        String(
            decoding: charset.utf8.compactMap { byte in
                byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: " ")
                    ? nil : VCardText.asciiUppercased(byte)
            },
            as: UTF8.self
        )
    }
}
