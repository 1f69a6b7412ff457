import PlainContacts

/// A failure of the command-line tool itself, with the exit status it ends with.
///
/// Library failures stay errors of their domain (`ContactsError`, `SyncError`, `ServeError`);
/// ``ContactsTool`` turns them all into a message on standard error and an exit status.
struct CLIError: Error, Sendable {
    /// The exit status.
    var status: ExitStatus
    /// One sentence for standard error, or empty to print nothing.
    var message: String
    /// Lines printed after the message, such as the candidates of an ambiguous name.
    var details: [String] = []
    /// Whether to print the command's usage after the message.
    var showsUsage = false
    /// Whether the command's changes stand although it ends with this status (a sync that left
    /// conflicts saved everything else): `--commit` still commits them.
    var keepsChanges = false

    /// A wrong command line: exit status 64, followed by the command's usage.
    static func usage(_ message: String) -> CLIError {
        CLIError(status: .usage, message: message, showsUsage: true)
    }

    /// No such record, group, store or file: exit status 66.
    static func noInput(_ message: String) -> CLIError {
        CLIError(status: .noInput, message: message)
    }

    /// A library error met where the command cannot throw it as is: its message and the exit
    /// status of its code.
    static func library<Domain>(_ error: PlainContactsError<Domain>) -> CLIError {
        CLIError(status: ExitStatus(forLibraryError: error) ?? .failure, message: error.description)
    }

    /// Any other failure: exit status 1.
    static func failure(_ message: String) -> CLIError {
        CLIError(status: .failure, message: message)
    }
}
