import PlainContacts
import PlainContactsDAV

/// `contacts user grant NAME BOOK... [--read-only] [--first]`: more address books for a user of
/// `contacts serve`.
enum UserGrantCommand: Command {
    static let name = "grant"
    static let positionals = Positionals(.one("NAME"), .oneOrMore("BOOK"), expected: "NAME and at least one BOOK")
    static let summary = "Give a user of `contacts serve` more address books, read and written or --read-only."
    static let discussion = """
        BOOK is `contacts` (this store), the name of a book granted before, or another store's
        folder: a path with a '/' names the book after its folder (../family is the book
        family), NAME=FOLDER names it otherwise. A book is one store, one Git repository: the
        family's shared book is a store of its own that every member is granted. The books
        are added at the end of the user's list, or at its front with --first (clients show
        the first book first; macOS Contacts shows only that one). Granting a book the user
        has changes only its access. A running server notices the change; it serves a book
        granted while it runs from the first request for it.

        A user without books of their own has this store's book; granting the first other
        book keeps it, `contacts user revoke NAME contacts` takes it away. Exit status: 64 a
        name that cannot be a book's, or a book name another store has; 66 no such user or
        book, or a folder without a store.
        """

    /// The options of `user grant`.
    struct Options: OptionGroup {
        let readOnly = Flag("read-only", help: "The user may read the books but not change them.")
        let first = Flag("first", help: "Put the books at the front of the user's list.")
    }

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        try context.requireStore()
        let name = try UserCommand.userName(arguments.positionals[0])
        let books = try UserCommand.bookReferences(Array(arguments.positionals.dropFirst()))
        let access: ServerGrant.Access = arguments[\.readOnly] ? .read : .readWrite
        try UserCommand.usersFile(in: context).grant(name, books: books, access: access, first: arguments[\.first])
        let names = books.map { $0.name.rawValue }.joined(separator: ", ")
        context.console.note("User \(name) has \(names)\(access == .read ? ", read-only" : "").")
    }
}

/// `contacts user revoke NAME BOOK...`: takes address books from a user of `contacts serve`.
enum UserRevokeCommand: Command {
    static let name = "revoke"
    static let positionals = Positionals(.one("NAME"), .oneOrMore("BOOK"), expected: "NAME and at least one BOOK")
    static let summary = "Take address books from a user of `contacts serve`."
    static let discussion = """
        The user's clients no longer see the books (404). A book no user has any more is
        forgotten; its store is not touched. Exit status 66 for no such user, or a book the
        user does not have.
        """

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        try context.requireStore()
        let name = try UserCommand.userName(arguments.positionals[0])
        var books: [ServedBookName] = []
        for argument in arguments.positionals.dropFirst() {
            do {
                books.append(try ServedBookName(argument))
            } catch {
                throw CLIError.usage("\(argument): \(error.message)")
            }
        }
        try UserCommand.usersFile(in: context).revoke(name, books: books)
    }
}
