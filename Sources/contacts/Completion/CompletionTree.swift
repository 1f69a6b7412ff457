/// The commands, subcommands and options that completion scripts offer, read from the
/// command table so that a new command is completed without further work.
struct CompletionTree {
    /// One command or subcommand.
    struct Node {
        /// The words that lead to it: `["group", "add"]`.
        var path: [String]
        var summary: String
        var options: [OptionSpec]
        var argumentWords: [String]
        var children: [Node]
    }

    /// The top-level commands.
    let commands: [Node]

    init(commands: [any Command.Type]) {
        self.commands = commands.map { CompletionTree.node($0, parent: []) }
    }

    private static func node(_ command: any Command.Type, parent: [String]) -> Node {
        let path = parent + [command.name]
        return Node(
            path: path, summary: command.summary, options: command.options,
            argumentWords: command.positionals.completion,
            children: command.subcommands.map { node($0, parent: path) })
    }

    /// Every node, depth first.
    var allNodes: [Node] {
        func walk(_ nodes: [Node]) -> [Node] { nodes.flatMap { [$0] + walk($0.children) } }
        return walk(commands)
    }

    /// The global options and `--version`.
    var globalOptions: [OptionSpec] {
        GlobalOptions.specs + LeadingOptions.specs
    }

    /// Every option that takes a value, once per name.
    var valueOptions: [OptionSpec] {
        var seen = Set<String>()
        return (globalOptions + allNodes.flatMap(\.options)).filter { $0.takesValue && seen.insert($0.name).inserted }
    }

    /// The names of the commands that have subcommands.
    var dispatchers: [String] {
        commands.filter { !$0.children.isEmpty }.map { $0.path[0] }
    }
}
