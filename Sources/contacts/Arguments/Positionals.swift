/// The positional arguments of a command, in order, and how usage errors name them.
///
/// ```swift
/// static let positionals = Positionals(.one("GROUP"), .oneOrMore("ID"), expected: "GROUP and at least one ID")
/// ```
///
/// The dispatcher checks the number of words against them before the command runs, and help
/// shows them at the start of the synopsis.
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

    /// Checks the number of `words`.
    ///
    /// - Throws: a usage error when there are too few or too many.
    func check(_ words: [String]) throws(CLIError) {
        let description = expected ?? (arguments.isEmpty ? "no arguments" : synopsis)
        if words.count < count.lowerBound {
            throw CLIError.usage("missing \(description)")
        }
        if words.count > count.upperBound {
            throw CLIError.usage("too many arguments; expected \(description)")
        }
    }
}
