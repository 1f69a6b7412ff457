import PlainContacts

/// `--sort first|last`.
enum SortOption {
    /// The ordering asked for, or `nil` for the store's own.
    ///
    /// - Throws: a usage error for another word.
    static func ordering(_ arguments: ParsedArguments) throws(CLIError) -> SortOrdering? {
        switch arguments.value("sort") {
        case nil: return nil
        case "first", "firstName": return .firstName
        case "last", "lastName": return .lastName
        default: throw CLIError.usage("--sort is first or last")
        }
    }
}
