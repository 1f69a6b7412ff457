/// A person's name written as one line, as people type it and as a vCard's `FN` holds it,
/// split into the parts of a composite name.
///
/// The rules, applied to the words between spaces:
/// - "Last, First Middle" (a comma after the first part) names the last name first, unless
///   everything after the comma is a suffix ("John Doe, Jr.").
/// - Leading titles (Mr, Mrs, Ms, Mx, Dr, Prof, Sir, Rev…, with or without a dot) are the
///   prefix; trailing ones (Jr, Sr, II, III, PhD, MD, Esq…) the suffix.
/// - One word is a first name; two are first and last; with more, the words between are the
///   middle name, and lowercase particles just before the last word (van, von, de, da, di,
///   le, la, del, der, bin…) belong to the last name: "Ludwig van Beethoven".
/// - Words written in Chinese, Japanese or Korean script put the family name first:
///   "山田 太郎" is last name 山田, first name 太郎.
///
/// ```swift
/// let name = FormattedName("Lovelace, Ada")
/// person.firstName = name.first    // "Ada"
/// person.lastName = name.last      // "Lovelace"
/// ```
struct FormattedName: Sendable, Hashable {
    var prefix: String?
    var first: String?
    var middle: String?
    var last: String?
    var suffix: String?

    /// Splits `text`; blank text gives a name with no parts.
    init(_ text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Self.words($0) }
            .filter { !$0.isEmpty }
        guard let head = parts.first else {
            self.init(naturalOrder: [])
            return
        }
        let tail = parts.dropFirst()
        if tail.isEmpty || tail.allSatisfy({ $0.allSatisfy(Self.isSuffix) }) {
            self.init(naturalOrder: head)
            let trailing = tail.flatMap { $0 }
            if !trailing.isEmpty {
                suffix = ([suffix].compactMap { $0 } + trailing).joined(separator: " ")
            }
        } else {
            self.init(naturalOrder: tail.flatMap { $0 })
            if first == nil {
                first = last
                last = nil
            } else if let ownLast = last {
                middle = [middle, ownLast].compactMap { $0 }.joined(separator: " ")
            }
            last = head.joined(separator: " ")
        }
    }

    /// Splits words written in the order the name is spoken: prefix, given names, family name,
    /// suffix.
    private init(naturalOrder: [String]) {
        var words = naturalOrder[...]
        var titles: [String] = []
        while words.count > 1, let word = words.first, Self.isPrefix(word) {
            titles.append(word)
            words.removeFirst()
        }
        var endings: [String] = []
        while words.count > 1, let word = words.last, Self.isSuffix(word) {
            endings.insert(word, at: 0)
            words.removeLast()
        }
        prefix = titles.isEmpty ? nil : titles.joined(separator: " ")
        suffix = endings.isEmpty ? nil : endings.joined(separator: " ")
        guard let firstWord = words.first else { return }
        if words.count == 1 {
            first = firstWord
            return
        }
        if words.allSatisfy({ $0.unicodeScalars.contains(where: CJKScript.isCJK) }) {
            last = firstWord
            first = words.dropFirst().joined(separator: " ")
            return
        }
        var lastStart = words.endIndex - 1
        while lastStart - 1 > words.startIndex, Self.particles.contains(words[lastStart - 1]) {
            lastStart -= 1
        }
        first = firstWord
        let between = words[(words.startIndex + 1)..<lastStart]
        middle = between.isEmpty ? nil : between.joined(separator: " ")
        last = words[lastStart...].joined(separator: " ")
    }

    private static func words(_ text: Substring) -> [String] {
        text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }

    /// Titles written before a name, lowercased and without their final dot.
    private static let prefixes: Set<String> = [
        "mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir", "dame", "lord", "lady", "rev", "fr", "hon", "mme", "mlle", "herr", "frau",
    ]

    /// Titles and generations written after a name, lowercased and without dots.
    private static let suffixes: Set<String> = [
        "jr", "sr", "ii", "iii", "iv", "v", "vi", "phd", "md", "dds", "esq", "mba", "cpa", "rn", "jd",
    ]

    /// Lowercase words that belong to the family name that follows them.
    private static let particles: Set<String> = [
        "van", "von", "de", "da", "di", "du", "del", "della", "der", "den", "le", "la", "dos", "das", "do", "ter", "ten", "bin", "binti", "al", "el", "st.",
    ]

    private static func isPrefix(_ word: String) -> Bool {
        prefixes.contains(bare(word))
    }

    private static func isSuffix(_ word: String) -> Bool {
        suffixes.contains(bare(word).filter { $0 != "." })
    }

    private static func bare(_ word: String) -> String {
        let lowered = word.lowercased()
        return lowered.hasSuffix(".") ? String(lowered.dropLast()) : lowered
    }
}
