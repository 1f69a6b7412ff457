/// One account of `contacts serve`: a user name, the hash of its password, and its books.
///
/// ```swift
/// let account = ServerAccount(name: try ServerUserName("kim"), passwordHash: hash)
/// ```
package struct ServerAccount: Sendable, Equatable {
    /// The name the account signs in with.
    package var name: ServerUserName
    /// The hash of its password.
    package var passwordHash: PasswordHash
    /// The address books it may use, in the order its home lists them.
    package var books: [ServerGrant]

    /// Pairs a name with a hash and books.
    init(name: ServerUserName, passwordHash: PasswordHash, books: [ServerGrant] = ServerGrant.standard) {
        self.name = name
        self.passwordHash = passwordHash
        self.books = books
    }
}
