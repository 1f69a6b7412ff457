import PlainContacts

/// `contacts access status [CLIENT]`.
enum AccessStatusCommand: Command {
    static let name = "status"
    static let synopsis = "[CLIENT]"
    static let summary = "Print a program's status (notDetermined, restricted, denied, authorized); without CLIENT, as list."

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws {
        let words = try arguments.positionals(0...1, "at most one CLIENT")
        guard let client = words.first else {
            try AccessListCommand.printAll(context)
            return
        }
        try context.requireStore()
        context.console.print(AccessConsentStore(storeURL: context.storeURL).status(for: client).rawValue)
    }
}
