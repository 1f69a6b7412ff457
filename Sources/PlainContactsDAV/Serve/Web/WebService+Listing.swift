#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts
import PlainContactsSystem

/// The people lists of the list pages and the JSON API: each book's whole list kept and caught
/// up with each change (``WebBookList``), made before the server listens so that the first
/// page finds it ready, and kept on disk for the next start (``WebBookListKeeper``).
extension WebService {
    /// The people of the list `query` asks for (`q`: the words searched, `group`: a group's
    /// record ID), filtered from the book's whole list, which is caught up with the changes
    /// since it was made; the list kept while the book's cards stay as they are.
    ///
    /// - Throws: the errors of reading the book.
    func listing(_ target: CardDAVService.Target, query: WebForm) throws -> WebListingCache.Read {
        let words = query["q"] ?? ""
        let groupID = query["group"].flatMap(Int32.init).map { RecordID($0) }
        let key = WebListingCache.Key(book: target.book.name, words: words, group: groupID)
        let settings = Self.settingsSignature(of: target.book)
        let whole = try wholeList(of: target.book, settings: settings)
        if let kept = listings.read(key, token: whole.token, settings: settings) { return kept }
        let read = whole.read(words: words, group: groupID)
        listings.keep(read, for: key, token: whole.token, settings: settings)
        return read
    }

    /// The whole list of `book`, brought up to date: the one kept when nothing changed since;
    /// else the one kept caught up with the people changed since (see
    /// ``WebBookList/caughtUp(with:present:token:layout:)``); else made from the book.
    ///
    /// - Throws: the errors of reading the book.
    func wholeList(of book: CardDAVServedBook, settings: FileSignature?) throws -> WebBookList {
        let collection = book.collection
        if let kept = listings.whole(of: book.name), settings != nil, kept.settings == settings {
            let (token, records, present) = try collection.token(withRecordsChangedSince: kept.token)
            if token == kept.token, present == nil { return kept }
            if let records, let caughtUp = try? kept.caughtUp(with: records, present: present, token: token, layout: book.layout) {
                listings.keep(caughtUp, of: book.name)
                listFiles.keep(caughtUp, of: book)
                return caughtUp
            }
        }
        let token = try collection.token()
        let listings = self.listings
        let made = try book.writer.withBook { opened in
            // Another request (or the start) may have made it while this one waited.
            if let kept = listings.whole(of: book.name), kept.token == token, settings != nil, kept.settings == settings {
                return kept
            }
            let made = WebBookList(book: opened, token: token, settings: settings)
            listings.keep(made, of: book.name)
            return made
        }
        listFiles.keep(made, of: book)
        return made
    }

    /// Makes the whole list of every book served now, before the server listens, so that the
    /// first list page after the server starts finds it ready, and gives the number of people
    /// listed. A book that cannot be read is left for its first page to report.
    ///
    /// A book's list kept on disk by the server that ran before (``WebBookListFile``) is
    /// caught up with the changes the collection finds since its token, instead of being made
    /// again from the book; one of other settings (`store.json` changed) is made again.
    @discardableResult
    func prepareLists() -> Int {
        var people = 0
        for book in service.openedBooks {
            let settings = Self.settingsSignature(of: book)
            if listings.whole(of: book.name) == nil, settings != nil, let kept = listFiles.read(book), kept.settings == settings {
                listings.keep(kept, of: book.name)
            }
            people += (try? wholeList(of: book, settings: settings))?.count ?? 0
        }
        return people
    }

    /// The signature of a book's `store.json`, which holds its sort order and name format;
    /// `nil` when it cannot be read.
    static func settingsSignature(of book: CardDAVServedBook) -> FileSignature? {
        FileSignature.of(book.layout.root.appending(path: StoreLayout.manifestName).path)
    }
}
