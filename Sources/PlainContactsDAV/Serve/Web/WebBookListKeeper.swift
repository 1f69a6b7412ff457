#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import PlainContacts
import PlainContactsSystem
import Synchronization

/// Keeps each book's whole people list on disk (``WebBookListFile``) as the web pages bring it
/// up to date: a list of another token or settings than the file holds is written, in the
/// background and off the requests' path, ``delay`` after it was given, the latest one only
/// when several wait; a list the file already holds is not written again. A server that stops
/// writes what waits (``flush()``).
///
/// ```swift
/// let keeper = WebBookListKeeper { line in print(line) }
/// if let kept = keeper.read(book) { listings.keep(kept, of: book.name) }
/// keeper.keep(list, of: book)   // written in the background
/// keeper.flush()                // written now, as when the server stops
/// ```
final class WebBookListKeeper: Sendable {
    /// What a book's file holds, as far as it tells one list from another.
    private struct Written: Equatable {
        var token: CardDAVSyncToken
        var settings: FileSignature?
    }

    private struct State {
        /// What each book's file holds, by the book's store.
        var written: [String: Written] = [:]
        /// The lists waiting to be written, by the book's store.
        var pending: [String: (list: WebBookList, url: URL)] = [:]
    }

    /// How long a list waits before it is written: the page that caught it up is made
    /// meanwhile without the write (40 MB at 100,000 people) taking a core from it, and the
    /// changes of a while (a client's sync, a morning's edits) are written once. A server
    /// that ends without stopping (a crash, SIGKILL) catches the older list on disk up at its
    /// next start, as the collection names what changed since.
    static let delay: DispatchTimeInterval = .seconds(30)

    private let state = Mutex(State())
    /// Where the lists are written, one at a time.
    private let queue = DispatchQueue(label: "plaincontacts.web-list-files", qos: .utility)
    /// Where a failed write is said.
    private let log: @Sendable (String) -> Void

    /// A keeper that says in `log` why a list could not be written.
    init(log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.log = log
    }

    /// The list kept on disk for `book`; `nil` when there is none that can be read.
    func read(_ book: CardDAVServedBook) -> WebBookList? {
        let url = WebBookListFile.url(in: book.layout)
        guard let list = WebBookListFile.read(from: url) else { return nil }
        state.withLock { $0.written[url.path(percentEncoded: false)] = Written(token: list.token, settings: list.settings) }
        return list
    }

    /// Has `list` written as `book`'s file in the background, unless the file holds it already.
    func keep(_ list: WebBookList, of book: CardDAVServedBook) {
        let url = WebBookListFile.url(in: book.layout)
        let path = url.path(percentEncoded: false)
        let schedule = state.withLock { state in
            guard state.written[path] != Written(token: list.token, settings: list.settings) else { return false }
            let waiting = state.pending[path] != nil
            state.pending[path] = (list, url)
            return !waiting
        }
        guard schedule else { return }
        queue.asyncAfter(deadline: .now() + Self.delay) { [self] in write(path) }
    }

    /// Writes every list that waits, now, and returns once they and a write under way are
    /// done; the delayed writes then find nothing left to write.
    func flush() {
        queue.sync {
            for path in state.withLock({ Array($0.pending.keys) }) { write(path) }
        }
    }

    /// Writes the list waiting for the file at `path`.
    private func write(_ path: String) {
        guard let (list, url) = state.withLock({ $0.pending.removeValue(forKey: path) }) else { return }
        do {
            if try WebBookListFile.write(list, to: url) {
                state.withLock { $0.written[path] = Written(token: list.token, settings: list.settings) }
            }
        } catch {
            log("web: the people list of \(url.path(percentEncoded: false)) is not kept for the next start: \(error)")
        }
    }
}
