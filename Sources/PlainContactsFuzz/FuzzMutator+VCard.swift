import FoundationEssentials
import PlainContacts

/// Damage that knows what a vCard looks like, for ``VCardFuzzer``: cut cards, dropped,
/// doubled and swapped lines, folds at odd places, stray delimiters, odd line ends, NULs,
/// invalid UTF-8, byte order marks, UTF-16, changed `VERSION`, `CHARSET` and `ENCODING` parameters,
/// broken base64 and quoted-printable, nested cards and long lines.
extension FuzzMutator {
    /// The longest run of bytes one mutation inserts, so that a case stays fast.
    static let longestInsertion = 200_000

    /// Fragments that break or bend a content line.
    static let vCardTokens = [
        ":", ";", "=", "\\", ",", "\"", "\r", "\n", "\r\n", "\r\r\n", "\n\r", "\0", "=\r\n", "=0", "=ZZ", "=\n=",
        "\\n", "\\,", "\\;", "\\:", "\\", "\r\n ", "\r\n\t", "\n \n", "item1.", ".", ";;;;", "::", "#",
        ";TYPE=", ";TYPE=\"a,b\"", ";PREF", ";VALUE=URI", ";x=\"", "data:image/png;base64,", "BEGIN:VCARD",
        "END:VCARD", "VERSION:4.0",
    ]

    /// `VERSION` values to put in place of the one written.
    static let versions = ["2.1", "3.0", "4.0", "", "5.0", "3", "4.0.0", "2.1;x", " 3.0", "3.0\\", "\u{0}"]

    /// Parameters that change how a value is decoded.
    static let decodingParameters = [
        ";CHARSET=UTF-8", ";CHARSET=ISO-8859-1", ";CHARSET=SHIFT_JIS", ";CHARSET=WINDOWS-1251", ";CHARSET=UTF-16",
        ";CHARSET=bogus", ";CHARSET=", ";CHARSET=\"utf-8\"", ";ENCODING=QUOTED-PRINTABLE", ";ENCODING=BASE64",
        ";ENCODING=b", ";ENCODING=B", ";ENCODING=8BIT", ";ENCODING=bogus", ";ENCODING=", ";QUOTED-PRINTABLE",
        ";BASE64", ";ENCODING=QUOTED-PRINTABLE;CHARSET=SHIFT_JIS",
    ]

    /// Byte sequences that are not valid UTF-8, byte order marks and NULs.
    static let oddBytes: [[UInt8]] = [
        [0xFF], [0xC3], [0xC3, 0x28], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF], [0], [0, 0],
        [0xEF, 0xBB, 0xBF], [0xFE, 0xFF], [0xFF, 0xFE], [0x80], [0xE6, 0x97],
    ]

    /// `data` (a vCard file) with one to three mutations, each either vCard-aware or one of
    /// ``mutate(_:)``'s byte-level ones.
    mutating func mutateVCard(_ data: Data) -> Data {
        var bytes = [UInt8](data)
        for _ in 0...below(3) {
            if below(4) == 0 {
                bytes = [UInt8](mutate(Data(bytes)))
            } else {
                mutateVCardOnce(&bytes)
            }
        }
        return Data(bytes)
    }

    private mutating func mutateVCardOnce(_ bytes: inout [UInt8]) {
        let position = below(bytes.count + 1)
        switch below(15) {
        case 0:
            bytes.removeSubrange(position...)
        case 1, 2:
            editLines(&bytes)
        case 3:
            bytes.insert(contentsOf: Array(Self.vCardTokens[below(Self.vCardTokens.count)].utf8), at: position)
        case 4:
            bytes.insert(contentsOf: Self.oddBytes[below(Self.oddBytes.count)], at: below(3) == 0 ? 0 : position)
        case 5:
            foldOrUnfold(&bytes, at: position)
        case 6:
            replaceLineEnds(&bytes)
        case 7:
            changeVersion(&bytes)
        case 8:
            insertIntoParameters(&bytes, Self.decodingParameters[below(Self.decodingParameters.count)])
        case 9:
            breakEncodedValue(&bytes)
        case 10:
            nestCard(&bytes)
        case 11:
            insertLongText(&bytes, at: position)
        case 12:
            lowercaseLine(&bytes)
        case 13:
            encodeAsUTF16(&bytes)
        default:
            bytes.insert(contentsOf: Array(Self.vCardTokens[below(Self.vCardTokens.count)].utf8), at: lineStart(in: bytes))
        }
    }

    /// The offsets where lines start (after each LF, and 0).
    private static func lineStarts(_ bytes: [UInt8]) -> [Int] {
        var starts = [0]
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") && index + 1 < bytes.count {
            starts.append(index + 1)
        }
        return starts
    }

    /// The lines of `bytes`, each with its LF.
    private static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        let starts = lineStarts(bytes)
        return starts.indices.map { index in
            bytes[starts[index]..<(index + 1 < starts.count ? starts[index + 1] : bytes.count)]
        }
    }

    private mutating func lineStart(in bytes: [UInt8]) -> Int {
        let starts = Self.lineStarts(bytes)
        return starts[below(starts.count)]
    }

    /// Drops, doubles or swaps lines.
    private mutating func editLines(_ bytes: inout [UInt8]) {
        var lines = Self.lines(bytes)
        guard !lines.isEmpty else { return }
        let index = below(lines.count)
        switch below(4) {
        case 0: lines.remove(at: index)
        case 1: lines.insert(lines[index], at: below(lines.count + 1))
        case 2: lines.swapAt(index, below(lines.count))
        default: lines.removeSubrange(index..<min(lines.count, index + 1 + below(8)))
        }
        bytes = Array(lines.joined())
    }

    /// Folds a line at `position`, or removes a line end with what follows it.
    private mutating func foldOrUnfold(_ bytes: inout [UInt8], at position: Int) {
        if below(2) == 0 {
            let folds = ["\r\n ", "\r\n\t", "\n ", "\r ", "=\r\n", "=\n", "\r\n  ", "\r\n \r\n "]
            bytes.insert(contentsOf: Array(folds[below(folds.count)].utf8), at: position)
            return
        }
        let ends = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }
        guard !ends.isEmpty else { return }
        let end = ends[below(ends.count)]
        var start = end
        if start > 0, bytes[start - 1] == UInt8(ascii: "\r") { start -= 1 }
        bytes.removeSubrange(start...end)
    }

    /// Writes every line end (or one in three) as LF, CR, CR LF, CR CR LF or LF CR.
    private mutating func replaceLineEnds(_ bytes: inout [UInt8]) {
        let ends: [[UInt8]] = [[0x0A], [0x0D], [0x0D, 0x0A], [0x0D, 0x0D, 0x0A], [0x0A, 0x0D]]
        let replacement = ends[below(ends.count)]
        let every = below(2) == 0 ? 1 : 3
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + bytes.count / 8)
        var index = 0
        var count = 0
        while index < bytes.count {
            var length = 0
            if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                length = 2
            } else if bytes[index] == 0x0A || bytes[index] == 0x0D {
                length = 1
            }
            if length > 0 {
                count += 1
                result += count % every == 0 ? replacement : Array(bytes[index..<index + length])
                index += length
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        bytes = result
    }

    /// Replaces the value of one `VERSION` line, or adds one.
    private mutating func changeVersion(_ bytes: inout [UInt8]) {
        var lines = Self.lines(bytes)
        let versionLines = lines.indices.filter { lines[$0].starts(with: Array("VERSION:".utf8)) }
        let line = Array("VERSION:\(Self.versions[below(Self.versions.count)])\r\n".utf8)
        if let index = versionLines.randomElement(using: &random), below(4) != 0 {
            lines[index] = line[...]
        } else {
            lines.insert(line[...], at: below(lines.count + 1))
        }
        bytes = Array(lines.joined())
    }

    /// Inserts `parameter` after the name (or the parameters) of one line.
    private mutating func insertIntoParameters(_ bytes: inout [UInt8], _ parameter: String) {
        var lines = Self.lines(bytes)
        guard !lines.isEmpty else { return }
        let index = below(lines.count)
        var line = Array(lines[index])
        let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.count
        let semicolon = line[..<colon].firstIndex(of: UInt8(ascii: ";")) ?? colon
        line.insert(contentsOf: Array(parameter.utf8), at: below(2) == 0 ? colon : semicolon)
        lines[index] = line[...]
        bytes = Array(lines.joined())
    }

    /// Damages the value of a base64 or quoted-printable line: a stray character, a cut
    /// escape, padding in the middle, or a soft line break at its end.
    private mutating func breakEncodedValue(_ bytes: inout [UInt8]) {
        var lines = Self.lines(bytes)
        let encoded = lines.indices.filter { index in
            let text = String(decoding: lines[index].prefix(200), as: UTF8.self).uppercased()
            return text.contains("ENCODING") || text.contains("BASE64") || text.contains("QUOTED")
        }
        guard let index = encoded.randomElement(using: &random) ?? lines.indices.randomElement(using: &random) else { return }
        var line = Array(lines[index])
        let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? 0
        let at = colon + below(line.count - colon + 1)
        let damage = ["=", "==", "!", " ", "=A", "=G1", "=\r\n", "*", "-_", "\r\n\r\n", "=3D=", "====", "\u{0}"]
        line.insert(contentsOf: Array(damage[below(damage.count)].utf8), at: min(at, line.count))
        lines[index] = line[...]
        bytes = Array(lines.joined())
    }

    /// Puts a card (with or without its `END`, or an `AGENT` holding one) inside another.
    private mutating func nestCard(_ bytes: inout [UInt8]) {
        let nested = [
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Nested;Card\r\nEND:VCARD\r\n", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:x\r\n",
            "AGENT:BEGIN:VCARD\r\nVERSION:2.1\r\nN:Agent\r\nEND:VCARD\r\n", "END:VCARD\r\n", "BEGIN:VCARD\r\n",
            "AGENT;VALUE=vcard:BEGIN:VCARD\\nFN:x\\nEND:VCARD\r\n", "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n",
        ]
        let text = nested[below(nested.count)]
        let depth = below(8) == 0 ? 1 + below(300) : 1
        bytes.insert(contentsOf: Array(String(repeating: text, count: depth).utf8), at: lineStart(in: bytes))
    }

    /// A long value, a line of many parameters or many folds, at most ``longestInsertion`` bytes.
    private mutating func insertLongText(_ bytes: inout [UInt8], at position: Int) {
        let pieces = ["a", "é", "名", ";", ",", "\\,", ";TYPE=x", "=41", "QUJD", "\r\n ", ":", "\0", "😀"]
        let piece = pieces[below(pieces.count)]
        let count = 1 + below(Self.longestInsertion / piece.utf8.count)
        let text = String(repeating: piece, count: count)
        if below(2) == 0 {
            bytes.insert(contentsOf: Array(text.utf8), at: position)
        } else {
            bytes.insert(contentsOf: Array("NOTE:\(text)\r\n".utf8), at: lineStart(in: bytes))
        }
    }

    /// Writes the text as UTF-16, little or big endian, with or without a byte order mark.
    private mutating func encodeAsUTF16(_ bytes: inout [UInt8]) {
        let bigEndian = below(2) == 0
        var result: [UInt8] = below(4) == 0 ? [] : (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE])
        for unit in String(decoding: bytes, as: UTF8.self).utf16 {
            let pair = [UInt8(truncatingIfNeeded: unit >> 8), UInt8(truncatingIfNeeded: unit)]
            result += bigEndian ? pair : pair.reversed()
        }
        bytes = result
    }

    /// Writes one line in lower case.
    private mutating func lowercaseLine(_ bytes: inout [UInt8]) {
        var lines = Self.lines(bytes)
        guard !lines.isEmpty else { return }
        let index = below(lines.count)
        lines[index] = lines[index].map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }[...]
        bytes = Array(lines.joined())
    }
}
