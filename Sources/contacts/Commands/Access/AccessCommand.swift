/// `contacts access …`: which programs may use the store.
enum AccessCommand: Command {
    static let name = "access"
    static let summary = "Show and change which programs may use this store."
    static var subcommands: [any Command.Type] {
        [
            AccessStatusCommand.self,
            AccessListCommand.self,
            AccessGrantCommand.self,
            AccessDenyCommand.self,
            AccessResetCommand.self,
        ]
    }
}
