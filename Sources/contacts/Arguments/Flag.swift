/// An option without a value, such as `--json`; reading it gives whether it was given.
///
/// ```swift
/// let json = Flag("json", help: "Print JSON instead of text.")
/// if arguments[\.json] { … }
/// ```
struct Flag: OptionDeclaration {
    let spec: OptionSpec

    /// A flag `--name`.
    init(_ name: String, help: String) {
        spec = OptionSpec(name: name, valueName: nil, help: help, isRepeatable: false, completion: .none)
    }
}
