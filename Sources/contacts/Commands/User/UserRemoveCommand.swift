import PlainContacts
import PlainContactsDAV

/// `contacts user rm NAME`.
enum UserRemoveCommand: Command {
    static let name = "rm"
    static let positionals: Positionals = [.one("NAME")]
    static let summary = "Remove a user of `contacts serve`; its clients can no longer sign in."
    static let discussion = """
        A name that no user has is exit status 66. Removing the last user does not open the
        server: a running `contacts serve` that had users keeps refusing every request until
        it is restarted.
        """

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        try context.requireStore()
        // An invalid name is not echoed: it may be a password typed in the wrong place.
        guard let name = try? ServerUserName(arguments.positionals[0]) else {
            throw CLIError.noInput("no user has this name; see `contacts user list`")
        }
        try UserCommand.usersFile(in: context).remove(name)
    }
}
