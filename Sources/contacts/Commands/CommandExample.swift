/// An example in a command's manual page: what it does, and the command lines that do it.
///
/// ```swift
/// CommandExample("Serve the store to this machine:", "contacts serve")
/// ```
struct CommandExample: Sendable {
    /// One sentence saying what the lines do.
    let purpose: String
    /// The command lines, as typed.
    let lines: [String]

    /// An example doing `purpose` with `lines`.
    init(_ purpose: String, _ lines: String...) {
        self.purpose = purpose
        self.lines = lines
    }
}
