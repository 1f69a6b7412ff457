/// How to open an address book.
///
/// The AddressBook equivalent is the options dictionary of `ABAddressBookCreateWithOptions`.
///
/// ```swift
/// var options = AddressBookOptions()
/// options.createIfMissing = true
/// let book = try AddressBook(url: folder, options: options)
/// ```
public struct AddressBookOptions: Sendable {
    /// Create an empty store when the folder holds none (the folder itself is created too).
    public var createIfMissing: Bool = false

    /// How long a save waits for another process's save before failing with
    /// ``ContactsError/Code/busy``.
    public var lockTimeout: Duration = .seconds(10)

    /// The name of the program opening the store, for access consent (a reverse-DNS name
    /// such as `com.example.mailer`), or `nil` for the store owner's own use.
    ///
    /// With a client name the book opens as the user decided with ``AccessRequest``:
    /// authorized opens the real book; not yet decided opens an empty book whose writes fail
    /// with ``ContactsError/Code/operationNotPermittedByUser``; denied or restricted fails to
    /// open with that error.
    public var client: String? = nil

    /// Groups kept between openings of the store by a program that opens it again and again,
    /// so that only groups whose files changed are read again; `nil` reads every group.
    var groupFileCache: GroupFileCache? = nil

    /// Keeps the groups read between openings of the store with these options (and copies of
    /// them), so that only groups whose files changed are read again: for a program that opens
    /// the store again and again, such as a server. Options that already keep them are left as
    /// they are.
    ///
    /// ```swift
    /// var options = AddressBookOptions()
    /// options.keepGroupsBetweenOpenings()
    /// let book = try AddressBook(url: storeURL, options: options)   // reads every group
    /// let again = try AddressBook(url: storeURL, options: options)  // reads only changed groups
    /// ```
    package mutating func keepGroupsBetweenOpenings() {
        if groupFileCache == nil { groupFileCache = GroupFileCache() }
    }

    /// Creates the default options: open an existing store, wait up to 10 seconds for the lock.
    public init() {}

    /// Creates options.
    public init(createIfMissing: Bool = false, lockTimeout: Duration = .seconds(10), client: String? = nil) {
        self.createIfMissing = createIfMissing
        self.lockTimeout = lockTimeout
        self.client = client
    }
}
