import PlainContacts
import PlainContactsDAV
import PlainContactsSystem

/// `contacts user list`: every account with how its password is hashed, and its books.
enum UserListCommand: Command {
    static let name = "list"
    static let summary = "List the users of `contacts serve`: name, hash algorithm, iteration count and books, one per line."
    static let discussion = """
        No password or hash is ever shown. A user whose iteration count is below today's
        (\(PasswordHash.defaultIterations)) was added by an earlier version; `contacts user add
        NAME --replace` hashes its password again with today's count. The books are listed in
        the order clients show them, a read-only one followed by (read-only).
        """

    /// The options of `user list`.
    struct Options: OptionGroup {
        let json = SharedOptions.json
    }

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        try context.requireStore()
        let accounts = try UserCommand.usersFile(in: context).accounts()
        if arguments[\.json] {
            context.console.printJSON(.array(accounts.map { account in
                .object([
                    "name": .string(account.name.rawValue),
                    "algorithm": .string(account.passwordHash.algorithm.rawValue),
                    "iterations": .number(JSONNumber(account.passwordHash.iterations)),
                    "books": .array(account.books.map { grant in
                        .object(["book": .string(grant.book.rawValue), "access": .string(grant.access.rawValue)])
                    }),
                ])
            }))
        } else {
            context.console.print(lines: accounts.map { account in
                let books = account.books.map { $0.book.rawValue + ($0.access == .read ? " (read-only)" : "") }
                return [
                    account.name.rawValue, account.passwordHash.algorithm.rawValue, String(account.passwordHash.iterations),
                    books.joined(separator: ", "),
                ].joined(separator: "\t")
            })
        }
    }
}
