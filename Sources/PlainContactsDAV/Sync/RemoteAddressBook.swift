import FoundationEssentials

/// An address book on a server, as a sync reads and writes it: cards listed with their ETags,
/// fetched in batches, and written only on a condition.
///
/// ``CardDAVAddressBook`` is the CardDAV implementation; tests of the sync use an in-memory one.
/// A card is named by its `href`: the absolute path of its URL on the server, decoded once and
/// written again in one canonical percent-encoding (see ``CardDAVHref``), so that two spellings
/// of one URL compare equal. An ETag is kept as the server wrote it, quotes included.
///
/// ```swift
/// let book: any RemoteAddressBook = try CardDAVAddressBook(url: url, credentials: credentials)
/// for version in try book.listCards() {
///     print(version.href, version.etag)
/// }
/// ```
package protocol RemoteAddressBook: Sendable {
    /// The collection's URL, for messages.
    var url: String { get }

    /// The collection's own version markers, read before anything else.
    ///
    /// - Throws: `SyncError.Code.authenticationFailed`,
    ///   `SyncError.Code.serverUnavailable` or `SyncError.Code.malformedResponse`.
    func collectionState() throws -> RemoteCollectionState

    /// Every card of the collection, with its ETag (a `Depth: 1` `PROPFIND` of `getetag`). The
    /// collection itself and members that are not cards (sub-collections) are left out.
    func listCards() throws -> [RemoteCardVersion]

    /// The cards changed and removed since a sync token (RFC 6578 `sync-collection`; an empty
    /// token asks for every card), or `nil` when the server no longer accepts the token (the
    /// `valid-sync-token` precondition): the caller then lists every card. With
    /// `includingCards`, the report also asks for each changed card's content, which servers
    /// may send (``RemoteChanges/cards``); a card whose content is missing is fetched as usual.
    func changes(since token: String, includingCards: Bool) throws -> RemoteChanges?

    /// The cards at these hrefs, fetched in batches (`addressbook-multiget`); a card removed
    /// meanwhile is left out of the result.
    func fetchCards(_ hrefs: [String]) throws -> [RemoteCard]

    /// Creates a card named `name` (such as `UID.vcf`) in the collection, only if no card has
    /// that name (`If-None-Match: *`).
    ///
    /// - Returns: the new card's href and ETag; when the server does not say the ETag, it is
    ///   read back.
    /// - Throws: `SyncError.Code.preconditionFailed` when a card of that name exists.
    func createCard(named name: String, data: Data) throws -> RemoteCardVersion

    /// Replaces a card, only if it is still at `etag` (`If-Match`).
    ///
    /// - Returns: the card's new version.
    /// - Throws: `SyncError.Code.preconditionFailed` when the card changed on the server
    ///   (or was removed there).
    func updateCard(at href: String, data: Data, etag: String) throws -> RemoteCardVersion

    /// Removes a card, only if it is still at `etag` (`If-Match`). A card already gone is not
    /// an error.
    ///
    /// - Throws: `SyncError.Code.preconditionFailed` when the card changed on the server.
    func deleteCard(at href: String, etag: String) throws
}

extension RemoteAddressBook {
    /// The changes since a token, without the cards' content.
    func changes(since token: String) throws -> RemoteChanges? {
        try changes(since: token, includingCards: false)
    }
}

/// Where a card is on the server and which version it is.
package struct RemoteCardVersion: Hashable, Sendable {
    /// The card's canonical absolute path (see ``RemoteAddressBook``).
    package var href: String
    /// The card's ETag, as the server wrote it.
    package var etag: String

    init(href: String, etag: String) {
        self.href = href
        self.etag = etag
    }
}

/// A card's content as fetched.
package struct RemoteCard: Hashable, Sendable {
    package var href: String
    package var etag: String
    /// The card's bytes, as the server sent them.
    package var data: Data

    init(href: String, etag: String, data: Data) {
        self.href = href
        self.etag = etag
        self.data = data
    }
}

/// What an address book collection says of its own version before a sync.
package struct RemoteCollectionState: Hashable, Sendable {
    /// CalendarServer's `getctag`: changes whenever any card changes; `nil` when not offered.
    var ctag: String?
    /// The collection's RFC 6578 `sync-token`; `nil` when the server does not offer
    /// `sync-collection`.
    package var syncToken: String?

    init(ctag: String?, syncToken: String?) {
        self.ctag = ctag
        self.syncToken = syncToken
    }
}

/// What changed in a collection since a sync token.
package struct RemoteChanges: Hashable, Sendable {
    /// Cards added or changed, with their new ETags.
    var changed: [RemoteCardVersion]
    /// Hrefs of cards removed.
    var removed: [String]
    /// The token to give next time.
    var syncToken: String
    /// The content of changed cards the server sent with the report, by href.
    var cards: [String: Data] = [:]

    init(changed: [RemoteCardVersion], removed: [String], syncToken: String) {
        self.changed = changed
        self.removed = removed
        self.syncToken = syncToken
    }
}
