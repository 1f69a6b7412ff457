import Foundation
import PlainContacts
import PlainContactsDAV

/// `contacts remote add NAME URL [--user USER] [--password-command CMD] [--book BOOK]`.
enum RemoteAddCommand: Command {
    static let name = "add"
    static let positionals: Positionals = [.one("NAME"), .one("URL")]
    static let summary = "Add a remote: a server address book (CardDAV) to sync with, on this device."
    static let discussion = """
        NAME is how the store calls the remote: letters, digits, '.', '_' and '-', at most 64,
        not starting with '.' or '-'. URL is the address book collection, such as
        https://dav.example.com/addressbooks/kim/contacts/, or any URL of the account (the
        server's root, the principal): the address book is then discovered (RFC 6764
        /.well-known/carddav, current-user-principal, addressbook-home-set). When the account
        has several, they are listed and --book names one (by its last path segment or its
        display name). --no-discover stores URL as it is, without contacting the server.
        A name in use is refused (exit status 64): remove the remote first. A server that
        refuses the credentials is exit status 77, one that cannot be reached 69, an account
        with no address book 66.

        The password is never stored. `contacts sync` gets it from --password-command (the
        first line of its output, e.g. `pass show dav`), else $\(RemotePassword.environmentVariable),
        else asks on the terminal. A plain http URL to another machine sends it in clear.
        """

    /// The options of `remote add`.
    struct Options: OptionGroup {
        let user = Option<String>("user", "USER", help: "The user name to sign in with (none: no sign-in).")
        let passwordCommand = Option<String>(
            "password-command", "CMD", help: "A shell command printing the password, such as `pass show dav`.")
        let book = Option<String>(
            "book", "BOOK", help: "Which address book, by name, when the account has several.")
        let noDiscover = Flag(
            "no-discover", help: "Take URL as the address book itself, without asking the server (or --book under it).")
    }

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let name = try usageChecked { () throws(ContactsError) in try RemoteName(arguments.positionals[0]) }
        let url = try usageChecked { () throws(ContactsError) in try RemoteSettings.collectionURL(from: arguments.positionals[1]) }
        let user = try nonEmpty(arguments[\.user], option: "--user")
        let passwordCommand = try nonEmpty(arguments[\.passwordCommand], option: "--password-command")
        if passwordCommand != nil, user == nil {
            throw CLIError.usage("--password-command needs --user: a remote without a user needs no password")
        }
        try context.requireStore()
        let file = RemoteSettingsFile(storeURL: context.storeURL)
        try file.checkNameIsFree(name)
        var remote = RemoteSettings(name: name, url: url, user: user, passwordCommand: passwordCommand)
        remote.url = try collection(of: remote, book: arguments[\.book], discovering: !arguments[\.noDiscover], in: context)
        if remote.sendsPasswordInClear {
            context.console.error(
                "warning: \(remote.url.absoluteString) is plain http to another machine: "
                    + "the password and the contacts would travel in clear; use https")
        }
        try file.add(remote)
        context.console.note("Added remote \"\(arguments.positionals[0])\": \(remote.url.absoluteString); `contacts sync` syncs it.")
    }

    /// The address book collection `remote.url` and `--book` name: the one place where a URL
    /// becomes a collection. Discovering, the server is asked for the account's address books;
    /// else the URL is taken as the collection itself, or, with `book`, as the folder holding
    /// the collection named `book`.
    ///
    /// - Throws: a usage error for a `book` that is not one path segment, or that names none of
    ///   the account's address books, or when the account has several and `book` is missing;
    ///   the discovery's errors.
    static func collection(
        of remote: RemoteSettings, book: String?, discovering: Bool, in context: CommandContext
    ) throws -> URL {
        if let book, book.isEmpty || book == "." || book == ".." || book.contains("/") {
            throw CLIError.usage("--book is the name of one address book, without '/'")
        }
        guard discovering else {
            guard let book else { return remote.url }
            return remote.url.appending(path: book, directoryHint: .isDirectory)
        }
        let password = try RemotePassword(environment: context.environment).password(for: remote)
        let credentials = remote.user.map { RemoteCredentials(user: $0, password: password ?? "") }
        let books = try CardDAVDiscovery(credentials: credentials).addressBooks(at: remote.url)
        func name(_ found: DiscoveredAddressBook) -> String {
            found.url.lastPathComponent.removingPercentEncoding ?? found.url.lastPathComponent
        }
        if let book {
            let wanted = book.lowercased()
            guard let found = books.first(where: { name($0).lowercased() == wanted || $0.displayName?.lowercased() == wanted })
            else {
                var error = CLIError.usage("the account has no address book named \"\(book)\"; it has:")
                error.details = books.map(describe)
                error.showsUsage = false
                throw error
            }
            return found.url
        }
        guard books.count == 1, let only = books.first else {
            var error = CLIError.usage("the account has \(books.count) address books; name one with --book:")
            error.details = books.map(describe)
            error.showsUsage = false
            throw error
        }
        return only.url
    }

    /// One line naming a discovered address book: its name, display name and URL.
    private static func describe(_ found: DiscoveredAddressBook) -> String {
        let name = found.url.lastPathComponent.removingPercentEncoding ?? found.url.lastPathComponent
        return "  \(name)\t\(found.displayName ?? "")\t\(found.url.absoluteString)"
    }

    /// The value of `body`, with a library refusal of a command-line word turned into a usage
    /// error.
    private static func usageChecked<Value>(_ body: () throws(ContactsError) -> Value) throws(CLIError) -> Value {
        do {
            return try body()
        } catch {
            throw CLIError.usage(error.message)
        }
    }

    /// `value`, refusing an empty one.
    private static func nonEmpty(_ value: String?, option: String) throws(CLIError) -> String? {
        guard let value else { return nil }
        guard !value.isEmpty else { throw CLIError.usage("\(option) must not be empty") }
        return value
    }
}
