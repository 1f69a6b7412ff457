import PlainContacts

/// `contacts access reset [CLIENT]`.
enum AccessResetCommand: Command {
    static let name = "reset"
    static let positionals = Positionals(.optional("CLIENT"), expected: "at most one CLIENT")
    static let summary = "Forget the decision for a program, or for every program; they will be asked again."

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let words = arguments.positionals
        try context.requireStore()
        let consent = AccessConsentStore(storeURL: context.storeURL)
        if let client = words.first {
            try consent.reset(client: client)
        } else {
            try consent.resetAll()
        }
    }
}
