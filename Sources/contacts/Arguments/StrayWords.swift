/// The usage errors for positional words a command cannot place, each naming the words and
/// showing the quoting that was probably meant.
///
/// ```text
/// unexpected words 20 7946 0000 after --phone mobile:+44: did you mean --phone "mobile:+44 20 7946 0000"? (NAME is written before the options)
/// unexpected words 555 0100 after --phone mobile:+1: did you mean --phone "mobile:+1 555 0100"?
/// unexpected word Friends; expected NAME; did you mean "Best Friends"?
/// NAME (Ada Lovelace) and --first cannot both be given: write the name as NAME or with --first, --middle and --last
/// ```
enum StrayWords {
    /// For `run`, one run of words that follows an option's value where `argument`, a value
    /// written as words, would take them: the shell most likely split the option's value.
    static func afterOptionValue(_ run: [PositionalWord], of argument: Positional) -> String {
        let placement = "\(argument.name) is written before the options"
        guard let value = run.first?.following else { return "\(unexpected(run.map(\.text))); \(placement)" }
        if value.isFixedWord { return "\(following(value, run)): \(placement)" }
        return "\(afterOptionValue(run)) (\(placement))"
    }

    /// For `run`, words right after an option's value that no argument can take as they are
    /// (`555 0100` where `KEY=VALUE` is expected): the shell most likely split the value.
    static func afterOptionValue(_ run: [PositionalWord]) -> String {
        let texts = run.map(\.text)
        guard let value = run.first?.following else { return unexpected(texts) }
        let meant = "\(value.option) \(ShellQuoting.quoted(([value.value] + texts).joined(separator: " ")))"
        return "\(following(value, run)): did you mean \(meant)?"
    }

    /// `unexpected words 555 0100 after --phone mobile:+1`.
    private static func following(_ value: PositionalWord.OptionValue, _ run: [PositionalWord]) -> String {
        "\(unexpected(run.map(\.text))) after \(value.option) \(ShellQuoting.word(value.value))"
    }

    /// For `left`, the words after all that the arguments take (`last` being the last word
    /// they took, if any), when `expected` names what the command takes: joined to the word
    /// before them when they continue its run, or to an option's value they follow.
    static func leftOver(_ left: [PositionalWord], after last: PositionalWord?, expected: String) -> String {
        let message = "\(unexpected(left.map(\.text))); expected \(expected)"
        guard let first = left.first else { return message }
        let run = left.filter { $0.run == first.run }.map(\.text)
        if let last, last.run == first.run, ([last.text] + run).allSatisfy(mayBeSplitText) {
            return "\(message); did you mean \(ShellQuoting.quoted(([last.text] + run).joined(separator: " ")))?"
        }
        if let value = first.following {
            let meant = "\(value.option) \(ShellQuoting.quoted(([value.value] + run).joined(separator: " ")))"
            return "\(message); did you mean \(meant)?"
        }
        return message
    }

    /// For `words`, those `argument` took, given together with the options named `options`
    /// that it excludes.
    static func excluded(_ words: [String], of argument: Positional, by options: [String]) -> String {
        let given = options.map { "--\($0)" }.joined(separator: " and ")
        let alternatives = argument.excludedOptions.map { "--\($0)" }
        let listed = alternatives.dropLast().joined(separator: ", ") + (alternatives.count > 1 ? " and " : "")
            + (alternatives.last ?? "")
        return "\(argument.name) (\(ShellQuoting.words(words))) and \(given) cannot both be given: "
            + "write the name as \(argument.name) or with \(listed)"
    }

    /// Whether `word` may be part of a text the shell split: it has letters (record IDs are
    /// never split) and is not a URL (which has no spaces).
    private static func mayBeSplitText(_ word: String) -> Bool {
        word.contains(where: \.isLetter) && !word.contains(urlSchemeSeparator)
    }

    /// What separates a URL's scheme from the rest.
    private static let urlSchemeSeparator = "://"

    /// `unexpected word 13`, `unexpected words 20 7946 0000`.
    private static func unexpected(_ words: [String]) -> String {
        "unexpected \(words.count == 1 ? "word" : "words") \(ShellQuoting.words(words))"
    }
}
