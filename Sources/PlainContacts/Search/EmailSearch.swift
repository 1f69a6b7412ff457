/// Decides which email addresses a mail client's address query keeps, and how well each
/// matches.
///
/// An address matches when every word of the query (``NameSearch/queryWords(_:)``) either
/// begins a word of its person's names (the words of ``NameSearch/searchWords(_:)``: the
/// names, phonetic names, nickname and organization) or appears anywhere in the address. Both
/// sides are folded with ``NameNormalizer``, so case, diacritics and character width are
/// ignored. A query without words keeps every address.
///
/// ```swift
/// let query = EmailSearch.Query("ann")
/// let annSmith = NameSearch.searchWords(NameParts(firstName: "Ann", lastName: "Smith"))
/// let joanna = NameSearch.searchWords(NameParts(firstName: "Joanna", lastName: "Park"))
/// EmailSearch.rank(query, names: EmailSearch.wordMatches(query, searchWords: annSmith), address: "a.smith@example.com")  // .exact
/// EmailSearch.rank(query, names: EmailSearch.wordMatches(query, searchWords: joanna), address: "joanna@example.com")   // .address
/// EmailSearch.rank(query, names: EmailSearch.wordMatches(query, searchWords: joanna), address: "jp@example.com")        // nil
/// ```
enum EmailSearch {
    /// How one query word meets the words of a person's names.
    enum WordMatch: UInt8, Sendable {
        /// It begins no word.
        case none
        /// It begins a word but is not one.
        case prefix
        /// It is one of the words.
        case exact
    }

    /// How well an address matches, best first.
    enum Rank: Int, Comparable, Sendable {
        /// Every query word is a whole word of the names, or the address begins with the query
        /// (or the query has no words).
        case exact
        /// Every query word begins a word of the names.
        case name
        /// Some query word is found only inside the address.
        case address

        static func < (lhs: Rank, rhs: Rank) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// A query, folded once for every address it is compared with.
    struct Query: Sendable {
        /// The words of the query (``NameSearch/queryWords(_:)``).
        let words: [String]
        /// The words' UTF-8 bytes, for comparing with the index's bytes in place.
        let wordBytes: [[UInt8]]
        /// The whole query folded (``NameNormalizer/normalize(_:)``), which an address may begin with.
        let folded: [UInt8]

        /// Folds `text` into its words.
        init(_ text: String) {
            words = NameSearch.queryWords(text)
            wordBytes = words.map { Array($0.utf8) }
            folded = Array(NameNormalizer.normalize(text).utf8)
        }

        /// Whether the query has no words, and so keeps every address.
        var isEmpty: Bool { words.isEmpty }
    }

    /// How each query word meets a person's search words, in the query's order.
    static func wordMatches(_ query: Query, searchWords: [String]) -> [WordMatch] {
        query.wordBytes.map { word in
            var best = WordMatch.none
            for searchWord in searchWords where searchWord.utf8.starts(with: word) {
                if searchWord.utf8.count == word.count { return .exact }
                best = .prefix
            }
            return best
        }
    }

    /// How well an address matches given how the query's words meet its person's names
    /// (``wordMatches(_:searchWords:)``), or `nil` when it does not match.
    static func rank(_ query: Query, names: [WordMatch], address: String) -> Rank? {
        var address = address
        return address.withUTF8 { rank(query, names: names, address: $0) }
    }

    /// ``rank(_:names:address:)`` for an address's UTF-8 bytes.
    static func rank(_ query: Query, names: [WordMatch], address: UnsafeBufferPointer<UInt8>) -> Rank? {
        guard !query.isEmpty else { return .exact }
        // Most addresses are ASCII without spaces, which fold to their lowercase bytes:
        // compare those in place instead of building the folded text.
        if address.allSatisfy({ $0 > 0x20 && $0 < 0x80 }) {
            return rank(query, names: names, folded: address, lowercasing: true)
        }
        let folded = Array(NameNormalizer.normalize(String(decoding: address, as: UTF8.self)).utf8)
        return folded.withUnsafeBufferPointer { rank(query, names: names, folded: $0, lowercasing: false) }
    }

    /// ``rank(_:names:address:)`` on the folded address's bytes, or on ASCII bytes that fold
    /// to their lowercase when `lowercasing`.
    private static func rank(
        _ query: Query, names: [WordMatch], folded: UnsafeBufferPointer<UInt8>, lowercasing: Bool
    ) -> Rank? {
        func byte(_ offset: Int) -> UInt8 {
            let byte = folded[offset]
            return lowercasing && byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
        }
        func occurs(_ needle: [UInt8], at start: Int) -> Bool {
            guard start + needle.count <= folded.count else { return false }
            for (offset, expected) in needle.enumerated() where byte(start + offset) != expected { return false }
            return true
        }
        var rank = Rank.exact
        for (word, match) in zip(query.wordBytes, names) {
            switch match {
            case .exact:
                continue
            case .prefix:
                rank = Swift.max(rank, .name)
            case .none:
                guard folded.count >= word.count,
                    (0...(folded.count - word.count)).contains(where: { occurs(word, at: $0) })
                else { return nil }
                rank = .address
            }
        }
        return occurs(query.folded, at: 0) ? .exact : rank
    }
}
