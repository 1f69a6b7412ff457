import Foundation
@testable import PlainContacts
@testable import PlainContactsDAV

/// A CardDAV address book in memory, as the sync sees one: cards by href with ETags that change
/// on every write, a sync token per change, a ctag, conditional writes that fail with 412, and
/// hooks to fail or change things in the middle of a sync.
// @unchecked: a sync uses it from one thread at a time (its early request finishes before the rest).
final class InMemoryAddressBook: RemoteAddressBook, @unchecked Sendable {
    let url = "https://dav.example.com/me/contacts/"
    private let path = "/me/contacts/"
    private(set) var cards: [String: (etag: String, data: Data)] = [:]
    private var version = 0
    /// The href and kind of each change, in order; the sync token is the count.
    private var log: [String] = []
    var offersSyncCollection = true
    var offersCtag = true

    /// How many cards were fetched, created, updated and deleted so far.
    private(set) var fetched = 0
    private(set) var listings = 0
    private(set) var writes = 0
    /// Fails every request after this many more writes (a server that went away mid-sync).
    var failAfterWrites: Int?
    /// Called before an update is checked: may change the card on the server meanwhile.
    var beforeUpdate: ((String) -> Void)?
    /// Makes the listing fail (a transient read error).
    var listingFails = false

    init() {}

    // MARK: Test-side editing

    @discardableResult
    func put(_ text: String, name: String) -> String {
        let href = path + name
        store(href, Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8))
        return href
    }

    func remove(_ href: String) {
        cards[href] = nil
        version += 1
        log.append(href)
    }

    func text(_ href: String) -> String? {
        cards[href].map { String(decoding: $0.data, as: UTF8.self) }
    }

    /// The href of the card whose text contains `needle`.
    func href(containing needle: String) -> String? {
        cards.keys.sorted().first { text($0)?.contains(needle) ?? false }
    }

    var texts: [String] { cards.keys.sorted().compactMap(text) }

    private func store(_ href: String, _ data: Data) {
        version += 1
        cards[href] = ("\"\(version)\"", data)
        log.append(href)
    }

    /// Every write is refused as a server refuses one to a book the account may only read.
    var readOnly = false

    private func countWrite() throws {
        if readOnly { throw SyncError(.readOnly, "the account may only read this address book", path: url) }
        if let left = failAfterWrites {
            if left <= 0 { throw SyncError(.serverUnavailable, "the server went away", path: url) }
            failAfterWrites = left - 1
        }
        writes += 1
    }

    private func checkAlive() throws {
        if let left = failAfterWrites, left <= 0 {
            throw SyncError(.serverUnavailable, "the server went away", path: url)
        }
    }

    // MARK: RemoteAddressBook

    func collectionState() throws -> RemoteCollectionState {
        try checkAlive()
        return RemoteCollectionState(
            ctag: offersCtag ? "ctag-\(version)" : nil, syncToken: offersSyncCollection ? "token-\(log.count)" : nil)
    }

    func listCards() throws -> [RemoteCardVersion] {
        try checkAlive()
        if listingFails { throw SyncError(.serverUnavailable, "the listing timed out", path: url) }
        listings += 1
        return cards.keys.sorted().map { RemoteCardVersion(href: $0, etag: cards[$0]?.etag ?? "") }
    }

    /// Whether a sync-collection report sends the cards' content when asked.
    var sendsCardsWithChanges = true
    /// Whether a sync-collection report asked for the cards' content is an answer larger than
    /// the client reads.
    var answersWithCardsTooLarge = false

    func changes(since token: String, includingCards: Bool) throws -> RemoteChanges? {
        if includingCards && answersWithCardsTooLarge {
            throw SyncError(.responseTooLarge, "the server's answer is too large", path: url)
        }
        guard var changes = try changesWithoutCards(since: token) else { return nil }
        if includingCards && sendsCardsWithChanges {
            for version in changes.changed { changes.cards[version.href] = cards[version.href]?.data }
            fetched += changes.cards.count
        }
        return changes
    }

    private func changesWithoutCards(since token: String) throws -> RemoteChanges? {
        try checkAlive()
        guard offersSyncCollection else { return nil }
        if token.isEmpty {
            let all = cards.keys.sorted().map { RemoteCardVersion(href: $0, etag: cards[$0]?.etag ?? "") }
            return RemoteChanges(changed: all, removed: [], syncToken: "token-\(log.count)")
        }
        guard token.hasPrefix("token-"), let count = Int(token.dropFirst(6)), count <= log.count else { return nil }
        let touched = Set(log[count...])
        var changes = RemoteChanges(changed: [], removed: [], syncToken: "token-\(log.count)")
        for href in touched.sorted() {
            if let card = cards[href] {
                changes.changed.append(RemoteCardVersion(href: href, etag: card.etag))
            } else {
                changes.removed.append(href)
            }
        }
        return changes
    }

    func fetchCards(_ hrefs: [String]) throws -> [RemoteCard] {
        try checkAlive()
        fetched += hrefs.count
        return hrefs.compactMap { href in cards[href].map { RemoteCard(href: href, etag: $0.etag, data: $0.data) } }
    }

    func createCard(named name: String, data: Data) throws -> RemoteCardVersion {
        try countWrite()
        let href = path + name
        guard cards[href] == nil else { throw SyncError(.preconditionFailed, "exists", path: href) }
        store(href, data)
        return RemoteCardVersion(href: href, etag: cards[href]?.etag ?? "")
    }

    func updateCard(at href: String, data: Data, etag: String) throws -> RemoteCardVersion {
        try countWrite()
        beforeUpdate?(href)
        guard cards[href]?.etag == etag else { throw SyncError(.preconditionFailed, "changed", path: href) }
        store(href, data)
        return RemoteCardVersion(href: href, etag: cards[href]?.etag ?? "")
    }

    func deleteCard(at href: String, etag: String) throws {
        try countWrite()
        guard let card = cards[href] else { return }
        guard card.etag == etag else { throw SyncError(.preconditionFailed, "changed", path: href) }
        remove(href)
    }
}
