/// A mistake on the command line: printed with the usage, exit status 64.
struct UsageError: Error {
    /// What is wrong.
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
