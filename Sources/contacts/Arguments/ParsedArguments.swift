/// A command's arguments, read through its option declarations: `arguments[\.json]` is a
/// `Bool`, `arguments[\.first]` a `String?`, `arguments[\.phone]` every value given.
///
/// A key path names a declaration of `Options`, so a misspelt option does not compile.
struct ParsedArguments<Options: OptionGroup>: Sendable {
    /// The arguments that are not options, in order, already checked against the command's
    /// ``Positionals``.
    var positionals: [String] { values.positionals }

    private let values: ArgumentValues
    private let options = Options()

    /// Reads `values`, which the parser produced from `Options` (and the global options).
    init(_ values: ArgumentValues) {
        self.values = values
    }

    /// Whether the flag was given.
    subscript(_ flag: KeyPath<Options, Flag>) -> Bool {
        values.contains(spec(flag).name)
    }

    /// The value of an option, as given, or `nil`.
    subscript(_ option: KeyPath<Options, Option<String>>) -> String? {
        values.values(spec(option).name).last
    }

    /// The value of an option, parsed, or `nil`.
    ///
    /// - Throws: the declaration's usage error for a wrong value.
    subscript<Value>(_ option: KeyPath<Options, Option<Value>>) -> Value? {
        get throws(CLIError) {
            let declaration = options[keyPath: option]
            guard let text = values.values(spec(option).name).last else { return nil }
            return try declaration.parse(text)
        }
    }

    /// Every value of a repeatable option, as given.
    subscript(_ option: KeyPath<Options, RepeatableOption<String>>) -> [String] {
        values.values(spec(option).name)
    }

    /// Every value of a repeatable option, parsed, in order.
    ///
    /// - Throws: the declaration's usage error for the first wrong value.
    subscript<Value>(_ option: KeyPath<Options, RepeatableOption<Value>>) -> [Value] {
        get throws(CLIError) {
            let declaration = options[keyPath: option]
            var parsed: [Value] = []
            for text in values.values(spec(option).name) { parsed.append(try declaration.parse(text)) }
            return parsed
        }
    }

    /// The spec of the declaration at `keyPath`, which the parser was given (``OptionGroup``
    /// finds only stored properties).
    private func spec<Declaration: OptionDeclaration>(_ keyPath: KeyPath<Options, Declaration>) -> OptionSpec {
        let spec = options[keyPath: keyPath].spec
        assert(Options.specs.contains { $0.name == spec.name }, "--\(spec.name) is not a stored declaration")
        return spec
    }
}
