import PlainContacts
import PlainContactsSystem
import Synchronization

/// The people lists the web pages last read from each book, kept while the book's cards stay
/// as they were: listing 10,000 people (their sort keys, their names) is most of a list page's
/// time, and the same list is asked for page after page as it scrolls.
///
/// An entry is keyed by the book, the search words and the group, and holds the book's sync
/// token when it was read (``CardDAVCollection/token()``) and the signature of its
/// `store.json`: any change to a card (a person saved, a photo, a group's members; by a
/// client, the command line or `git pull`, which the collection learns of) gives the book a
/// new token, and a change of its settings (the sort order, the name format) a new signature;
/// either way the entry is read again.
///
/// ```swift
/// let read = try cache.read(key, token: try book.collection.token(), settings: settings) { try readTheBook() }
/// ```
final class WebListingCache: Sendable {
    /// The entries kept at most; the oldest gives way.
    static let limit = 32

    /// What a list page is asked for.
    struct Key: Sendable, Hashable {
        var book: ServedBookName
        var words: String
        var group: RecordID?
    }

    /// What a list page reads of a book.
    struct Read: Sendable {
        /// The people listed, in order.
        var rows: [PersonListing]
        /// The book's groups, with their names.
        var groups: [(id: RecordID, name: String)]
        /// The group chosen, when it exists.
        var chosen: RecordID?
        /// The people who have a saved image.
        var withPhotos: Set<RecordID>
    }

    private struct Entry {
        var token: CardDAVSyncToken
        var settings: FileSignature?
        var read: Read
        var order: Int
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var counter = 0
    }

    private let state = Mutex(State())

    init() {}

    /// The read kept for `key` at `token` with the book's settings file at `settings` (its
    /// signature, `nil` when it cannot be read), or what `make` reads, kept.
    ///
    /// - Throws: what `make` throws.
    func read(_ key: Key, token: CardDAVSyncToken, settings: FileSignature?, _ make: () throws -> Read) throws -> Read {
        if let kept = state.withLock({ $0.entries[key] }), kept.token == token, kept.settings == settings, settings != nil {
            return kept.read
        }
        let read = try make()
        state.withLock { state in
            state.counter += 1
            state.entries[key] = Entry(token: token, settings: settings, read: read, order: state.counter)
            if state.entries.count > Self.limit, let oldest = state.entries.min(by: { $0.value.order < $1.value.order })?.key {
                state.entries[oldest] = nil
            }
        }
        return read
    }
}
