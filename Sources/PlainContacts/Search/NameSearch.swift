/// Finds people whose names match what a user types into a search field.
///
/// The AddressBook equivalent is `ABAddressBookCopyPeopleWithName`.
///
/// A query matches a person when every word of the query is the beginning of some word of the
/// person's names: the prefix, first, middle and last name, suffix, the three phonetic names,
/// the nickname and the organization. Both sides are folded with ``NameNormalizer``, so the
/// match ignores case, diacritics, full-width forms and spacing.
///
/// ```swift
/// let katie = NameParts(firstName: "Katie", lastName: "Bell")
/// NameSearch.matches("ka be", katie)    // true
/// NameSearch.matches("BELL", katie)     // true
/// NameSearch.matches("katie x", katie)  // false: "x" begins no word
/// NameSearch.matches("atie", katie)     // false: only beginnings match
/// NameSearch.matches("", katie)         // false: an empty query matches nobody
/// ```
///
/// To search many people, compute ``searchWords(_:)`` once per person and ``queryWords(_:)``
/// once per query, then call ``matches(queryWords:searchWords:)``.
enum NameSearch {
    /// Returns the words of a search query.
    ///
    /// These are the words of ``NameNormalizer/words(_:)``, except that a word mixing Chinese,
    /// Japanese or Korean script with other scripts is split where the script changes
    /// ("taro山田" gives `["taro", "山田"]`), and repeated words are kept once.
    static func queryWords(_ query: String) -> [String] {
        var words: [String] = []
        for token in NameNormalizer.tokens(ofNormalized: NameNormalizer.normalize(query)) {
            for run in NameNormalizer.scriptRuns(of: token) {
                let word = String(token.unicodeScalars[run.range])
                if !words.contains(word) {
                    words.append(word)
                }
            }
        }
        return words
    }

    /// Returns the words of a person's names that queries are matched against.
    ///
    /// These are the ``NameNormalizer/words(_:)`` of the prefix, first, middle and last name,
    /// suffix, first, middle and last phonetic name, nickname and organization. Because
    /// Chinese, Japanese and Korean full names are typed without spaces, when the first,
    /// middle and last names present are at least two and all written in those scripts,
    /// their words joined in the order last, first, middle are one more word ("山田太郎"),
    /// and likewise for the phonetic names ("やまだたろう").
    static func searchWords(_ parts: NameParts) -> [String] {
        let last = NameNormalizer.normalize(parts.lastName ?? "")
        let first = NameNormalizer.normalize(parts.firstName ?? "")
        let middle = NameNormalizer.normalize(parts.middleName ?? "")
        let lastPhonetic = NameNormalizer.normalize(parts.lastNamePhonetic ?? "")
        let firstPhonetic = NameNormalizer.normalize(parts.firstNamePhonetic ?? "")
        let middlePhonetic = NameNormalizer.normalize(parts.middleNamePhonetic ?? "")
        let fields = [
            NameNormalizer.normalize(parts.prefix ?? ""), first, middle, last,
            NameNormalizer.normalize(parts.suffix ?? ""), firstPhonetic, middlePhonetic, lastPhonetic,
            NameNormalizer.normalize(parts.nickname ?? ""), NameNormalizer.normalize(parts.organization ?? ""),
        ]
        var words: [String] = []
        for field in fields where !field.isEmpty {
            for word in NameNormalizer.words(ofNormalized: field) where !words.contains(word) {
                words.append(word)
            }
        }
        let fullNames = [
            joinedCJKName([last, first, middle]),
            joinedCJKName([lastPhonetic, firstPhonetic, middlePhonetic]),
        ]
        for case let fullName? in fullNames where !words.contains(fullName) {
            words.append(fullName)
        }
        return words
    }

    /// Whether every query word is the beginning of at least one search word.
    ///
    /// Words are compared by their Unicode scalars, so a query word may end inside a
    /// character of the search word. No query words match nobody.
    static func matches(queryWords: [String], searchWords: [String]) -> Bool {
        guard !queryWords.isEmpty else { return false }
        return queryWords.allSatisfy { queryWord in
            searchWords.contains { $0.utf8.starts(with: queryWord.utf8) }
        }
    }

    /// Whether `query` matches the person named by `parts`.
    ///
    /// ```swift
    /// NameSearch.matches("山", NameParts(firstName: "太郎", lastName: "山田"))  // true
    /// ```
    static func matches(_ query: String, _ parts: NameParts) -> Bool {
        matches(queryWords: queryWords(query), searchWords: searchWords(parts))
    }

    /// Returns the words of the normalized `names` joined without delimiter, when at least
    /// two names are present and all are written in Chinese, Japanese or Korean script.
    private static func joinedCJKName(_ names: [String]) -> String? {
        var joined = ""
        var count = 0
        for name in names where !name.isEmpty {
            guard CJKScript.isWritten(name, in: CJKScript.isCJK) else { return nil }
            for token in NameNormalizer.tokens(ofNormalized: name) {
                joined += token
            }
            count += 1
        }
        return count >= 2 ? joined : nil
    }
}
