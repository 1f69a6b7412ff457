/// One account of `contacts serve`: a user name and the hash of its password.
///
/// ```swift
/// let account = ServerAccount(name: try ServerUserName("kim"), passwordHash: hash)
/// ```
package struct ServerAccount: Sendable, Equatable {
    /// The name the account signs in with.
    package var name: ServerUserName
    /// The hash of its password.
    package var passwordHash: PasswordHash

    /// Pairs a name with a hash.
    init(name: ServerUserName, passwordHash: PasswordHash) {
        self.name = name
        self.passwordHash = passwordHash
    }
}
