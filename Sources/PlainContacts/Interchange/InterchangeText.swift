import FoundationEssentials

/// The text of an import file in any of the encodings exports come in: UTF-8 with or without a
/// byte order mark, UTF-16 with one (or, recognisably, without), Windows-1252, Shift_JIS and
/// the other charsets ``VCardCharsetGuess`` tells apart.
///
/// ```swift
/// let (text, guessed) = InterchangeText.decode(bytes)
/// if let guessed { print("read as \(guessed)") }
/// ```
enum InterchangeText {
    /// The text of `bytes`, and the name of the encoding when it was guessed rather than
    /// marked or valid UTF-8 (the caller warns then).
    static func decode(_ bytes: [UInt8]) -> (text: String, guessed: String?) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return (String(decoding: bytes.dropFirst(3), as: UTF8.self), nil)
        }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return (String(decoding: VCardCharset.utf8(fromUTF16: bytes[...]), as: UTF8.self), nil)
        }
        if let order = unmarkedUTF16(bytes) {
            let marked = (order == .littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]) + bytes
            return (String(decoding: VCardCharset.utf8(fromUTF16: marked[...]), as: UTF8.self), "UTF-16")
        }
        return bytes.withUnsafeBufferPointer { buffer in
            let (text, charset) = VCardCharset.decodeGuessing(buffer)
            return (text, charset == "UTF-8" ? nil : charset)
        }
    }

    private enum ByteOrder { case littleEndian, bigEndian }

    /// The byte order of UTF-16 text without a byte order mark, recognised by the zero bytes
    /// that ASCII text has every other byte; `nil` for anything else.
    private static func unmarkedUTF16(_ bytes: [UInt8]) -> ByteOrder? {
        let sample = bytes.prefix(512)
        guard sample.count >= 4, sample.count % 2 == 0 else { return nil }
        var evenZeros = 0
        var oddZeros = 0
        for (index, byte) in sample.enumerated() where byte == 0 {
            if index % 2 == 0 { evenZeros += 1 } else { oddZeros += 1 }
        }
        let pairs = sample.count / 2
        if oddZeros * 10 >= pairs * 8, evenZeros == 0 { return .littleEndian }
        if evenZeros * 10 >= pairs * 8, oddZeros == 0 { return .bigEndian }
        return nil
    }
}
