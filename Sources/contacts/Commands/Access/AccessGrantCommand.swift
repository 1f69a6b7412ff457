import PlainContacts

/// `contacts access grant CLIENT`.
enum AccessGrantCommand: Command {
    static let name = "grant"
    static let synopsis = "CLIENT"
    static let summary = "Allow a program to use the store (on this device)."

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws {
        let client = try arguments.positional("CLIENT")
        try context.requireStore()
        try AccessConsentStore(storeURL: context.storeURL).setStatus(.authorized, for: client)
    }
}
