extension RepeatableOption where Value == LabeledValue {
    /// A repeatable option whose values are written `[LABEL:]VALUE` (see ``LabeledValue``):
    /// `--phone mobile:+1 555 0100`.
    ///
    /// Reading it throws a usage error for a value that is empty after its label.
    init(labeled name: String, _ valueName: String, help: String) {
        self.init(name, valueName, help: help) { text throws(CLIError) in
            let labeled = LabeledValue(parsing: text)
            guard !labeled.value.isEmpty else { throw CLIError.usage("--\(name) needs a value after the label") }
            return labeled
        }
    }
}
