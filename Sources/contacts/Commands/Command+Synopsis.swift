extension Command {
    /// A command with more options than this shows `[options]` in its synopsis instead of
    /// each of them; its help lists them all.
    static var synopsisOptionLimit: Int { 6 }

    /// The arguments after the name, as help shows them: `GROUP [--sort first|last] [--json]`,
    /// made from the positional arguments and the options; `SUBCOMMAND` for a command that
    /// only dispatches.
    static var synopsis: String {
        guard subcommands.isEmpty else { return "SUBCOMMAND" }
        let optionWords = options.count > synopsisOptionLimit ? ["[options]"] : options.map(\.synopsis)
        return ([positionals.synopsis].filter { !$0.isEmpty } + optionWords).joined(separator: " ")
    }
}
