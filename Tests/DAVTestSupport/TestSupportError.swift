/// A shared test helper that could not do its part: a git command failed, a person has no
/// file yet, the crash helper is not built.
public struct TestSupportError: Error, CustomStringConvertible {
    /// What failed.
    public var description: String

    /// Creates an error.
    public init(_ description: String) {
        self.description = description
    }
}
