/// Words written the way a POSIX shell reads them back, for usage errors that show the quoting
/// a user probably meant: `did you mean --phone "mobile:+44 20 7946 0000"?`.
enum ShellQuoting {
    /// The characters besides letters and digits that a shell takes literally in a word.
    private static let literalPunctuation: Set<Character> = ["@", "%", "+", "=", ":", ",", ".", "/", "_", "-", "^"]
    /// The characters that double quotes do not keep literal.
    private static let activeInDoubleQuotes: Set<Character> = ["\"", "$", "`", "\\", "!"]

    /// `text` as one shell word: as it is when the shell would read it back unchanged,
    /// quoted otherwise: `20`, `"Best Friends"`.
    static func word(_ text: String) -> String {
        let isLiteral = !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || literalPunctuation.contains($0) }
        return isLiteral ? text : quoted(text)
    }

    /// `text` quoted as one shell word: in double quotes, or in single quotes when it has a
    /// character double quotes do not keep.
    static func quoted(_ text: String) -> String {
        guard text.contains(where: activeInDoubleQuotes.contains) else { return "\"\(text)\"" }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// `words` as a shell would be given them, each quoted where needed: `20 7946 "a b"`.
    static func words(_ words: [String]) -> String {
        words.map(word).joined(separator: " ")
    }
}
