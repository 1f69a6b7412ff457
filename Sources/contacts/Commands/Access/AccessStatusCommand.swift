import PlainContacts

/// `contacts access status [CLIENT]`.
enum AccessStatusCommand: Command {
    static let name = "status"
    static let positionals = Positionals(.optional("CLIENT"), expected: "at most one CLIENT")
    static let summary = "Print a program's status (notDetermined, restricted, denied, authorized); without CLIENT, as list."

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let words = arguments.positionals
        guard let client = words.first else {
            try AccessListCommand.printAll(context)
            return
        }
        try context.requireStore()
        context.console.print(AccessConsentStore(storeURL: context.storeURL).status(for: client).rawValue)
    }
}
