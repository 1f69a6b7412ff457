import PlainContacts

/// Options several commands accept, declared once here and named in each command's
/// ``OptionGroup``: `let json = SharedOptions.json`.
enum SharedOptions {
    /// `--json`, for the commands that can print JSON.
    static let json = Flag("json", help: "Print JSON instead of text.")

    /// `--sort first|last`, for the commands that list people: the ordering asked for
    /// (`firstName` and `lastName` are accepted too); a usage error for another word.
    static let sort = Option<SortOrdering>(
        "sort", "first|last", help: "Sort by first or last name (default: the store's setting).",
        completion: .words(["first", "last"])
    ) { text throws(CLIError) in
        switch text {
        case "first", "firstName": return .firstName
        case "last", "lastName": return .lastName
        default: throw CLIError.usage("--sort is first or last")
        }
    }
}
