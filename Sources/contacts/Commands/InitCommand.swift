import PlainContacts

/// `contacts init [DIR] [--git]`: creates a store.
enum InitCommand: Command {
    static let name = "init"
    static let synopsis = "[DIR] [--git]"
    static let summary = "Create an empty store (in DIR, else where --store or the environment says)."
    static let options: [OptionSpec] = [
        .flag("git", help: "Also run `git init` there and set up Git's merge driver and diff helper for records."),
    ]
    static let discussion = """
        With --git the store becomes a Git repository (unless it is inside one already), and this
        clone's configuration gets the record merge driver and diff helper (see `contacts git-setup`).
        """

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws {
        let folders = try arguments.positionals(0...1, "at most one folder")
        let url = folders.first.map(StoreLocation.absolute) ?? context.storeURL
        do {
            _ = try AddressBook.create(at: url, options: AddressBookOptions(lockTimeout: context.lockTimeout()))
        } catch let error as ContactsError where error.code == .storeExists {
            throw CLIError.failure(
                "\(url.path(percentEncoded: false).withoutTrailingSlash) already holds a contacts store"
                    + (arguments.flag("git") ? "; run `contacts git-setup` there to set up Git" : ""))
        }
        context.console.print("Created a contacts store in \(url.path(percentEncoded: false).withoutTrailingSlash)")
        if arguments.flag("git") {
            if try !GitSetup.isRepository(url) {
                try GitSetup.initialize(url)
                context.console.print("Initialized a Git repository there")
            }
            try GitSetup.configure(url)
            context.console.print("Configured Git to merge and diff records with `contacts`")
        }
    }
}
