/// Decoding of quoted-printable values (RFC 2045 section 6.7) as vCard 2.1 writes them.
enum QuotedPrintable {
    /// An `=` that is not followed by two hexadecimal digits or a line end.
    struct MalformedEscape: Error {
        /// The offset of the `=` from the start of the input.
        var offset: Int
    }

    /// Decodes `=XX` escapes (hexadecimal, either case) and removes soft line breaks
    /// (`=` at the end of a line or of the value).
    ///
    /// ```swift
    /// try QuotedPrintable.decode(Array("=C3=84rger".utf8))   // bytes of "Ärger"
    /// ```
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(MalformedEscape) -> [UInt8] {
        let result = decodeKeepingMalformedEscapes(bytes)
        if let offset = result.firstMalformedOffset { throw MalformedEscape(offset: offset) }
        return result.bytes
    }

    /// Decodes as ``decode(_:)`` does, but keeps an `=` that is not followed by two hexadecimal
    /// digits as a literal `=`, as lenient readers do.
    ///
    /// ```swift
    /// QuotedPrintable.decodeKeepingMalformedEscapes(Array("1+1=2".utf8))   // ("1+1=2", 3)
    /// ```
    /// - Returns: The bytes, and the offset of the first such `=` (`nil` when there is none).
    static func decodeKeepingMalformedEscapes(
        _ bytes: UnsafeBufferPointer<UInt8>
    ) -> (bytes: [UInt8], firstMalformedOffset: Int?) {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var firstMalformed: Int?
        let count = bytes.count
        var index = 0
        while index < count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "=") else {
                out.append(byte)
                index += 1
                continue
            }
            guard index + 1 < count else { break }
            let first = bytes[index + 1]
            if first == 13 || first == 10 {
                index += 2
                if first == 13, index < count, bytes[index] == 10 { index += 1 }
                continue
            }
            guard index + 2 < count, let high = hexValue(first), let low = hexValue(bytes[index + 2]) else {
                if firstMalformed == nil { firstMalformed = index }
                out.append(byte)
                index += 1
                continue
            }
            out.append(high << 4 | low)
            index += 3
        }
        return (out, firstMalformed)
    }

    /// The value of a hexadecimal digit, or `nil`.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
