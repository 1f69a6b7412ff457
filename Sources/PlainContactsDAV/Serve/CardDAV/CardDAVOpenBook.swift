#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts
import PlainContactsSystem

/// The served store's ``AddressBook``, opened at its first use and kept for the server's life,
/// and brought up to date before each use with what others changed meanwhile: the command line,
/// an editor, a `git pull`.
///
/// Before each use, ``current(after:)`` is given what the store's folder watch heard since the
/// last use (``CardDAVCollection/newsForBook()``, read from the kernel's queue, so a change
/// finished before the call is always in it), and reads the store again (``AddressBook/revert()``)
/// unless the book provably holds what the files hold:
/// - every person named holds the bytes of its file (``AddressBook/savedFingerprint(ofPersonWithKey:)``
///   against the file read now; the book's own saves pass this test), or is in neither the book
///   nor the folder. A person's image is read from its file whenever it is needed, so a new image
///   alone needs nothing;
/// - no group is named (the book cannot tell its own group writes from others', so the next use
///   after a group changed reads the store again);
/// - the watch could tell (no queue overflow, no folder replaced, inotify available);
/// - `store.json` holds the bytes it held when the book was last read;
/// - the last use left no unsaved change and ended without an error.
///
/// Reading the store again costs what opening it costs (only groups whose files changed are read
/// again, see ``AddressBookOptions``), so the common case, a server whose clients are the only
/// writers, never pays it, and a write never works from a stale record: a person changed
/// elsewhere between two writes is read again before the second.
///
/// Not `Sendable`, like the book: the ``CardDAVWriter`` keeps it behind its lock.
///
/// ```swift
/// var open = CardDAVOpenBook(layout: layout, options: options)
/// let book = try open.current(after: collection.newsForBook())
/// ```
struct CardDAVOpenBook {
    /// The store.
    private let layout: StoreLayout
    /// How the store is opened.
    private let options: AddressBookOptions
    /// The book, once opened.
    private var book: AddressBook?
    /// The fingerprint of `store.json` when the book was last read.
    private var manifest: Fingerprint?
    /// Set when the last use failed: the book may hold changes no save took.
    private var setAside = false
    /// How many times the store was read: opened, then read again.
    private(set) var reads = 0

    /// The store at `layout`, not opened yet.
    init(layout: StoreLayout, options: AddressBookOptions) {
        self.layout = layout
        self.options = options
    }

    /// The book, opened or read again when it may not hold what the store's files hold, given
    /// `news`, what the folder watch heard since the last call.
    ///
    /// - Throws: the errors of ``AddressBook/init(url:options:)`` and ``AddressBook/revert()``.
    mutating func current(after news: StoreFolderWatch.News) throws -> AddressBook {
        let manifest = fingerprint(of: layout.root.appending(path: StoreLayout.manifestName))
        if let book, !setAside, manifest == self.manifest, !book.hasUnsavedChanges, holdsTheFiles(book, after: news) {
            return book
        }
        let current: AddressBook
        if let book {
            // Marked first: a revert that fails leaves it to the next use to try again.
            setAside = true
            try book.revert()
            current = book
        } else {
            current = try AddressBook(url: layout.root, options: options)
        }
        book = current
        self.manifest = manifest
        setAside = false
        reads += 1
        return current
    }

    /// Marks the book as not to be trusted: a use failed part-way, so it is read again before
    /// the next.
    mutating func setAsideAfterFailure() {
        setAside = true
    }

    /// Whether the book holds what the files the watch named hold (see the type's description).
    private func holdsTheFiles(_ book: AddressBook, after news: StoreFolderWatch.News) -> Bool {
        guard case .records(let people, let groups) = news, groups.isEmpty else { return false }
        for key in people {
            let onDisk = fingerprint(of: layout.recordFile(of: .person, key: key))
            let file = book.recordFile(ofPersonWithKey: key)
            if let saved = file.savedFingerprint {
                guard onDisk == saved else { return false }
            } else if onDisk != nil || file.signature != nil {
                // A person the book never read, or one it holds only in its catalog.
                return false
            }
        }
        return true
    }

    /// The fingerprint of a file's bytes; `nil` when it cannot be read (it is gone).
    private func fingerprint(of url: URL) -> Fingerprint? {
        (try? Data(contentsOf: url)).map(Fingerprint.init)
    }
}
