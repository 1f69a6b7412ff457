/// Escaping and splitting of vCard property values (RFC 6350 section 3.4, RFC 2426 section 4).
///
/// A property's ``VCardProperty/rawValue`` holds the value as written, with backslash escapes.
/// Use ``escape(_:)`` or ``structured(_:)`` to build a raw value and ``unescape(_:)``,
/// ``components(_:)`` or ``listValues(_:)`` to read one.
///
/// ```swift
/// VCardText.escape("Smith, Jr.; Esq.")          // "Smith\\, Jr.\\; Esq."
/// VCardText.structured([["Doe"], ["John"], ["Q.", "R."]])  // "Doe;John;Q.,R."
/// VCardText.components("Doe;John;;;")          // ["Doe", "John", "", "", ""]
/// ```
enum VCardText {
    private static let backslash = UInt8(ascii: "\\")
    private static let comma = UInt8(ascii: ",")
    private static let semicolon = UInt8(ascii: ";")

    /// Escapes text for a vCard value: backslash, comma and semicolon get a backslash in front,
    /// and every line break (CRLF, LF or CR) becomes `\n`.
    ///
    /// ```swift
    /// VCardText.escape("a,b\nc")   // "a\\,b\\nc"
    /// ```
    static func escape(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == backslash || $0 == comma || $0 == semicolon || $0 == 10 || $0 == 13 })
        else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count + 8)
        var previousWasCR = false
        for byte in utf8 {
            switch byte {
            case backslash, comma, semicolon:
                out.append(backslash)
                out.append(byte)
            case 13:
                out.append(backslash)
                out.append(UInt8(ascii: "n"))
            case 10:
                if !previousWasCR {
                    out.append(backslash)
                    out.append(UInt8(ascii: "n"))
                }
            default:
                out.append(byte)
            }
            previousWasCR = byte == 13
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Builds a structured value such as `N` or `ADR`: each inner array is one component, its
    /// items joined by `,`; components are joined by `;`. Every item is escaped.
    ///
    /// ```swift
    /// VCardText.structured([[""], [""], ["1 Main St"], ["Springfield"]])  // ";;1 Main St;Springfield"
    /// ```
    static func structured(_ components: [[String]]) -> String {
        components.map { items in items.map(escape).joined(separator: ",") }.joined(separator: ";")
    }

    /// Removes backslash escapes: `\n` and `\N` become a line feed; `\,`, `\;` and `\\` become
    /// the character itself, and so do `\:` and `\"`, which Gmail and others write. Any other
    /// backslash is kept as written. (The reader has already doubled the backslashes of a
    /// vCard 2.1 card that are literal there.)
    ///
    /// ```swift
    /// VCardText.unescape("Line 1\\nLine 2\\, more")   // "Line 1\nLine 2, more"
    /// ```
    static func unescape(_ raw: some StringProtocol) -> String {
        let utf8 = raw.utf8
        guard utf8.contains(backslash) else { return String(raw) }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == backslash else {
                out.append(byte)
                continue
            }
            guard let next = iterator.next() else {
                out.append(backslash)
                break
            }
            switch next {
            case UInt8(ascii: "n"), UInt8(ascii: "N"):
                out.append(10)
            case backslash, comma, semicolon, UInt8(ascii: ":"), UInt8(ascii: "\""):
                out.append(next)
            default:
                out.append(backslash)
                out.append(next)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Splits a raw value on every `;` that is not escaped and unescapes each part.
    ///
    /// ```swift
    /// VCardText.components("Doe;John\\; Jr;;")   // ["Doe", "John; Jr", "", ""]
    /// ```
    static func components(_ raw: some StringProtocol) -> [String] {
        split(raw, on: semicolon).map { unescape($0) }
    }

    /// Splits a raw value on every `,` that is not escaped and unescapes each part.
    ///
    /// ```swift
    /// VCardText.listValues("work,home\\, garden")   // ["work", "home, garden"]
    /// ```
    static func listValues(_ raw: some StringProtocol) -> [String] {
        split(raw, on: comma).map { unescape($0) }
    }

    /// Splits a structured raw value into components and each component into its list items,
    /// the inverse of ``structured(_:)``.
    ///
    /// ```swift
    /// VCardText.structuredValues("Doe;John;Q.,R.;;")   // [["Doe"], ["John"], ["Q.", "R."], [""], [""]]
    /// ```
    static func structuredValues(_ raw: some StringProtocol) -> [[String]] {
        split(raw, on: semicolon).map { component in
            split(component, on: comma).map { unescape($0) }
        }
    }

    /// Splits on `separator` wherever it is not preceded by an escaping backslash.
    /// The parts keep their escapes. An empty value gives one empty part.
    static func split(_ raw: some StringProtocol, on separator: UInt8) -> [Substring] {
        let text = Substring(raw)
        let utf8 = text.utf8
        var parts: [Substring] = []
        var partStart = utf8.startIndex
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == backslash {
                index = utf8.index(after: index)
                if index != utf8.endIndex { index = utf8.index(after: index) }
                continue
            }
            if byte == separator {
                parts.append(text[partStart..<index])
                partStart = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        parts.append(text[partStart..<utf8.endIndex])
        return parts
    }

    /// Replaces each line break (CRLF, LF or CR) with the escape `\n`, leaving all else as is.
    static func escapeLineBreaks(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 10 || $0 == 13 }) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 8)
        var previousWasCR = false
        for byte in text.utf8 {
            if byte == 13 || (byte == 10 && !previousWasCR) {
                out.append(backslash)
                out.append(UInt8(ascii: "n"))
            } else if byte != 10 {
                out.append(byte)
            }
            previousWasCR = byte == 13
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The text without leading and trailing spaces and tabs.
    static func trimmingWhitespace(_ text: Substring) -> Substring {
        var result = text
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }

    /// Upper-cases ASCII letters only, leaving every other character as it is.
    static func asciiUppercased(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else { return text }
        return String(decoding: text.utf8.map { asciiUppercased($0) }, as: UTF8.self)
    }

    /// The upper-case form of an ASCII letter; any other byte unchanged.
    @inline(__always)
    static func asciiUppercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
    }
}
