import PlainContacts

/// `contacts access deny CLIENT`.
enum AccessDenyCommand: Command {
    static let name = "deny"
    static let synopsis = "CLIENT"
    static let summary = "Refuse a program the use of the store (on this device)."

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws {
        let client = try arguments.positional("CLIENT")
        try context.requireStore()
        try AccessConsentStore(storeURL: context.storeURL).setStatus(.denied, for: client)
    }
}
