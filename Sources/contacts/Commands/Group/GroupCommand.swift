/// `contacts group …`: the group subcommands.
enum GroupCommand: Command {
    static let name = "group"
    static let summary = "List, create, rename and remove groups, and change their members."
    static var subcommands: [any Command.Type] {
        [
            GroupListCommand.self,
            GroupCreateCommand.self,
            GroupRenameCommand.self,
            GroupRemoveCommand.self,
            GroupAddCommand.self,
            GroupRemoveMembersCommand.self,
            GroupMembersCommand.self,
        ]
    }
}
