import PlainContacts

/// `contacts access grant CLIENT`.
enum AccessGrantCommand: Command {
    static let name = "grant"
    static let positionals: Positionals = [.one("CLIENT")]
    static let summary = "Allow a program to use the store (on this device)."

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let client = arguments.positionals[0]
        try context.requireStore()
        try AccessConsentStore(storeURL: context.storeURL).setStatus(.authorized, for: client)
    }
}
