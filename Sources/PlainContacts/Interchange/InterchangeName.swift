/// How a name written in one field (abook's `name=`, a mutt alias's display name, an LDIF
/// `cn` without `givenName` and `sn`) becomes a card's `N` and `FN`.
///
/// The whole name is always the name to show (`FN`). It is split into first and last name only
/// when the split is certain enough to be right:
///
/// - "Last, First" (exactly one comma, text on both sides): last name before the comma, first
///   name after it, and "First Last" shown;
/// - exactly two words: the first word is the first name, the second the last name;
/// - anything else (one word, three or more words, several commas) is not split: the vCard
///   import then keeps the whole name as the first name, so that "Mary Ann van der Berg" is
///   never cut at a guessed place.
///
/// ```swift
/// InterchangeName.parts(of: "Bell, Katie")   // (first: "Katie", last: "Bell", shown: "Katie Bell")
/// InterchangeName.parts(of: "Katie Bell")    // (first: "Katie", last: "Bell", shown: "Katie Bell")
/// InterchangeName.parts(of: "Katie")         // (first: "", last: "", shown: "Katie")
/// ```
enum InterchangeName {
    /// The first and last name of `name` by the rule above (both empty when not split), and
    /// the name to show.
    static func parts(of name: String) -> (first: String, last: String, shown: String) {
        let name = CardBuilder.trimmed(name)
        let commaParts = name.split(separator: ",", omittingEmptySubsequences: false)
        if commaParts.count == 2 {
            let last = CardBuilder.trimmed(String(commaParts[0]))
            let first = CardBuilder.trimmed(String(commaParts[1]))
            if !last.isEmpty, !first.isEmpty { return (first, last, first + " " + last) }
            return ("", "", name)
        }
        let words = name.split(whereSeparator: \.isWhitespace)
        if commaParts.count == 1, words.count == 2 { return (String(words[0]), String(words[1]), name) }
        return ("", "", name)
    }

    /// Adds `FN`, and `N` when the name splits, for `name` to the card begun.
    static func add(_ name: String, to builder: inout CardBuilder, line: Int) {
        let parts = parts(of: name)
        builder.setDisplayName(parts.shown)
        builder.addName(last: parts.last, first: parts.first, line: line)
    }
}
