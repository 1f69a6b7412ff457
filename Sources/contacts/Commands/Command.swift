/// A `contacts` command: its name, its help, its arguments and options, and what it does.
///
/// Adding a command is one file with a type conforming to this protocol plus one line in
/// ``CommandTable``. A command with ``subcommands`` (such as `group`) only dispatches.
///
/// Its options are the stored properties of its nested `Options` (an ``OptionGroup``), its
/// positional arguments its ``positionals``; the parser, the synopsis, help and shell
/// completion all come from these declarations, and ``run(_:in:)`` reads the options through
/// them: `arguments[\.json]`.
protocol Command {
    /// The command's options, besides the global ones (``GlobalOptions``).
    associatedtype Options: OptionGroup = NoOptions

    /// The word that runs the command: `add`.
    static var name: String { get }
    /// The positional arguments, checked before ``run(_:in:)`` and shown in the synopsis.
    static var positionals: Positionals { get }
    /// One line saying what the command does.
    static var summary: String { get }
    /// Paragraphs of help printed after the options, or empty.
    static var discussion: String { get }
    /// Examples the command's manual page shows (``ManualPages``), or none.
    static var examples: [CommandExample] { get }
    /// The subcommands, for a command that only dispatches.
    static var subcommands: [any Command.Type] { get }
    /// The subcommand run when none is named (`contacts remote` lists the remotes), or `nil`
    /// when one must be named.
    static var defaultSubcommand: (any Command.Type)? { get }

    /// Runs the command.
    ///
    /// - Throws: ``CLIError`` or the library's `ContactsError`; ``ContactsTool`` turns either
    ///   into a message and an exit status.
    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws
}

extension Command {
    static var positionals: Positionals { [] }
    static var discussion: String { "" }
    static var examples: [CommandExample] { [] }
    static var subcommands: [any Command.Type] { [] }
    static var defaultSubcommand: (any Command.Type)? { nil }

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        throw CLIError.usage("`\(context.commandName)` needs a subcommand")
    }

    /// The options the command declares, in order, besides the global ones.
    static var options: [OptionSpec] { Options.specs }

    /// Checks the positional arguments of `values`, then runs the command with them.
    ///
    /// - Throws: a usage error for positional words the command cannot place (see
    ///   ``Positionals/check(_:)``), or what ``run(_:in:)`` throws.
    static func run(checking values: ArgumentValues, in context: CommandContext) throws {
        try positionals.check(values)
        try run(ParsedArguments<Options>(values), in: context)
    }
}
