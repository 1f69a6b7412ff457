import PlainContacts
import PlainContactsDAV

/// `contacts remote rm NAME`.
enum RemoteRemoveCommand: Command {
    static let name = "rm"
    static let positionals: Positionals = [.one("NAME")]
    static let summary = "Remove a remote and its sync status from this device; the server is not touched."

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let text = arguments.positionals[0]
        try context.requireStore()
        guard let name = try? RemoteName(text) else {
            throw CLIError.noInput("no remote is named \"\(text)\"; see `contacts remote list`")
        }
        try RemoteSettingsFile(storeURL: context.storeURL).remove(named: name)
    }
}
