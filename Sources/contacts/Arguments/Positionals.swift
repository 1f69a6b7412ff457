/// The positional arguments of a command, in order, and how usage errors name them.
///
/// ```swift
/// static let positionals = Positionals(.one("GROUP"), .oneOrMore("ID"), expected: "GROUP and at least one ID")
/// ```
///
/// The dispatcher checks the words against them before the command runs (``check(_:)``
/// refuses every word a command cannot place, for all commands alike), and help shows them at
/// the start of the synopsis.
struct Positionals: Sendable, ExpressibleByArrayLiteral {
    /// The arguments, in order.
    let arguments: [Positional]
    /// How usage errors name what is expected, when the synopsis does not say it well:
    /// `at least one ID` rather than `ID...`.
    private let expected: String?

    /// `arguments` in order; `expected`, if given, names them in usage errors.
    init(_ arguments: Positional..., expected: String? = nil) {
        self.arguments = arguments
        self.expected = expected
    }

    /// `arguments` in order, named in usage errors by their synopsis.
    init(arrayLiteral arguments: Positional...) {
        self.arguments = arguments
        expected = nil
    }

    /// How many words they take together; `Int.max` stands for no limit.
    var count: ClosedRange<Int> {
        let lower = arguments.reduce(0) { $0 + $1.count.lowerBound }
        let unbounded = arguments.contains { $0.count.upperBound == Int.max }
        return lower...(unbounded ? Int.max : arguments.reduce(0) { $0 + $1.count.upperBound })
    }

    /// How they read in a synopsis: `GROUP ID...`; an optional argument after an optional one
    /// is nested in it: `[COMMAND [SUBCOMMAND]]`.
    var synopsis: String {
        var text = ""
        var openBrackets = 0
        for argument in arguments {
            let continuesNesting = argument.arity == .optional && openBrackets > 0
            if !continuesNesting {
                text += String(repeating: "]", count: openBrackets)
                openBrackets = 0
            }
            text += text.isEmpty ? "" : " "
            if argument.arity == .optional {
                text += "[\(argument.name)"
                openBrackets += 1
            } else {
                text += argument.synopsis
            }
        }
        return text + String(repeating: "]", count: openBrackets)
    }

    /// The words completion offers for the first argument.
    var completion: [String] { arguments.first?.completion ?? [] }

    /// Checks the positional words of `values`: their number, that a value written as several
    /// words is not continued after an option's value, that no word lacking an argument's
    /// required text (`=`) continues an option's value, and that no option given also gives
    /// what an argument gives.
    ///
    /// Nothing a command cannot place is let through: the words that no argument takes are
    /// named, with the quoting the user probably meant.
    ///
    /// - Throws: a usage error for too few words, words left over, words that follow an
    ///   option's value where an argument written as words would take them or that lack the
    ///   text an argument's words contain, or an argument
    ///   given together with an option it excludes.
    func check(_ values: ArgumentValues) throws(CLIError) {
        let words = values.positionalWords
        let (taken, left) = distribute(words)
        for (argument, words) in zip(arguments, taken) where argument.isWrittenAsWords {
            if let stray = words.first(where: { $0.following != nil }) {
                let run = words.filter { $0.run == stray.run }
                let given = argument.excludedOptions.filter(values.contains)
                // One quoted word holding spaces was meant as the argument itself, not as more
                // of the option's value: the argument and its options are the error then.
                if !given.isEmpty, run.count == 1, run[0].text.contains(where: \.isWhitespace) {
                    throw CLIError.usage(StrayWords.excluded(words.map(\.text), of: argument, by: given))
                }
                throw CLIError.usage(StrayWords.afterOptionValue(run, of: argument))
            }
        }
        for (argument, words) in zip(arguments, taken) {
            guard let required = argument.requiredText,
                let stray = words.firstIndex(where: { $0.following != nil && !$0.text.contains(required) })
            else { continue }
            let run = words[stray...].prefix { $0.run == words[stray].run && !$0.text.contains(required) }
            throw CLIError.usage(StrayWords.afterOptionValue(Array(run)))
        }
        if words.count < count.lowerBound {
            throw CLIError.usage("missing \(description)")
        }
        if !left.isEmpty {
            throw CLIError.usage(StrayWords.leftOver(left, after: taken.joined().last, expected: description))
        }
        for (argument, words) in zip(arguments, taken) where !words.isEmpty {
            let given = argument.excludedOptions.filter(values.contains)
            guard !given.isEmpty else { continue }
            throw CLIError.usage(StrayWords.excluded(words.map(\.text), of: argument, by: given))
        }
    }

    /// How usage errors name what is expected.
    private var description: String {
        expected ?? (arguments.isEmpty ? "no arguments" : synopsis)
    }

    /// The words each argument takes, in order, and the words that none takes: each argument
    /// takes as many as it can while leaving the arguments after it their least.
    private func distribute(_ words: [PositionalWord]) -> (taken: [[PositionalWord]], left: [PositionalWord]) {
        var rest = words[...]
        var taken: [[PositionalWord]] = []
        for (index, argument) in arguments.enumerated() {
            let reserved = arguments[(index + 1)...].reduce(0) { $0 + $1.count.lowerBound }
            let count = min(argument.count.upperBound, max(0, rest.count - reserved))
            taken.append(Array(rest.prefix(count)))
            rest = rest.dropFirst(count)
        }
        return (taken, Array(rest))
    }
}
