/// The command someone most likely meant by a word that names none: the names other contact
/// tools give the same jobs (khard's `remove` and `details`, the shell's `ls`), then the
/// command whose name is one or two typing slips away.
///
/// ```swift
/// CommandSuggestion.command(for: "remove")   // "rm"
/// CommandSuggestion.command(for: "serach")   // "search"
/// ```
enum CommandSuggestion {
    /// Words of other tools and habits, each with the command that does that job here.
    private static let synonyms: [String: String] = [
        "remove": "rm", "delete": "rm", "del": "rm",
        "details": "show", "view": "show", "cat": "show", "get": "show",
        "ls": "list", "find": "search", "grep": "search", "query": "search",
        "create": "add", "modify": "edit", "update": "set",
        "birthday": "birthdays", "dupes": "duplicates", "history": "log",
    ]

    /// The name of the command `word` most likely meant among `names`, or `nil` when none is
    /// close.
    static func command(for word: String, among names: [String]) -> String? {
        let word = word.lowercased()
        if let synonym = synonyms[word], names.contains(synonym) { return synonym }
        // A slip: at most one edit in a short word, two in a longer one.
        let allowed = word.count <= 4 ? 1 : 2
        let closest = names.map { (name: $0, distance: editDistance(word, $0)) }
            .filter { $0.distance <= allowed }
            .min { $0.distance < $1.distance }
        return closest?.name
    }

    /// The number of single-character insertions, deletions, substitutions and swaps of two
    /// neighbours that turn `a` into `b` (the optimal string alignment distance).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
