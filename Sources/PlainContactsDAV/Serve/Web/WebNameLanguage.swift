import PlainContacts

/// The language of a name, told from its script, for the `lang` attribute of the pages, which
/// are in English: what picks a Japanese rather than a Chinese glyph for a Han character, and
/// a reader's voice. And Japanese readings (phonetic names) shown as ruby over the name.
///
/// Kana in the name or its reading says Japanese, Hangul Korean, Han read in Latin letters
/// (pinyin) Chinese; Han alone says only the script (`und-Hani`). Greek, Hebrew, Thai and
/// Georgian say their language; Cyrillic, Arabic and Devanagari only their script. A name in
/// Latin letters, or one with nothing to tell, gets none.
///
/// ```swift
/// WebNameLanguage.tag(of: "山田 太郎", reading: "やまだ たろう")   // "ja"
/// WebNameLanguage.tag(of: "Katie Bell")                        // nil
/// ```
enum WebNameLanguage {
    /// The BCP 47 tag of `name`'s language or script; `nil` when it needs none.
    static func tag(of name: String, reading: String? = nil) -> String? {
        let scalars = Array(name.unicodeScalars)
        let readingScalars = Array((reading ?? "").unicodeScalars)
        if (scalars + readingScalars).contains(where: isKana) { return "ja" }
        if scalars.contains(where: isHangul) { return "ko" }
        if scalars.contains(where: isHan) {
            return readingScalars.contains(where: { $0.properties.isAlphabetic && $0.value < 0x250 }) ? "zh" : "und-Hani"
        }
        for scalar in scalars {
            switch scalar.value {
            case 0x0370...0x03FF: return "el"
            case 0x0400...0x04FF: return "und-Cyrl"
            case 0x0590...0x05FF: return "he"
            case 0x0600...0x06FF: return "und-Arab"
            case 0x0900...0x097F: return "und-Deva"
            case 0x0E00...0x0E7F: return "th"
            case 0x10A0...0x10FF: return "ka"
            default: continue
            }
        }
        return nil
    }

    /// ` lang="…"` for `name`, or nothing.
    static func attribute(of name: String, reading: String? = nil) -> String {
        tag(of: name, reading: reading).map { " lang=\"\($0)\"" } ?? ""
    }

    /// A person's name as HTML: with each Japanese reading as ruby over its part (`<ruby>山田
    /// <rt>やまだ</rt></ruby>`), in the order the composite name gives the parts; the composite
    /// name escaped otherwise.
    static func nameHTML(of person: Person) -> String {
        let name = person.compositeName ?? "(no name)"
        let pairs: [(String?, String?)] = [
            (person.lastName, person.lastNamePhonetic), (person.middleName, person.middleNamePhonetic),
            (person.firstName, person.firstNamePhonetic),
        ]
        let parts = pairs.compactMap { part, reading -> (part: String, reading: String, at: String.Index)? in
            guard let part, !part.isEmpty, let range = name.range(of: part) else { return nil }
            return (part, reading ?? "", range.lowerBound)
        }.sorted { $0.at < $1.at }
        let readings = parts.map(\.reading).joined(separator: " ")
        // Ruby only when the parts make the whole name (no prefix or suffix left out).
        let whole = parts.map(\.part).joined().filter { !$0.isWhitespace } == name.filter { !$0.isWhitespace }
        guard whole, parts.contains(where: { !$0.reading.isEmpty }), tag(of: name, reading: readings) == "ja" else {
            return WebHTML.escaped(name)
        }
        return parts.map { part in
            part.reading.isEmpty
                ? WebHTML.escaped(part.part) : "<ruby>\(WebHTML.escaped(part.part))<rt>\(WebHTML.escaped(part.reading))</rt></ruby>"
        }.joined(separator: name.contains(" ") ? " " : "")
    }

    private static func isKana(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3041...0x3096, 0x3099...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: true
        default: false
        }
    }

    private static func isHangul(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF, 0x3131...0x318E, 0xAC00...0xD7A3: true
        default: false
        }
    }

    private static func isHan(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3FFFF: true
        default: false
        }
    }
}
