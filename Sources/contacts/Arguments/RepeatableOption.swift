/// An option that may be given more than once, such as `--phone [LABEL:]NUMBER`; reading it
/// gives every value in the order given, each parsed into `Value`.
///
/// ```swift
/// let group = RepeatableOption<String>("group", "GROUP", help: "Add to this group (repeatable).")
/// for text in arguments[\.group] { … }
/// ```
struct RepeatableOption<Value>: OptionDeclaration {
    let spec: OptionSpec
    /// Turns one word given into a value.
    let parse: @Sendable (String) throws(CLIError) -> Value

    /// An option `--name VALUE-NAME`, repeatable, whose words `parse` turns into values.
    init(
        _ name: String, _ valueName: String, help: String, completion: OptionSpec.Completion = .none,
        parse: @escaping @Sendable (String) throws(CLIError) -> Value
    ) {
        spec = OptionSpec(name: name, valueName: valueName, help: help, isRepeatable: true, completion: completion)
        self.parse = parse
    }
}

extension RepeatableOption where Value == String {
    /// An option `--name VALUE-NAME`, repeatable, whose values are the words as given.
    init(_ name: String, _ valueName: String, help: String, completion: OptionSpec.Completion = .none) {
        self.init(name, valueName, help: help, completion: completion) { $0 }
    }
}
