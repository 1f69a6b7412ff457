import FoundationEssentials

/// Asks the user whether a program may use a store.
///
/// ``AccessRequest`` consults a prompt only while the program's status is
/// ``AuthorizationStatus/notDetermined``. ``TerminalAccessPrompt`` asks on the controlling
/// terminal; ``FixedAccessPrompt`` answers without asking, for tests and scripts.
///
/// ```swift
/// struct AlwaysAsk: AccessPrompt {
///     func askForAccess(client: String, store: URL) async -> Bool? {
///         await showDialog(for: client)
///     }
/// }
/// ```
public protocol AccessPrompt: Sendable {
    /// Asks whether `client` may use the store at `store`.
    ///
    /// - Parameters:
    ///   - client: The name the program gave when it asked.
    ///   - store: The store's folder.
    /// - Returns: `true` if the user allows access, `false` if the user refuses, `nil` if the
    ///   user could not be asked (the status then stays ``AuthorizationStatus/notDetermined``).
    func askForAccess(client: String, store: URL) async -> Bool?
}
