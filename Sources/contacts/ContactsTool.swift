import PlainContacts

/// The `contacts` command: finds the command named on the command line, parses its
/// arguments, runs it, and turns failures into a message and an exit status.
enum ContactsTool {
    /// The version `contacts --version` prints.
    static let version = "0.1.0"

    /// Runs the command line `words` (without the program name) and returns the exit status.
    static func main(_ words: [String], environment: [String: String]) -> Int32 {
        let console = Console()
        var chain: [any Command.Type] = []
        do {
            try dispatch(words, environment: environment, console: console, chain: &chain)
            return ExitStatus.success.rawValue
        } catch let error as CLIError {
            if !error.message.isEmpty { console.error(error.message) }
            for line in error.details { console.note(line) }
            if error.showsUsage { console.note(HelpText.usageHint(for: chain)) }
            return error.status.rawValue
        } catch {
            console.error("\(error)")
            return (ExitStatus(forLibraryError: error) ?? .failure).rawValue
        }
    }

    private static func dispatch(
        _ words: [String], environment: [String: String], console: Console, chain: inout [any Command.Type]
    ) throws {
        let leading = try ArgumentParser(options: GlobalOptions.specs + LeadingOptions.specs, commandName: "contacts")
            .parseLeadingOptions(words)
        if ParsedArguments<LeadingOptions>(leading.arguments)[\.version] {
            console.print("contacts \(version)")
            return
        }
        var globals = leading.arguments
        var rest = leading.rest
        var commands = CommandTable.commands
        while true {
            guard let name = rest.first else {
                if ParsedArguments<GlobalOptions>(globals)[\.help] {
                    console.print(HelpText.help(for: chain))
                    return
                }
                throw CLIError.usage(chain.isEmpty ? "missing command" : "missing subcommand")
            }
            guard let command = CommandTable.command(named: name, in: commands) else {
                let meant = CommandSuggestion.command(for: name, among: commands.map { $0.name })
                let path = (["contacts"] + chain.map { $0.name } + [meant ?? ""]).joined(separator: " ")
                let advice = meant.map { _ in "did you mean `\(path)`?" }
                throw CLIError.usage(
                    chain.isEmpty ? "unknown command '\(name)'; \(advice ?? "see `contacts help`")"
                        : "unknown subcommand '\(name)'" + (advice.map { "; " + $0 } ?? ""))
            }
            chain.append(command)
            let commandName = HelpText.commandName(chain)
            if !command.subcommands.isEmpty {
                var words = Array(rest.dropFirst())
                if let fallback = command.defaultSubcommand,
                    runsDefaultSubcommand(words, helpAsked: ParsedArguments<GlobalOptions>(globals)[\.help])
                {
                    words.insert(fallback.name, at: 0)
                }
                let parsed = try ArgumentParser(options: GlobalOptions.specs, commandName: commandName)
                    .parseLeadingOptions(words)
                globals = parsed.arguments.merged(after: globals, for: GlobalOptions.specs.map(\.name))
                rest = parsed.rest
                commands = command.subcommands
                continue
            }
            let values = try ArgumentParser(options: command.options + GlobalOptions.specs, commandName: commandName)
                .parse(Array(rest.dropFirst()))
                .merged(after: globals, for: GlobalOptions.specs.map(\.name))
            let global = ParsedArguments<GlobalOptions>(values)
            if global[\.help] {
                console.print(HelpText.help(for: chain))
                return
            }
            let context = CommandContext(
                environment: environment, storeOption: global[\.store], lockTimeoutOption: global[\.lockTimeout],
                console: console, commandName: commandName, commitRequested: global[\.commit])
            let autoCommit = AutoCommit.prepare(chain: chain, arguments: global, context: context)
            do {
                try command.run(checking: values, in: context)
            } catch let error as CLIError where error.keepsChanges {
                try autoCommit?.commit(context: context)
                throw error
            }
            try autoCommit?.commit(context: context)
            return
        }
    }

    /// Whether the words after a command with a default subcommand leave it to the default:
    /// there are none (and no help was asked for), or they start with an option other than
    /// help, as in `contacts remote --json`.
    private static func runsDefaultSubcommand(_ words: [String], helpAsked: Bool) -> Bool {
        guard let first = words.first else { return !helpAsked }
        return first.hasPrefix("-") && first != "-" && first != "--" && first != "-h" && first != "--help"
    }
}
