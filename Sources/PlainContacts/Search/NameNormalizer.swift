/// Folds name text to one canonical form, so that searching, sorting and ``NameHash`` ignore
/// case, diacritics, full-width and half-width forms, and spacing.
///
/// ```swift
/// NameNormalizer.normalize("  ＫＡＴＩＥ   Zoë ")  // "katie zoe"
/// NameNormalizer.words("O'Brien-Smith")          // ["o", "brien", "smith"]
/// ```
///
/// The algorithm is fixed and versioned (version 1). ``NameHash`` values computed from it are
/// stored in files, so it must give the same result on every machine and in every version of
/// the library; a change would need a new version and a migration. See ``normalize(_:)``.
enum NameNormalizer {
    /// The version of the normalization algorithm described in ``normalize(_:)``.
    static let version = 1

    /// Returns the canonical form of `text`.
    ///
    /// Version 1 of the algorithm, applied in this order:
    /// 1. Decompose with Unicode compatibility decomposition (NFKD, Foundation's
    ///    `decomposedStringWithCompatibilityMapping`). This also folds full-width and
    ///    half-width forms: "Ｋａｔｉｅ" becomes "Katie", "ｶﾀｶﾅ" becomes "カタカナ".
    /// 2. Drop every scalar in the combining-mark blocks U+0300–036F, U+1AB0–1AFF,
    ///    U+1DC0–1DFF, U+20D0–20FF and U+FE20–FE2F, and no other. Marks outside these blocks
    ///    survive, such as the Japanese voiced sound marks U+3099 and U+309A, so that
    ///    "ガ" stays distinct from "カ". Letters that some languages count as letters of their
    ///    own but Unicode writes with a mark fold to their base: "Й" to "и", "Å" to "a".
    ///    Letters without a decomposition keep their identity: "Ø" becomes "ø", not "o".
    /// 3. Replace each scalar by its full Unicode lowercase mapping
    ///    (`Unicode.Scalar.Properties.lowercaseMapping`), one scalar at a time, without
    ///    context: "ß" stays "ß", a final capital sigma becomes "σ".
    /// 4. Compose with Unicode canonical composition (NFC, Foundation's
    ///    `precomposedStringWithCanonicalMapping`): Hangul jamo become syllables again,
    ///    "カ" + U+3099 becomes "ガ".
    /// 5. Remove white space at both ends and replace every inner run of white space by one
    ///    U+0020 SPACE. White space is the 25 scalars with the Unicode property White_Space:
    ///    U+0009–000D, U+0020, U+0085, U+00A0, U+1680, U+2000–200A, U+2028, U+2029, U+202F,
    ///    U+205F and U+3000.
    ///
    /// Text made only of ASCII takes a shortcut that gives the same result (ASCII letters
    /// lowercased, ASCII white space trimmed and collapsed) without calling Foundation. So does
    /// text made only of the Latin, Greek and Cyrillic letters up to U+045F and in
    /// U+1E00–1FFF, white space, Han ideographs, kana and Hangul syllables: each such scalar
    /// folds on its own, through a table built once from steps 1–3 with Foundation.
    ///
    /// The result depends only on the Unicode data of the characters involved; characters
    /// that a later Unicode version newly assigns may fold differently there.
    ///
    /// ```swift
    /// NameNormalizer.normalize("Chloé  DUBOIS")  // "chloe dubois"
    /// NameNormalizer.normalize("ｶﾞｯｺｳ")           // "ガッコウ"
    /// ```
    static func normalize(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return normalizeASCII(text)
        }
        return normalizeWithFoldTable(text) ?? normalizeWithFoundation(text)
    }

    /// Returns the words of `text` that name search indexes, in order.
    ///
    /// The text is normalized with ``normalize(_:)`` and split on every scalar that is not a
    /// letter, number or mark (Unicode general categories L*, N* and M*): "O'Brien" gives
    /// `["o", "brien"]`, "Jean-Luc" gives `["jean", "luc"]`. Because Chinese, Japanese and
    /// Korean names are written without spaces, a word that mixes those scripts with others
    /// is followed by each of its runs of Han, Hiragana, Katakana and Hangul as extra words:
    /// "taro山田" gives `["taro山田", "山田"]`. A word written only in those scripts is one
    /// word already.
    ///
    /// ```swift
    /// NameNormalizer.words("van der Berg")  // ["van", "der", "berg"]
    /// ```
    static func words(_ text: String) -> [String] {
        words(ofNormalized: normalize(text))
    }
}

extension NameNormalizer {
    /// Returns the words of text that ``normalize(_:)`` returned, as ``words(_:)`` does.
    static func words(ofNormalized text: String) -> [String] {
        var words: [String] = []
        for token in tokens(ofNormalized: text) {
            words.append(String(token))
            let runs = scriptRuns(of: token)
            if runs.count > 1 {
                for run in runs where run.isCJK {
                    words.append(String(token.unicodeScalars[run.range]))
                }
            }
        }
        return words
    }

    /// A maximal run of scalars of a word that are all CJK (see ``CJKScript/isCJK(_:)``) or
    /// all not CJK.
    struct ScriptRun {
        var range: Range<String.UnicodeScalarView.Index>
        var isCJK: Bool
    }

    /// Splits already normalized text into its words, on every scalar that is not a letter,
    /// number or mark.
    static func tokens(ofNormalized text: String) -> [Substring] {
        var tokens: [Substring] = []
        let scalars = text.unicodeScalars
        var start: String.UnicodeScalarView.Index?
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if isWordScalar(scalar) {
                if start == nil { start = index }
            } else if let wordStart = start {
                tokens.append(Substring(scalars[wordStart..<index]))
                start = nil
            }
            scalars.formIndex(after: &index)
        }
        if let wordStart = start {
            tokens.append(Substring(scalars[wordStart..<scalars.endIndex]))
        }
        return tokens
    }

    /// Splits `word` into maximal runs of CJK and of other scalars.
    static func scriptRuns(of word: Substring) -> [ScriptRun] {
        var runs: [ScriptRun] = []
        let scalars = word.unicodeScalars
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let isCJK = CJKScript.isCJK(scalars[index])
            let start = index
            repeat {
                scalars.formIndex(after: &index)
            } while index < scalars.endIndex && CJKScript.isCJK(scalars[index]) == isCJK
            runs.append(ScriptRun(range: start..<index, isCJK: isCJK))
        }
        return runs
    }

    /// Whether `scalar` belongs to a word: a letter, number or mark.
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 {
            return (0x61...0x7A).contains(value) || (0x41...0x5A).contains(value)
                || (0x30...0x39).contains(value)
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark,
            .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }
}
