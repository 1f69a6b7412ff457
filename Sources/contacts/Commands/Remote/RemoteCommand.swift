/// `contacts remote …`: the server address books a store syncs with.
enum RemoteCommand: Command {
    static let name = "remote"
    static let summary = "List, add and remove the server address books (CardDAV) this store syncs with."
    static let discussion = """
        A remote's settings stay on this device, in the store's git-ignored .contacts/remotes.json
        (mode 0600), and never hold a password. Without a subcommand, `contacts remote` lists
        the remotes.
        """
    static var subcommands: [any Command.Type] {
        [
            RemoteListCommand.self,
            RemoteAddCommand.self,
            RemoteRemoveCommand.self,
        ]
    }
    static var defaultSubcommand: (any Command.Type)? { RemoteListCommand.self }
}
