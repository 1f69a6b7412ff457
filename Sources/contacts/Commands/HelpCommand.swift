/// `contacts help [COMMAND [SUBCOMMAND]]`.
enum HelpCommand: Command {
    static let name = "help"
    static var positionals: Positionals {
        [.optional("COMMAND", completion: CommandTable.commands.map { $0.name }), .optional("SUBCOMMAND")]
    }
    static let summary = "Show the list of commands, or the help of one command."

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        var chain: [any Command.Type] = []
        var commands = CommandTable.commands
        for word in arguments.positionals {
            guard let command = CommandTable.command(named: word, in: commands) else {
                throw CLIError.usage("no command `\((["contacts"] + chain.map { $0.name } + [word]).joined(separator: " "))`")
            }
            chain.append(command)
            commands = command.subcommands
        }
        context.console.print(HelpText.help(for: chain))
    }
}
