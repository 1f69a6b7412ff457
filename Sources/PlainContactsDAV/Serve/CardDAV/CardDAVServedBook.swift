#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts

/// One store that `contacts serve` serves as an address book: its name, its cards
/// (``CardDAVCollection``), the ``CardDAVWriter`` that carries out its writes and, for a server,
/// the lock that keeps other servers off it.
///
/// ```swift
/// let family = try CardDAVServedBook(name: try ServedBookName("family"), storeURL: folder, exclusive: true)
/// try family.collection.listing()
/// ```
final class CardDAVServedBook: Sendable {
    /// The book's name: its URL segment.
    let name: ServedBookName
    /// The store.
    let layout: StoreLayout
    /// The cards.
    let collection: CardDAVCollection
    /// Carries out the writes, one at a time.
    let writer: CardDAVWriter
    /// The lock that keeps other servers off the store while the book is served, when it was
    /// opened `exclusive`.
    let serverLock: CardDAVServerLock?

    /// Opens the store in a folder as a book.
    ///
    /// `afterWrite` is told of each write the book's ``writer`` saved.
    ///
    /// An `exclusive` book, what a server opens, takes the store's ``CardDAVServerLock``
    /// before it reads the state file and holds it for its whole life, so that no other server
    /// shares that file, and removes what an earlier server killed mid-write left beside it;
    /// the store's own lock, which the command line writes under, is not involved. A book that
    /// is not exclusive (several services on one store, as tests run them) leaves it alone.
    ///
    /// - Throws: ``ContactsError/Code/notAStore`` when the folder holds no store;
    ///   ``ContactsError/Code/busy`` when `exclusive` and another server serves the store; the
    ///   errors of creating the lock file and of removing a leftover temporary file.
    init(
        name: ServedBookName, storeURL: URL, options: AddressBookOptions = AddressBookOptions(), exclusive: Bool = false,
        afterWrite: (@Sendable (CardDAVWrite) -> Void)? = nil, log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        try AddressBook.requireStore(at: storeURL)
        self.name = name
        layout = StoreLayout(root: storeURL)
        serverLock = exclusive ? try CardDAVServerLock(layout: layout) : nil
        if exclusive {
            // A server killed while it replaced its state file left the temporary file behind.
            try DurableFile.removeLeftovers(of: CardDAVStateFile.url(in: layout))
        }
        var options = options
        // When the writer's book reads the store again, only groups whose files changed are read.
        options.keepGroupsBetweenOpenings()
        collection = CardDAVCollection(layout: layout, log: log)
        writer = CardDAVWriter(collection: collection, layout: layout, options: options, name: name, afterWrite: afterWrite)
    }

    /// The book's `displayname`: "Contacts" for the store the server runs in (as it always
    /// was), else its name.
    var displayName: String {
        name == .home ? CardDAVService.collectionDisplayName : name.rawValue
    }
}
