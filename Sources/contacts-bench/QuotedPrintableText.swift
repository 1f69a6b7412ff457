import Foundation

/// Quoted-printable values of vCard 2.1 cards, decoded for the fidelity comparison.
enum QuotedPrintableText {
    /// The text of a quoted-printable value whose bytes are in `charset` (a lowercased IANA
    /// name; UTF-8 when `nil`). `=` not followed by two hex digits is a literal `=`; bytes that
    /// are not valid in the charset are read as Windows-1252.
    ///
    /// ```swift
    /// QuotedPrintableText.decode("M=C3=BCller", charset: "utf-8")  // "Müller"
    /// ```
    static func decode(_ value: String, charset: String?) -> String {
        let bytes = Array(value.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "="), index + 2 < bytes.count,
                let high = hexDigit(bytes[index + 1]), let low = hexDigit(bytes[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        let data = Data(decoded)
        return String(data: data, encoding: encoding(charset)) ?? String(data: data, encoding: .windowsCP1252)
            ?? String(decoding: data, as: UTF8.self)
    }

    private static func encoding(_ charset: String?) -> String.Encoding {
        switch charset {
        case "iso-8859-1", "latin1": .isoLatin1
        case "windows-1252", "cp1252": .windowsCP1252
        case "windows-1251": .windowsCP1251
        case "windows-1253": .windowsCP1253
        case "shift_jis", "sjis": .shiftJIS
        default: .utf8
        }
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
