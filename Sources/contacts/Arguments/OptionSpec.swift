/// One option a command accepts: a flag such as `--json`, or an option with a value such as
/// `--phone [LABEL:]VALUE`.
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

    /// A flag: `--json`.
    static func flag(_ name: String, help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help, isRepeatable: false, completion: .none)
    }

    /// An option with a value: `--sort first|last`; `short` gives it a one-letter form too.
    static func value(
        _ name: String, _ valueName: String, help: String, repeatable: Bool = false, completion: Completion = .none,
        short: Character? = nil
    ) -> OptionSpec {
        OptionSpec(
            name: name, valueName: valueName, help: help, isRepeatable: repeatable, completion: completion,
            shortName: short)
    }

    /// How the option reads in help: `--phone [LABEL:]VALUE`, `-o, --output FILE`.
    var usage: String {
        let long = valueName.map { "--\(name) \($0)" } ?? "--\(name)"
        return shortName.map { "-\($0), \(long)" } ?? long
    }

    /// `--help`, which every command accepts.
    static let help = OptionSpec.flag("help", help: "Show this help.")
    /// `--store DIR`, accepted before or after the command.
    static let store = OptionSpec.value(
        "store", "DIR", help: "Use the store in DIR instead of the default one.",
        completion: .directory)
    /// `--lock-timeout SECONDS`, accepted before or after the command.
    static let lockTimeout = OptionSpec.value(
        "lock-timeout", "SECONDS",
        help: "Wait at most SECONDS for another program using the store (default 10).")
    /// `--version`, accepted before any command.
    static let version = OptionSpec.flag("version", help: "Print the version.")
    /// The options every command accepts.
    static let global: [OptionSpec] = [.store, .lockTimeout, .commit, .help]
    /// `--json`, shared by the commands that can print JSON.
    static let json = OptionSpec.flag("json", help: "Print JSON instead of text.")
    /// `--sort first|last`, shared by the commands that list people.
    static let sort = OptionSpec.value(
        "sort", "first|last", help: "Sort by first or last name (default: the store's setting).",
        completion: .words(["first", "last"]))
}
