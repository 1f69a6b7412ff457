/// The words of a command line sorted into options and positional arguments, keyed by option
/// name: what ``ArgumentParser`` produces and ``ParsedArguments`` reads through declarations.
struct ArgumentValues: Sendable {
    /// The arguments that are not options, in order.
    var positionals: [String] { positionalWords.map(\.text) }
    /// The arguments that are not options, in order, with the runs they form and the option
    /// values they follow.
    private(set) var positionalWords: [PositionalWord] = []
    /// The values given for each option, in order; a flag has one empty value per use.
    private(set) var options: [String: [String]] = [:]

    /// Records `value` as given for the option named `name` (an empty value for a flag).
    mutating func append(_ value: String, for name: String) {
        options[name, default: []].append(value)
    }

    /// Records `text` as a positional argument; `startsRun` when the word before it was not
    /// one, in which case `following` is the option value just before it, if any.
    mutating func appendPositional(_ text: String, startsRun: Bool, following: PositionalWord.OptionValue?) {
        let previous = positionalWords.last
        let run = startsRun ? (previous.map { $0.run + 1 } ?? 0) : (previous?.run ?? 0)
        positionalWords.append(PositionalWord(text: text, run: run, following: startsRun ? following : previous?.following))
    }

    /// Whether the option named `name` was given.
    func contains(_ name: String) -> Bool {
        options[name] != nil
    }

    /// Every value given for the option named `name`, in order.
    func values(_ name: String) -> [String] {
        options[name] ?? []
    }

    /// `self` with the options of `earlier` among `names` that `self` does not give itself:
    /// global options given before the command and again after it count once, the later use
    /// winning.
    func merged(after earlier: ArgumentValues, for names: [String]) -> ArgumentValues {
        var result = self
        for name in names where !contains(name) {
            for value in earlier.values(name) { result.append(value, for: name) }
        }
        return result
    }
}
