/// `contacts git-setup`: configures this clone's merge driver and diff helper.
enum GitSetupCommand: Command {
    static let name = "git-setup"
    static let summary = "Configure this clone of the store to merge and diff records with `contacts`."
    static var discussion: String {
        "Writes these settings into the repository's configuration (Git does not copy them when cloning):\n"
            + GitSetup.settings.map { "  git config \($0.key) \"\($0.value)\"" }.joined(separator: "\n")
            + "\n\nIt also brings the store's .gitattributes up to date when it holds what an earlier version"
            + " wrote (a file edited by hand is kept; the lines it should hold are printed)."
    }

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        try context.requireStore()
        let url = context.storeURL
        guard try GitSetup.isRepository(url) else {
            throw CLIError.failure(
                "\(url.path(percentEncoded: false).withoutTrailingSlash) is not in a Git repository; run `git init` there first")
        }
        try GitSetup.configure(url)
        context.console.print("Configured Git to merge and diff records with `contacts`")
        try GitSetup.updateAttributes(url, console: context.console)
    }
}
