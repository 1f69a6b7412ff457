/// Classifies Unicode scalars as belonging to the scripts in which Chinese, Japanese and Korean
/// names are written.
///
/// The Swift standard library does not expose the Unicode Script property, so the blocks are
/// listed here. The lists are fixed: they feed ``NameNormalizer/words(_:)``, whose results must
/// not change between versions.
enum CJKScript {
    /// Whether `scalar` is Han, Hiragana, Katakana or Hangul, or one of the marks written with
    /// them in names: the prolonged sound mark `ー`, the iteration marks `々 〻 ゝ ゞ ヽ ヾ`, the
    /// voiced sound marks `゙ ゚` and the katakana middle dot `・`.
    ///
    /// The blocks, by code point:
    /// - Han: U+2E80–2FDF (radicals), U+3005, U+3007, U+3021–3029, U+3038–303B,
    ///   U+3400–4DBF, U+4E00–9FFF, U+F900–FAFF, U+20000–3FFFF.
    /// - Kana: U+3031–3035, U+3041–3096, U+3099–30FF, U+31F0–31FF, U+32D0–32FE,
    ///   U+FF65–FF9F, U+1AFF0–1AFFF, U+1B000–1B16F.
    /// - Hangul: U+1100–11FF, U+3131–318E, U+A960–A97F, U+AC00–D7A3, U+D7B0–D7FF,
    ///   U+FFA0–FFDC.
    static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x1100 { return false }
        switch value {
        case 0x1100...0x11FF,
            0x2E80...0x2FDF,
            0x3005, 0x3007, 0x3021...0x3029, 0x3031...0x3035, 0x3038...0x303B,
            0x3041...0x3096, 0x3099...0x30FF,
            0x3131...0x318E,
            0x31F0...0x31FF, 0x32D0...0x32FE,
            0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA960...0xA97F, 0xAC00...0xD7A3, 0xD7B0...0xD7FF,
            0xF900...0xFAFF,
            0xFF65...0xFF9F, 0xFFA0...0xFFDC,
            0x1AFF0...0x1AFFF, 0x1B000...0x1B16F,
            0x20000...0x3FFFF:
            return true
        default:
            return false
        }
    }

    /// Whether `scalar` is Katakana (full- or half-width), including the prolonged sound mark
    /// `ー`, the iteration marks `ヽ ヾ`, the voiced sound marks and the middle dot `・`.
    ///
    /// The blocks, by code point: U+3099–309C, U+30A0–30FF, U+31F0–31FF, U+32D0–32FE,
    /// U+FF65–FF9F, U+1AFF0–1AFFF, U+1B000, U+1B164–1B167.
    static func isKatakana(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3099...0x309C, 0x30A0...0x30FF, 0x31F0...0x31FF, 0x32D0...0x32FE,
            0xFF65...0xFF9F, 0x1AFF0...0x1AFFF, 0x1B000, 0x1B164...0x1B167:
            return true
        default:
            return false
        }
    }

    /// Whether `text` has at least one scalar that is not white space, and every such scalar
    /// satisfies `belongs`.
    static func isWritten(_ text: String, in belongs: (Unicode.Scalar) -> Bool) -> Bool {
        var sawScalar = false
        for scalar in text.unicodeScalars where !NameNormalizer.isWhiteSpace(scalar) {
            guard belongs(scalar) else { return false }
            sawScalar = true
        }
        return sawScalar
    }
}
