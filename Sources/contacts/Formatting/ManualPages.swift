/// The manual of `contacts`: `contacts(1)`, one page per command (`contacts-serve(1)`), and
/// `contacts-store(5)` for the files on disk, made from the command table (``CommandTable``)
/// as help is, so that the manual and `--help` cannot disagree.
///
/// ```swift
/// ManualPages.names               // ["contacts.1", "contacts-init.1", …, "contacts-store.5"]
/// ManualPages.page(named: "contacts-serve.1")?.render()
/// ```
enum ManualPages {
    /// The file name of every page, `contacts.1` first.
    static var names: [String] {
        ["contacts.1"] + CommandTable.commands.map { "\(pageName($0)).1" } + ["contacts-store.5"]
    }

    /// The page with the file name `name` (`contacts-serve.1`, or `contacts-serve` alone), or
    /// `nil` when there is none.
    static func page(named name: String) -> ManualPage? {
        let file = name.contains(".") ? name : (names.first { $0.hasPrefix(name + ".") } ?? name)
        if file == "contacts.1" { return mainPage }
        if file == "contacts-store.5" { return StoreManualPage.page }
        guard let command = CommandTable.commands.first(where: { "\(pageName($0)).1" == file }) else { return nil }
        return page(for: command)
    }

    /// `contacts-serve` for `serve`.
    static func pageName(_ command: any Command.Type) -> String {
        "contacts-\(command.name)"
    }

    /// `contacts(1)`: the synopsis, every command with its summary, the global options, and
    /// what every command shares (the store, the exit status, the environment, the files).
    private static var mainPage: ManualPage {
        var page = ManualPage(name: "contacts", section: 1, summary: "an address book kept as plain JSON files")
        page.add("SYNOPSIS", [.literal([HelpText.usage(for: []).replacingPrefix("Usage: ")])])
        page.add(
            "DESCRIPTION",
            [
                .paragraph(
                    """
                    contacts keeps an address book as a folder of JSON files, one per person and
                    per group, that Git merges, an editor opens, and other programs read. Its
                    commands add, find, show, change, import, export and sync people and groups;
                    contacts serve serves the folder to phones and mail clients as a CardDAV
                    address book. Each command has its own page, named below.
                    """)
            ])
        page.add(
            "COMMANDS",
            CommandTable.commands.map { command in
                .item(
                    term: "contacts \(command.name)", argument: command.synopsis.isEmpty ? nil : command.synopsis,
                    text: "\(command.summary) See \(pageName(command))(1).")
            })
        page.add("OPTIONS", optionItems(GlobalOptions.specs + LeadingOptions.specs))
        page.add("EXIT STATUS", exitStatusItems)
        page.add("ENVIRONMENT", environmentItems)
        page.add("FILES", fileItems)
        page.add("EXAMPLES", examples(mainExamples))
        page.add("SEE ALSO", [.references([("contacts-store", 5), ("git", 1)] + CommandTable.commands.map { (pageName($0), 1) })])
        return page
    }

    /// The page of one command: its synopsis, discussion and options, and those of each of
    /// its subcommands.
    private static func page(for command: any Command.Type) -> ManualPage {
        var page = ManualPage(name: pageName(command), section: 1, summary: lowercasedSummary(command.summary))
        let chain: [any Command.Type] = [command]
        let leaves = command.subcommands.isEmpty ? [chain] : command.subcommands.map { chain + [$0] }
        page.add("SYNOPSIS", [.literal(leaves.map { fullSynopsis($0) })])
        var description: [ManualPage.Block] = [.paragraph(command.summary)]
        description += discussionBlocks(command.discussion)
        page.add("DESCRIPTION", description)
        page.add("OPTIONS", optionItems(command.options))
        if !command.subcommands.isEmpty {
            var blocks: [ManualPage.Block] = []
            if let fallback = command.defaultSubcommand {
                blocks.append(.paragraph("Without a subcommand, contacts \(command.name) runs contacts \(command.name) \(fallback.name)."))
            }
            for subcommand in command.subcommands {
                blocks.append(.subsection(fullSynopsis(chain + [subcommand])))
                blocks.append(.paragraph(subcommand.summary))
                blocks += discussionBlocks(subcommand.discussion)
                blocks += optionItems(subcommand.options)
            }
            page.add("SUBCOMMANDS", blocks)
        }
        page.add("GLOBAL OPTIONS", optionItems(GlobalOptions.specs))
        page.add("EXIT STATUS", exitStatusItems)
        page.add("ENVIRONMENT", environmentItems)
        page.add("EXAMPLES", examples(command.examples))
        page.add("SEE ALSO", [.references([("contacts", 1), ("contacts-store", 5)])])
        return page
    }

    /// `contacts group add GROUP ID... [--json]`: the command's words, its positional
    /// arguments and every option, however many it has.
    static func fullSynopsis(_ chain: [any Command.Type]) -> String {
        guard let command = chain.last else { return "contacts" }
        let words = [HelpText.commandName(chain), command.positionals.synopsis] + command.options.map(\.synopsis)
        return words.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The items of a list of options: `--listen HOST:PORT` and its help.
    private static func optionItems(_ options: [OptionSpec]) -> [ManualPage.Block] {
        options.map { option in
            let term = option.shortName.map { "-\($0), --\(option.name)" } ?? "--\(option.name)"
            let repeatable = option.isRepeatable && !option.help.contains("repeatable") ? " May be given more than once." : ""
            return .item(term: term, argument: option.valueName, text: option.help + repeatable)
        }
    }

    /// A discussion as blocks: its paragraphs, with lines indented by two spaces or more shown
    /// as they are (commands, configuration).
    static func discussionBlocks(_ discussion: String) -> [ManualPage.Block] {
        var blocks: [ManualPage.Block] = []
        for paragraph in discussion.components(separatedBy: "\n\n") where !paragraph.isEmpty {
            var text: [String] = []
            var literal: [String] = []
            for line in paragraph.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                if line.hasPrefix("  ") {
                    if !text.isEmpty { blocks.append(.paragraph(text.joined(separator: "\n"))) }
                    text = []
                    literal.append(String(line.dropFirst(2)))
                } else {
                    if !literal.isEmpty { blocks.append(.literal(literal)) }
                    literal = []
                    text.append(line)
                }
            }
            if !text.isEmpty { blocks.append(.paragraph(text.joined(separator: "\n"))) }
            if !literal.isEmpty { blocks.append(.literal(literal)) }
        }
        return blocks
    }

    /// Examples as a paragraph saying what each does and the command line below it.
    private static func examples(_ examples: [CommandExample]) -> [ManualPage.Block] {
        examples.flatMap { example in [.paragraph(example.purpose), .literal(example.lines)] }
    }

    /// The summary as NAME shows it: `serve the store as …`, without the final period.
    private static func lowercasedSummary(_ summary: String) -> String {
        var text = summary.hasSuffix(".") ? String(summary.dropLast()) : summary
        if let first = text.first, text.dropFirst().first?.isLowercase ?? true { text = first.lowercased() + text.dropFirst() }
        return text
    }

    /// The exit statuses every command shares (``ExitStatus``).
    static var exitStatusItems: [ManualPage.Block] {
        HelpText.exitStatuses.map { .item(term: "\($0.status.rawValue)", argument: nil, text: $0.meaning) }
    }

    /// The variables `contacts` reads.
    static var environmentItems: [ManualPage.Block] {
        [
            .item(term: "CONTACTS_DIR", argument: nil, text: "The store, when --store is not given and the current folder is not in a store."),
            .item(
                term: "XDG_DATA_HOME", argument: nil,
                text: "Without --store, outside a store and without CONTACTS_DIR, the store is $XDG_DATA_HOME/contacts (~/.local/share/contacts when it is unset)."),
            .item(term: "HOME", argument: nil, text: "Where ~ is, for the default store."),
            .item(term: "CONTACTS_LOCK_TIMEOUT", argument: nil, text: "The lock timeout in seconds when --lock-timeout is not given."),
            .item(
                term: "CONTACTS_REMOTE_PASSWORD", argument: nil,
                text: "The password of a remote that has no --password-command (contacts sync), instead of a prompt."),
            .item(term: "VISUAL, EDITOR", argument: nil, text: "The editor contacts edit opens."),
            .item(term: "TMPDIR", argument: nil, text: "Where temporary files go (contacts edit)."),
        ]
    }

    /// The files of a store, in short; ``StoreManualPage`` describes them.
    static var fileItems: [ManualPage.Block] {
        [
            .item(term: "~/.local/share/contacts", argument: nil, text: "The default store."),
            .item(term: "STORE/store.json", argument: nil, text: "The store's manifest and settings (autoCommit, autoPush)."),
            .item(term: "STORE/people/, STORE/groups/", argument: nil, text: "One JSON file per person and per group."),
            .item(
                term: "STORE/.contacts/", argument: nil,
                text: "Device-local, never committed: the lock, the index, remotes and their sync status, the users of contacts serve."),
        ]
    }

    /// The examples of `contacts(1)`.
    private static let mainExamples = [
        CommandExample("Start a store in the default place and add a person:", "contacts init", "contacts add Katie Bell --phone mobile:555-0100"),
        CommandExample("Find people and show one:", "contacts search katie", "contacts show 1"),
        CommandExample("Keep the store in Git, committing every change:", "contacts git-setup", "contacts --commit set 1 note='met at the fair'"),
    ]
}

extension String {
    /// The string without `prefix` at its start, or the string itself.
    fileprivate func replacingPrefix(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
    }
}
