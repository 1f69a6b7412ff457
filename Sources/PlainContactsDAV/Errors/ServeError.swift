import PlainContacts

/// The CardDAV server's domain of errors: its accounts, its settings and its listeners.
public enum ServeDomain: ErrorDomain {}

/// An error of `contacts serve` and its accounts: see ``PlainContactsError``. Failures of the
/// store it serves stay ``ContactsError``s.
///
/// ```swift
/// do {
///     try users.remove(name)
/// } catch let error as ServeError where error.code == .userNotFound {
///     print("No such user.")
/// }
/// ```
public typealias ServeError = PlainContactsError<ServeDomain>

extension PlainContactsError.Code where Domain == ServeDomain {
    /// No account of `contacts serve` has the given user name.
    public static let userNotFound = Self(rawValue: "userNotFound")
    /// An account of `contacts serve` has the given user name already, and replacing its
    /// password was not asked for.
    public static let userExists = Self(rawValue: "userExists")
    /// No address book of `contacts serve` has the given name: it was never granted with its
    /// store's path.
    public static let bookNotFound = Self(rawValue: "bookNotFound")
    /// An address book of `contacts serve` has the given name already, for another store.
    public static let bookExists = Self(rawValue: "bookExists")
}
