import Foundation
import Glibc
import PlainContactsSystem

/// The file name (without extension) of a record: a slug of the name plus a random suffix,
/// such as `katie-bell-7kq2mx`.
///
/// It is fixed when the record is first saved and never changes, so a rename does not move the
/// file; the random suffix keeps keys unique when two clones create records at the same time.
package struct RecordKey: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    package var rawValue: String

    /// Accepts a key read from a file name: non-empty, no path separators, no leading dot.
    ///
    /// The check compares bytes: it runs for every file name and index entry when a large store
    /// opens, and Foundation's substring search would cost more than everything else together.
    package init?(rawValue: String) {
        var text = rawValue
        guard text.withUTF8({ Self.isValid(UnsafeRawBufferPointer($0)) }) else { return nil }
        self.rawValue = text
    }

    /// Whether UTF-8 bytes make a valid key (see ``init(rawValue:)``), checked without making
    /// a string: the index's keys are checked in place.
    static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, (1...200).contains(bytes.count), bytes[0] != UInt8(ascii: ".") else {
            return false
        }
        return memchr(base, Int32(UInt8(ascii: "/")), bytes.count) == nil && memchr(base, 0, bytes.count) == nil
    }

    package var description: String { rawValue }

    /// Byte order of the text, the same on every machine.
    package static func < (lhs: RecordKey, rhs: RecordKey) -> Bool {
        lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
    }

    private static let suffixAlphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")

    /// A new key for a record with this display name; `fallback` names nameless records.
    static func make<G: RandomNumberGenerator>(
        name: String?, fallback: String, using generator: inout G
    ) -> RecordKey {
        let slug = slug(of: name ?? "")
        var suffix = ""
        for _ in 0..<6 {
            suffix.append(suffixAlphabet[Int(generator.next(upperBound: UInt32(suffixAlphabet.count)))])
        }
        let text = (slug.isEmpty ? fallback : slug) + "-" + suffix
        return RecordKey(rawValue: text) ?? RecordKey(unchecked: fallback + "-" + suffix)
    }

    /// The key of a record made from an account's card: the slug of the name with a suffix
    /// drawn from the card's UID (the first bytes of its SHA-256 digest), so that every clone
    /// that makes the record from that card names its file alike.
    static func derived(name: String?, fallback: String, uid: String) -> RecordKey {
        var digest = DigestGenerator(seed: uid)
        return make(name: name, fallback: fallback, using: &digest)
    }

    /// Numbers drawn from the SHA-256 digests of a text: the same text gives the same numbers
    /// on every machine.
    private struct DigestGenerator: RandomNumberGenerator {
        private var block: [UInt8]
        private var offset = 0

        init(seed: String) {
            block = SHA256.hash(seed.utf8)
        }

        mutating func next() -> UInt64 {
            if offset + 8 > block.count {
                block = SHA256.hash(block)
                offset = 0
            }
            var value: UInt64 = 0
            for byte in block[offset..<offset + 8] { value = value << 8 | UInt64(byte) }
            offset += 8
            return value
        }
    }

    static func make(name: String?, fallback: String) -> RecordKey {
        var generator = SystemRandomNumberGenerator()
        return make(name: name, fallback: fallback, using: &generator)
    }

    private init(unchecked: String) {
        rawValue = unchecked
    }

    /// Latin letters that neither transliteration nor diacritic stripping turn into ASCII.
    private static let latinLetters: [Unicode.Scalar: String] = [
        "ø": "o", "ł": "l", "đ": "d", "ß": "ss", "æ": "ae", "œ": "oe", "þ": "th", "ð": "d", "ı": "i", "ħ": "h",
    ]

    /// How many Unicode scalars of a name its slug is made from: enough for 40 letters and the
    /// spaces, marks and punctuation between them, and a bound on the transliteration, whose
    /// time grows faster than the length of its input (a million accented letters took 28 s).
    static let slugSourceLimit = 160

    /// The start of a name that its slug is made from: at most ``slugSourceLimit`` scalars.
    static func slugSource(of name: String) -> String {
        let scalars = name.unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: slugSourceLimit, limitedBy: scalars.endIndex),
            end != scalars.endIndex
        else { return name }
        var source = String.UnicodeScalarView()
        source.append(contentsOf: scalars[..<end])
        return String(source)
    }

    /// Lowercase ASCII letters and digits joined by single hyphens, at most 40 characters;
    /// other scripts are transliterated to Latin first. Only the start of the name counts (see
    /// ``slugSource(of:)``), so the time taken is bounded whatever the name's length.
    static func slug(of name: String) -> String {
        var text = slugSource(of: name)
        if !text.allSatisfy(\.isASCII) {
            text = text.applyingTransform(.toLatin, reverse: false) ?? text
            text = text.applyingTransform(.stripDiacritics, reverse: false) ?? text
        }
        var slug = ""
        var pendingHyphen = false
        for scalar in text.lowercased().unicodeScalars.flatMap({ latinLetters[$0] ?? String($0) }).flatMap(\.unicodeScalars) {
            let isWordCharacter = (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9")
            if isWordCharacter {
                if pendingHyphen, !slug.isEmpty { slug.append("-") }
                pendingHyphen = false
                slug.unicodeScalars.append(scalar)
                if slug.count >= 40 { break }
            } else if scalar != "'" && scalar != "\u{2019}" {
                pendingHyphen = true
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug
    }
}
