import Foundation
import PlainContacts

/// `contacts remote add NAME URL [--user USER] [--password-command CMD] [--book BOOK]`.
enum RemoteAddCommand: Command {
    static let name = "add"
    static let positionals: Positionals = [.one("NAME"), .one("URL")]
    static let summary = "Add a remote: a server address book (CardDAV) to sync with, on this device."
    static let discussion = """
        NAME is how the store calls the remote: letters, digits, '.', '_' and '-', at most 64,
        not starting with '.' or '-'. URL is the address book collection, such as
        https://dav.example.com/addressbooks/kim/contacts/; with --book, the folder holding it.
        A name in use is refused (exit status 64): remove the remote first.

        The password is never stored. `contacts sync` gets it from --password-command (the
        first line of its output, e.g. `pass show dav`), else $\(RemotePassword.environmentVariable),
        else asks on the terminal. A plain http URL to another machine sends it in clear.
        """

    /// The options of `remote add`.
    struct Options: OptionGroup {
        let user = Option<String>("user", "USER", help: "The user name to sign in with (none: no sign-in).")
        let passwordCommand = Option<String>(
            "password-command", "CMD", help: "A shell command printing the password, such as `pass show dav`.")
        let book = Option<String>("book", "BOOK", help: "The address book's name in the folder URL names.")
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
        remote.url = try collection(of: remote, book: arguments[\.book], in: context)
        if remote.sendsPasswordInClear {
            context.console.error(
                "warning: \(remote.url.absoluteString) is plain http to another machine: "
                    + "the password and the contacts would travel in clear; use https")
        }
        try file.add(remote)
    }

    /// The address book collection `remote.url` and `--book` name: the one place where a URL
    /// becomes a collection. The URL is taken as the collection itself, or, with `book`, as
    /// the folder holding the collection named `book`.
    ///
    /// - Throws: a usage error for a `book` that is not one path segment.
    static func collection(of remote: RemoteSettings, book: String?, in context: CommandContext) throws -> URL {
        guard let book else { return remote.url }
        guard !book.isEmpty, book != ".", book != "..", !book.contains("/") else {
            throw CLIError.usage("--book is the name of one address book, without '/'")
        }
        return remote.url.appending(path: book, directoryHint: .isDirectory)
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
