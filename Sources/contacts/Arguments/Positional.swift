/// One positional argument of a command: its name in help and how many words it takes.
///
/// ```swift
/// static let positionals: Positionals = [.one("GROUP"), .oneOrMore("ID")]   // GROUP ID...
/// ```
struct Positional: Sendable {
    /// How many words the argument takes.
    enum Arity: Sendable {
        /// Exactly one: `FILE`.
        case one
        /// None or one: `[DIR]`.
        case optional
        /// One or more: `ID...`.
        case oneOrMore
        /// Any number: `[ID...]`.
        case zeroOrMore
        /// One value that may be written as several words, as a name is: `ID|NAME`.
        case words
        /// A value that may be left out or written as several words: `[NAME]`.
        case optionalWords
    }

    /// The name help shows: `ID`, `bash|zsh|fish`.
    let name: String
    /// How many words it takes.
    let arity: Arity
    /// The words shell completion offers for it, if they are fixed.
    var completion: [String] = []
    /// The options that give what the argument gives, by name, so that a command line may
    /// give one or the other but not both: `first`, `middle` and `last` for `add`'s NAME.
    var excludedOptions: [String] = []
    /// A text each of its words contains, `=` for `KEY=VALUE`, so that a word without it
    /// right after an option's value is taken for more of that value, split by the shell.
    var requiredText: String?

    /// Exactly one word; `completion` lists the words it can be, if they are fixed.
    static func one(_ name: String, completion: [String] = []) -> Positional {
        Positional(name: name, arity: .one, completion: completion)
    }

    /// None or one word.
    static func optional(_ name: String, completion: [String] = []) -> Positional {
        Positional(name: name, arity: .optional, completion: completion)
    }

    /// One or more words.
    static func oneOrMore(_ name: String) -> Positional { Positional(name: name, arity: .oneOrMore) }

    /// Any number of words; `requiredText`, if given, is a text each word contains.
    static func zeroOrMore(_ name: String, containing requiredText: String? = nil) -> Positional {
        Positional(name: name, arity: .zeroOrMore, requiredText: requiredText)
    }

    /// One value that may be written as several words.
    static func words(_ name: String) -> Positional { Positional(name: name, arity: .words) }

    /// A value that may be left out or written as several words; `excludedOptions` name the
    /// options that give it in parts instead.
    static func optionalWords(_ name: String, excludedOptions: [String] = []) -> Positional {
        Positional(name: name, arity: .optionalWords, excludedOptions: excludedOptions)
    }

    /// Whether it is one value that may be written as several words, which are then joined.
    var isWrittenAsWords: Bool { arity == .words || arity == .optionalWords }

    /// How many words it takes; `Int.max` stands for no limit.
    var count: ClosedRange<Int> {
        switch arity {
        case .one: 1...1
        case .optional: 0...1
        case .oneOrMore, .words: 1...Int.max
        case .zeroOrMore, .optionalWords: 0...Int.max
        }
    }

    /// How it reads in a synopsis on its own: `FILE`, `[DIR]`, `ID...`, `[ID...]`.
    var synopsis: String {
        switch arity {
        case .one, .words: name
        case .optional, .optionalWords: "[\(name)]"
        case .oneOrMore: "\(name)..."
        case .zeroOrMore: "[\(name)...]"
        }
    }
}
