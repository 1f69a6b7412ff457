import PlainContacts
import PlainContactsSystem
import Synchronization

/// The people lists the web pages last read from each book, kept while the book's cards stay
/// as they were: listing 10,000 people (their sort keys, their names) is most of a list page's
/// time, and the same list is asked for page after page as it scrolls.
///
/// Two kinds of lists are kept. Each book's whole list (a ``WebBookList``), which a change
/// catches up with rather than making it again; and what each page was asked for, keyed by
/// the book, the search words and the group, filtered from the whole list. Both hold the
/// book's sync token when they were made (``CardDAVCollection/token()``) and the signature of
/// its `store.json`: any change to a card (a person saved, a photo, a group's members; by a
/// client, the command line or `git pull`, which the collection learns of) gives the book a
/// new token, and a change of its settings (the sort order, the name format) a new signature.
/// A page's list of another token is filtered again; a whole list of other settings is made
/// again.
///
/// ```swift
/// if let read = cache.read(key, token: token, settings: settings) { return read }
/// let read = whole.read(words: key.words, group: key.group)
/// cache.keep(read, for: key, token: whole.token, settings: whole.settings)
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
        var wholes: [ServedBookName: WebBookList] = [:]
        var counter = 0
    }

    private let state = Mutex(State())

    init() {}

    /// The read kept for `key` at `token` with the book's settings file at `settings` (its
    /// signature, `nil` when it cannot be read); `nil` when none is.
    func read(_ key: Key, token: CardDAVSyncToken, settings: FileSignature?) -> Read? {
        guard settings != nil, let kept = state.withLock({ $0.entries[key] }), kept.token == token, kept.settings == settings else {
            return nil
        }
        return kept.read
    }

    /// Keeps `read` for `key`, made at `token` with the settings file at `settings`; the
    /// oldest read gives way past ``limit``.
    func keep(_ read: Read, for key: Key, token: CardDAVSyncToken, settings: FileSignature?) {
        state.withLock { state in
            state.counter += 1
            state.entries[key] = Entry(token: token, settings: settings, read: read, order: state.counter)
            if state.entries.count > Self.limit, let oldest = state.entries.min(by: { $0.value.order < $1.value.order })?.key {
                state.entries[oldest] = nil
            }
        }
    }

    /// The whole list kept for a book, whatever its token.
    func whole(of book: ServedBookName) -> WebBookList? {
        state.withLock { $0.wholes[book] }
    }

    /// Keeps a book's whole list, unless one of a later token of the same instance is kept.
    func keep(_ whole: WebBookList, of book: ServedBookName) {
        state.withLock { state in
            if let kept = state.wholes[book], kept.token.instance == whole.token.instance, kept.token.sequence > whole.token.sequence,
                kept.settings == whole.settings
            {
                return
            }
            state.wholes[book] = whole
        }
    }
}
