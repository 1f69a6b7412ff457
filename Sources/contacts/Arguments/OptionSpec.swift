/// What the parser, help and shell completion know of one option: a flag such as `--json`, or
/// an option with a value such as `--phone [LABEL:]VALUE`.
///
/// Commands do not write these by hand: each ``Flag``, ``Option`` and ``RepeatableOption``
/// declaration carries one, and ``OptionGroup/specs`` gathers them.
struct OptionSpec: Sendable {
    /// What a shell completion offers for the option's value.
    enum Completion: Sendable {
        /// Nothing in particular.
        case none
        /// One of these words.
        case words([String])
        /// A folder.
        case directory
    }

    /// The name without its leading dashes: `phone` for `--phone`.
    let name: String
    /// The name shown in help for the value, or `nil` for a flag.
    let valueName: String?
    /// One line of help.
    let help: String
    /// Whether the option may be given more than once.
    let isRepeatable: Bool
    /// What completion offers for the value.
    let completion: Completion
    /// The one-letter form, `o` for `-o`, if the option has one.
    var shortName: Character?

    /// Whether the option takes a value.
    var takesValue: Bool { valueName != nil }

    /// Whether the value is one of a few fixed words, as `--kind person|organization`'s is.
    var hasFixedWords: Bool {
        if case .words = completion { true } else { false }
    }

    /// How the option reads in help: `--phone [LABEL:]VALUE`, `-o, --output FILE`.
    var usage: String {
        let long = valueName.map { "--\(name) \($0)" } ?? "--\(name)"
        return shortName.map { "-\($0), \(long)" } ?? long
    }

    /// How the option reads in a synopsis: `[--json]`, `[-o FILE]`, `[--phone [LABEL:]VALUE]...`.
    var synopsis: String {
        let written = shortName.map { "-\($0)" } ?? "--\(name)"
        let word = "[" + (valueName.map { "\(written) \($0)" } ?? written) + "]"
        return isRepeatable ? word + "..." : word
    }
}
