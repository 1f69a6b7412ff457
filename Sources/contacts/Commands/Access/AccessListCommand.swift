import PlainContacts

/// `contacts access list`: every program with a decision or a restriction.
enum AccessListCommand: Command {
    static let name = "list"
    static let summary = "List programs with a recorded decision or a restriction: CLIENT, tab, status."

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        try printAll(context)
    }

    static func printAll(_ context: CommandContext) throws {
        try context.requireStore()
        let consent = AccessConsentStore(storeURL: context.storeURL)
        context.console.print(lines: consent.allStatuses().map { "\($0.client)\t\($0.status.rawValue)" })
    }
}
