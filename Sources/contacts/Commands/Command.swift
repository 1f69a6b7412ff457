/// A `contacts` command: its name, its help and options, and what it does.
///
/// Adding a command is one file with a type conforming to this protocol plus one line in
/// ``CommandTable``. A command with ``subcommands`` (such as `group`) only dispatches.
protocol Command {
    /// The word that runs the command: `add`.
    static var name: String { get }
    /// The arguments after the name, as help shows them: `ID KEY=VALUE...`.
    static var synopsis: String { get }
    /// One line saying what the command does.
    static var summary: String { get }
    /// Paragraphs of help printed after the options, or empty.
    static var discussion: String { get }
    /// The options, besides the global `--store`, `--lock-timeout` and `--help`.
    static var options: [OptionSpec] { get }
    /// The subcommands, for a command that only dispatches.
    static var subcommands: [any Command.Type] { get }
    /// The words shell completion offers for the positional arguments, if they are fixed.
    static var argumentWords: [String] { get }

    /// Runs the command.
    ///
    /// - Throws: ``CLIError`` or the library's `ContactsError`; ``ContactsTool`` turns either
    ///   into a message and an exit status.
    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws
}

extension Command {
    static var discussion: String { "" }
    static var options: [OptionSpec] { [] }
    static var subcommands: [any Command.Type] { [] }
    static var argumentWords: [String] { [] }

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws {
        throw CLIError.usage("`\(context.commandName)` needs a subcommand")
    }
}
