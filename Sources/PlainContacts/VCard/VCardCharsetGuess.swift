import Foundation

/// The charset that 8-bit text of unknown charset most plausibly is, from the bytes alone.
///
/// Old phones and mail clients wrote their local charset without a `CHARSET` parameter, or
/// with a wrong one. The guess looks for what each charset's text is made of: Shift_JIS pairs
/// of bytes with lead bytes that Western text hardly uses, runs of letters above `0xC0` (whole
/// words of Cyrillic or Greek, which windows-1251 and windows-1253 put there), told apart by
/// their most frequent letters; anything else is windows-1252.
///
/// ```swift
/// VCardCharsetGuess.guess(bytes)   // [0x93, 0xFA, 0x96, 0x7B], "日本": .shiftJIS
/// VCardCharsetGuess.guess(bytes)   // [0x4D, 0xFC, 0x6C, 0x6C, 0x65, 0x72], "Müller": .windows1252
/// ```
enum VCardCharsetGuess: String {
    case windows1252 = "windows-1252"
    case windows1251 = "windows-1251"
    case windows1253 = "windows-1253"
    case shiftJIS = "Shift_JIS"

    /// The Foundation encoding of the charset.
    var encoding: String.Encoding {
        switch self {
        case .windows1252: .windowsCP1252
        case .windows1251: .windowsCP1251
        case .windows1253: .windowsCP1253
        case .shiftJIS: .shiftJIS
        }
    }

    /// The most plausible charset of `bytes`, which are not valid UTF-8.
    static func guess(_ bytes: UnsafeBufferPointer<UInt8>) -> VCardCharsetGuess {
        if looksLikeShiftJIS(bytes) { return .shiftJIS }
        guard looksNonLatin(bytes) else { return .windows1252 }
        var cyrillic = 0
        var greek = 0
        for byte in bytes {
            switch byte {
            // а, о, и, в: the most frequent Cyrillic letters; rare letters in windows-1253.
            case 0xE0, 0xEE, 0xE8, 0xE2: cyrillic += 1
            // ά έ ή ί ό ύ ώ, α, ο: accented vowels nearly every Greek word has; rare in Cyrillic.
            case 0xDC...0xDF, 0xFC...0xFE, 0xE1, 0xEF: greek += 1
            default: break
            }
        }
        return greek > cyrillic ? .windows1253 : .windows1251
    }

    /// Whether the bytes are well-formed Shift_JIS with at least one two-byte character and
    /// more two-byte characters led by `0x81`–`0x9F` (kana and common kanji; control codes
    /// and rare punctuation in windows-1252) than not.
    private static func looksLikeShiftJIS(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        var lowLeads = 0
        var highLeads = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x00...0x7F, 0xA1...0xDF:
                index += 1
                continue
            case 0x81...0x9F, 0xE0...0xFC:
                guard index + 1 < bytes.count else { return false }
                let trail = bytes[index + 1]
                guard (0x40...0x7E).contains(trail) || (0x80...0xFC).contains(trail) else { return false }
                if byte <= 0x9F { lowLeads += 1 } else { highLeads += 1 }
                index += 2
            default:
                return false
            }
        }
        return lowLeads > 0 && lowLeads >= highLeads
    }

    /// Whether the letters above `0xC0` make whole words: a run of three or more, or at least
    /// as many as the ASCII letters. Accented Latin letters come one at a time among ASCII ones.
    private static func looksNonLatin(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var high = 0
        var ascii = 0
        var run = 0
        for byte in bytes {
            if byte >= 0xC0 {
                high += 1
                run += 1
                if run >= 3 { return true }
            } else {
                run = 0
                if (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) { ascii += 1 }
            }
        }
        return high > 0 && high >= ascii
    }
}
