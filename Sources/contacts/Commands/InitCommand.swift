import Foundation
import PlainContacts

/// `contacts init [DIR] [--git]`: creates a store.
enum InitCommand: Command {
    static let name = "init"
    static let positionals = Positionals(.optional("DIR"), expected: "at most one folder")
    static let summary = "Create an empty store (in DIR, else where --store or the environment says)."

    /// The options of `init`.
    struct Options: OptionGroup {
        let git = Flag(
            "git", help: "Also run `git init` there and set up Git's merge driver and diff helper for records.")
    }

    static let discussion = """
        With --git the store becomes a Git repository (unless it is inside one already), this
        clone's configuration gets the record merge driver and diff helper (see `contacts git-setup`),
        and the store's own files (store.json, .gitattributes, .gitignore) are committed, so that
        a clone of the repository is a store.

        When Git has no identity to commit with, the store is created and works but nothing is
        committed: set one with `git config --global user.name "Your Name"` and
        `git config --global user.email you@example.com`; the next command run with --commit
        (or with "autoCommit": true) commits the store's files with its change. The exit status
        is 0 then too, as for --commit: the store was created; the note on standard error says
        what is left to do.
        """

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let folders = arguments.positionals
        let url = folders.first.map(StoreLocation.absolute) ?? context.storeURL
        do {
            _ = try AddressBook.create(at: url, options: AddressBookOptions(lockTimeout: context.lockTimeout()))
        } catch let error as ContactsError where error.code == .storeExists {
            throw CLIError.failure(
                "\(url.path(percentEncoded: false).withoutTrailingSlash) already holds a contacts store"
                    + (arguments[\.git] ? "; run `contacts git-setup` there to set up Git" : ""))
        }
        let path = url.path(percentEncoded: false).withoutTrailingSlash
        context.console.print("Created a contacts store in \(path)")
        if url.standardizedFileURL.path(percentEncoded: false).withoutTrailingSlash
            != context.storeURL.standardizedFileURL.path(percentEncoded: false).withoutTrailingSlash
        {
            // The other commands would not find it by themselves.
            context.console.note(
                "Other commands use \(context.storeURL.path(percentEncoded: false).withoutTrailingSlash); to use this store, "
                    + "run them in \(ShellQuoting.word(path)), give them --store \(ShellQuoting.word(path)) "
                    + "or set CONTACTS_DIR=\(ShellQuoting.word(path)).")
        }
        if arguments[\.git] {
            if try !GitSetup.isRepository(url) {
                try GitSetup.initialize(url)
                context.console.print("Initialized a Git repository there")
            }
            try GitSetup.configure(url)
            context.console.print("Configured Git to merge and diff records with `contacts`")
            try commitSkeleton(url, console: context.console)
        }
    }

    /// Commits the new store's own files, or says why it could not and how to go on.
    private static func commitSkeleton(_ url: URL, console: Console) throws(CLIError) {
        switch try GitSetup.commitSkeleton(url) {
        case .committed:
            console.print("Committed the store's files (store.json, .gitattributes, .gitignore)")
        case .noIdentity:
            console.note(
                "The store's files are not committed: Git does not know who you are. Set your name and email with\n"
                    + "  git config --global user.name \"Your Name\"\n"
                    + "  git config --global user.email you@example.com\n"
                    + "and the next command run with --commit commits them with its change.")
        case .failed(let reason):
            console.error("the store was created but its files were not committed: \(reason)")
        }
    }
}
