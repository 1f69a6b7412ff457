/// The help `contacts --help`, `contacts help COMMAND` and `contacts COMMAND --help` print.
enum HelpText {
    /// `contacts group add` for the chain `[GroupCommand, GroupAddCommand]`.
    static func commandName(_ chain: [any Command.Type]) -> String {
        (["contacts"] + chain.map { $0.name }).joined(separator: " ")
    }

    /// The usage line of a command, or of `contacts` itself for an empty chain.
    static func usage(for chain: [any Command.Type]) -> String {
        guard let command = chain.last else { return "Usage: contacts [--store DIR] COMMAND [ARGUMENTS]" }
        if !command.subcommands.isEmpty {
            let subcommand = command.defaultSubcommand == nil ? "SUBCOMMAND" : "[SUBCOMMAND]"
            return "Usage: \(commandName(chain)) \(subcommand) [ARGUMENTS]"
        }
        let synopsis = command.synopsis.isEmpty ? "" : " " + command.synopsis
        return "Usage: \(commandName(chain))\(synopsis)"
    }

    /// What follows a usage error: the usage line and where to read more.
    static func usageHint(for chain: [any Command.Type]) -> String {
        let more = chain.isEmpty ? "contacts help" : "\(commandName(chain)) --help"
        return "\(usage(for: chain))\nRun `\(more)` for more."
    }

    /// The full help of a command, or of `contacts` itself for an empty chain.
    static func help(for chain: [any Command.Type]) -> String {
        guard let command = chain.last else { return mainHelp }
        var sections = [usage(for: chain), command.summary]
        if !command.subcommands.isEmpty {
            sections.append("Subcommands:\n" + table(command.subcommands.map { ($0.name + " " + $0.synopsis, $0.summary) }))
        }
        if !command.options.isEmpty {
            sections.append("Options:\n" + table(command.options.map { ($0.usage, $0.help) }))
        }
        sections.append("Global options:\n" + table(GlobalOptions.specs.map { ($0.usage, $0.help) }))
        if !command.discussion.isEmpty { sections.append(command.discussion) }
        return sections.joined(separator: "\n\n")
    }

    private static var mainHelp: String {
        [
            "contacts — an address book kept as plain JSON files",
            usage(for: []),
            "Commands:\n" + table(CommandTable.commands.map { ($0.name, $0.summary) }),
            "Global options (before or after the command):\n"
                + table((GlobalOptions.specs + LeadingOptions.specs).map { ($0.usage, $0.help) }),
            """
            The store is the folder given with --store, else the store the current folder is
            in, else $CONTACTS_DIR, else $XDG_DATA_HOME/contacts, else ~/.local/share/contacts.
            $CONTACTS_LOCK_TIMEOUT sets the lock timeout when --lock-timeout is not given.
            """,
            wrapped("Exit status: " + exitStatuses.map { "\($0.status.rawValue) \($0.meaning)" }.joined(separator: ", ") + "."),
            "Run `contacts COMMAND --help` for a command's options. `man contacts` is the manual,\nwhen it is installed.",
        ].joined(separator: "\n\n")
    }

    /// The exit statuses of every command and what each means, in the order help lists them;
    /// the manual pages list them too.
    static let exitStatuses: [(status: ExitStatus, meaning: String)] = [
        (.success, "success"),
        (.usage, "wrong command line"),
        (.dataError, "malformed data (or an unreadable server answer)"),
        (.noInput, "no such store, record, group, file or remote"),
        (.unavailable, "server unreachable or failing"),
        (.software, "contacts serve's server process kept crashing"),
        (.temporaryFailure, "store busy, save conflict or sync conflicts left"),
        (.noPermission, "access denied (or credentials refused by a server)"),
        (.failure, "otherwise"),
    ]

    /// `text` with its words on lines of at most 92 characters.
    static func wrapped(_ text: String, width: Int = 92) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }

    /// Two aligned columns, indented by two spaces.
    static func table(_ rows: [(String, String)]) -> String {
        let width = min(rows.map { $0.0.count }.max() ?? 0, 28)
        return rows.map { left, right in
            let padding = left.count < width ? String(repeating: " ", count: width - left.count) : ""
            if left.count > width { return "  \(left)\n  \(String(repeating: " ", count: width))  \(right)" }
            return "  \(left)\(padding)  \(right)"
        }.joined(separator: "\n")
    }
}
