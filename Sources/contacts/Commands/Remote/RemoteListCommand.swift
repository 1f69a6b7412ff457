import PlainContacts
import PlainContactsDAV
import PlainContactsSystem

/// `contacts remote list`: every remote with where its password comes from.
enum RemoteListCommand: Command {
    static let name = "list"
    static let summary = "List remotes: name, URL, user and password source, one per line."
    static let discussion = """
        The password source is where `contacts sync` would get the password now: the remote's
        password command, $\(RemotePassword.environmentVariable), or a prompt; none for a remote
        without a user. No password is ever shown.
        """

    /// The options of `remote list`.
    struct Options: OptionGroup {
        let json = SharedOptions.json
    }

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        try context.requireStore()
        let remotes = try RemoteSettingsFile(storeURL: context.storeURL).remotes()
        let passwords = RemotePassword(environment: context.environment)
        if arguments[\.json] {
            context.console.printJSON(.array(remotes.map { remote in
                var fields: [String: JSONValue] = [
                    "name": .string(remote.name.rawValue),
                    "url": .string(remote.url.absoluteString),
                    "passwordSource": .string(passwords.source(for: remote).rawValue),
                ]
                if let user = remote.user { fields["user"] = .string(user) }
                return .object(fields)
            }))
        } else {
            context.console.print(lines: remotes.map { remote in
                [remote.name.rawValue, remote.url.absoluteString, remote.user ?? "", passwords.source(for: remote).rawValue]
                    .joined(separator: "\t")
            })
        }
    }
}
