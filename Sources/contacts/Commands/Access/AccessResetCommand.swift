import PlainContacts

/// `contacts access reset [CLIENT]`.
enum AccessResetCommand: Command {
    static let name = "reset"
    static let synopsis = "[CLIENT]"
    static let summary = "Forget the decision for a program, or for every program; they will be asked again."

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws {
        let words = try arguments.positionals(0...1, "at most one CLIENT")
        try context.requireStore()
        let consent = AccessConsentStore(storeURL: context.storeURL)
        if let client = words.first {
            try consent.reset(client: client)
        } else {
            try consent.resetAll()
        }
    }
}
