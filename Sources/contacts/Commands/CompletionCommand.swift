/// `contacts completion bash|zsh|fish`: prints a shell completion script.
enum CompletionCommand: Command {
    static let name = "completion"
    static let positionals = Positionals(
        .one("bash|zsh|fish", completion: ["bash", "zsh", "fish"]), expected: "bash, zsh or fish")
    static let summary = "Print a completion script for bash, zsh or fish."
    static let discussion = """
        Install it with, for example:
          contacts completion bash > ~/.local/share/bash-completion/completions/contacts
          contacts completion zsh > ~/.zfunc/_contacts    # with ~/.zfunc in $fpath
          contacts completion fish > ~/.config/fish/completions/contacts.fish
        """

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let shell = arguments.positionals[0]
        let tree = CompletionTree(commands: CommandTable.commands)
        switch shell {
        case "bash": context.console.print(BashCompletion.script(tree))
        case "zsh": context.console.print(ZshCompletion.script(tree))
        case "fish": context.console.print(FishCompletion.script(tree))
        default: throw CLIError.usage("the shells are bash, zsh and fish")
        }
    }
}
