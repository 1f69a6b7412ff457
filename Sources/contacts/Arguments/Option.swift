/// An option given at most once with a value, such as `--first NAME`; reading it gives the
/// value, parsed into `Value`, or `nil` when the option was not given.
///
/// ```swift
/// let first = Option<String>("first", "NAME", help: "First name.")
/// person.firstName = arguments[\.first]
/// ```
///
/// A `Value` other than `String` comes with the parse that turns the word into it, so that a
/// wrong word is the same usage error wherever the option is read.
struct Option<Value>: OptionDeclaration {
    let spec: OptionSpec
    /// Turns the word given into the value.
    let parse: @Sendable (String) throws(CLIError) -> Value

    /// An option `--name VALUE-NAME` whose word `parse` turns into its value; `short` gives it
    /// a one-letter form too.
    init(
        _ name: String, _ valueName: String, help: String, completion: OptionSpec.Completion = .none,
        short: Character? = nil, parse: @escaping @Sendable (String) throws(CLIError) -> Value
    ) {
        spec = OptionSpec(
            name: name, valueName: valueName, help: help, isRepeatable: false, completion: completion,
            shortName: short)
        self.parse = parse
    }
}

extension Option where Value == String {
    /// An option `--name VALUE-NAME` whose value is the word as given.
    init(
        _ name: String, _ valueName: String, help: String, completion: OptionSpec.Completion = .none,
        short: Character? = nil
    ) {
        self.init(name, valueName, help: help, completion: completion, short: short) { $0 }
    }
}
