import PlainContacts
import PlainContactsDAV

/// `contacts user add NAME [--replace] [--book BOOK]... [--read-only]`: an account of
/// `contacts serve`, its password read from the terminal or standard input, never from the
/// command line, and the address books it may use.
enum UserAddCommand: Command {
    static let name = "add"
    static let positionals: Positionals = [.one("NAME")]
    static let summary = "Add a user of `contacts serve`, or with --replace give a user a new password."
    static let discussion = """
        NAME is what clients sign in with: 1 to \(ServerUserName.maximumLength) ASCII letters, digits, '.', '_', '-', '@'
        and '+', starting with a letter or a digit: no ':', which separates the name from the
        password in HTTP Basic authentication, no spaces, no control characters. Names are
        case-sensitive.

        On a terminal the password is asked for twice, without echo. Otherwise it is the
        first line of standard input, without its line end (`pass show dav | contacts user
        add NAME`). It is never taken from the command line, where other users of the
        machine could read it, and only its salted hash is stored. An empty password, one
        longer than \(ServerUsersFile.maximumPasswordLength) bytes, one that is not UTF-8, and two different answers at
        the prompt are refused (exit status 65).

        A name in use is refused (exit status 64) unless --replace is given: then the user
        gets the new password, and clients still using the old one must sign in again.
        --replace adds a user that does not exist yet too, so it sets a password either way.
        Hashing takes a fraction of a second.

        Without --book, the user has this store's address book, read and written (a replaced
        user keeps its books). With --book, the user has the books given instead, in that
        order: the first is the one clients show first. BOOK is `contacts` (this store), the
        name of a book granted before, or another store's folder (a path with a '/', named
        after its folder: ../family is the book family), or NAME=FOLDER to name it otherwise.
        --read-only makes the books given read-only for this user: clients show them so, and
        a write is refused with 403. See `contacts user grant` to give more books later.
        """

    /// The options of `user add`.
    struct Options: OptionGroup {
        let replace = Flag("replace", help: "Give an existing user a new password instead of refusing the name.")
        let book = RepeatableOption<String>(
            "book", "BOOK", help: "Give the user this address book instead of this store's: a name, a store's folder, or NAME=FOLDER (repeatable).")
        let readOnly = Flag("read-only", help: "The books given with --book are read-only for this user.")
    }

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let name: ServerUserName
        do {
            name = try ServerUserName(arguments.positionals[0])
        } catch {
            throw CLIError.usage(error.message)
        }
        let replacing = arguments[\.replace]
        try context.requireStore()
        let books = try UserCommand.bookReferences(arguments[\.book])
        if arguments[\.readOnly], books.isEmpty {
            throw CLIError.usage("--read-only makes the books given with --book read-only; give at least one")
        }
        let file = UserCommand.usersFile(in: context)
        // Refuse a name in use before asking for a password that would be thrown away.
        if !replacing { try file.checkNameIsFree(name) }
        let password = try NewPassword(standardInputIsTerminal: context.standardInputIsTerminal).read(for: name)
        let replaced = try file.add(
            name, password: password, replacing: replacing, books: books.isEmpty ? nil : books,
            access: arguments[\.readOnly] ? .read : .readWrite)
        context.console.note(replaced ? "Replaced the password of user \(name)." : "Added user \(name).")
    }
}
