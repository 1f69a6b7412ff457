import PlainContacts

/// `contacts access deny CLIENT`.
enum AccessDenyCommand: Command {
    static let name = "deny"
    static let positionals: Positionals = [.one("CLIENT")]
    static let summary = "Refuse a program the use of the store (on this device)."

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let client = arguments.positionals[0]
        try context.requireStore()
        try AccessConsentStore(storeURL: context.storeURL).setStatus(.denied, for: client)
    }
}
