import PlainContacts
import PlainContactsDAV

/// `contacts user …`: the accounts that may sign in to `contacts serve`.
enum UserCommand: Command {
    static let name = "user"
    static let summary = "List, add and remove the accounts that may sign in to `contacts serve`."
    static let discussion = """
        The accounts stay on this device, in the store's git-ignored .contacts/users.json
        (mode 0600), which holds for each user a salted, slow hash of the password
        (PBKDF2-HMAC-SHA256), never the password itself. With at least one user, every request
        to `contacts serve` needs a user and its password (HTTP Basic authentication); with none,
        the server answers loopback clients only. A running server notices the changes.
        Without a subcommand, `contacts user` lists the users.
        """
    static var subcommands: [any Command.Type] {
        [
            UserListCommand.self,
            UserAddCommand.self,
            UserRemoveCommand.self,
        ]
    }
    static var defaultSubcommand: (any Command.Type)? { UserListCommand.self }

    /// The accounts file of the store `context` names.
    ///
    /// A debug build takes the iteration count of new and accepted hashes from
    /// `CONTACTS_TEST_PASSWORD_ITERATIONS`, so that the tests of the unoptimized binary do not
    /// spend seconds per derivation; a release build ignores the variable.
    static func usersFile(in context: CommandContext) -> ServerUsersFile {
        #if DEBUG
        if let text = context.environment["CONTACTS_TEST_PASSWORD_ITERATIONS"], let iterations = Int(text), iterations >= 1 {
            return ServerUsersFile(storeURL: context.storeURL, hashIterations: iterations, minimumIterations: iterations)
        }
        #endif
        return ServerUsersFile(storeURL: context.storeURL)
    }
}
