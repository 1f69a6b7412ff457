import Foundation
import PlainContacts
import PlainContactsDAV
import PlainContactsSystem

/// `contacts user …`: the accounts that may sign in to `contacts serve`.
enum UserCommand: Command {
    static let name = "user"
    static let summary = "List, add and remove the accounts that may sign in to `contacts serve`, and grant them books."
    static let discussion = """
        The accounts stay on this device, in the store's git-ignored .contacts/users.json
        (mode 0600), which holds for each user a salted, slow hash of the password
        (PBKDF2-HMAC-SHA256), never the password itself. With at least one user, every request
        to `contacts serve` needs a user and its password (HTTP Basic authentication); with none,
        the server answers loopback clients only. A running server notices the changes.

        Each user has address books: this store's (the book `contacts`) unless given others.
        `contacts serve` serves every book some user has, each another store (another Git
        repository) with its own cards, sync tokens and commits; a user's clients see exactly
        that user's books, the first one first, and a book granted read-only as read-only.
        Without a subcommand, `contacts user` lists the users.
        """
    static var subcommands: [any Command.Type] {
        [
            UserListCommand.self,
            UserAddCommand.self,
            UserGrantCommand.self,
            UserRevokeCommand.self,
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

    /// The books named on the command line, folders relative to the working directory.
    ///
    /// - Throws: a usage error for a name or a folder's name that cannot name a book.
    static func bookReferences(_ arguments: [String]) throws -> [ServedBookReference] {
        let directory = URL(filePath: FileManager.default.currentDirectoryPath, directoryHint: .isDirectory)
        var books: [ServedBookReference] = []
        for argument in arguments {
            do throws(ContactsError) {
                books.append(try ServedBookReference(argument: argument, relativeTo: directory))
            } catch {
                throw CLIError.usage("\(argument): \(error.message)")
            }
        }
        return books
    }

    /// A user name from the command line.
    ///
    /// - Throws: a usage error for a name that is not valid.
    static func userName(_ text: String) throws -> ServerUserName {
        do {
            return try ServerUserName(text)
        } catch {
            throw CLIError.usage(error.message)
        }
    }
}
