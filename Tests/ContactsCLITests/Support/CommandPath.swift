import Testing
@testable import contacts

/// Finds a command of the command table by the words that name it (`["group", "add"]`).
enum CommandPath {
    /// The command `path` runs; records an issue and throws when no command has the path.
    static func command(_ path: [String]) throws -> any Command.Type {
        var commands = CommandTable.commands
        var found: (any Command.Type)?
        for word in path {
            let next = try #require(CommandTable.command(named: word, in: commands))
            found = next
            commands = next.subcommands
        }
        return try #require(found)
    }
}
