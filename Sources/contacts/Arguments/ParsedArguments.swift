/// The words of a command line sorted into options and positional arguments.
struct ParsedArguments: Sendable {
    /// The arguments that are not options, in order.
    var positionals: [String] = []
    /// The values given for each option, in order; a flag has one empty value per use.
    private(set) var options: [String: [String]] = [:]

    mutating func append(_ value: String, for name: String) {
        options[name, default: []].append(value)
    }

    /// Whether a flag (or an option) was given.
    func flag(_ name: String) -> Bool {
        options[name] != nil
    }

    /// The value of an option given at most once.
    func value(_ name: String) -> String? {
        options[name]?.last
    }

    /// Every value of a repeatable option.
    func values(_ name: String) -> [String] {
        options[name] ?? []
    }

    /// The positional arguments, checked against how many the command takes.
    ///
    /// - Throws: a usage error naming `argumentName` when there are too few or too many.
    func positionals(_ count: ClosedRange<Int>, _ argumentName: String) throws(CLIError) -> [String] {
        if positionals.count < count.lowerBound {
            throw CLIError.usage("missing \(argumentName)")
        }
        if positionals.count > count.upperBound {
            throw CLIError.usage("too many arguments; expected \(argumentName)")
        }
        return positionals
    }

    /// The single positional argument.
    func positional(_ argumentName: String) throws(CLIError) -> String {
        let words = try positionals(1...1, argumentName)
        return words[0]
    }
}
