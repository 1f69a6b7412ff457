import FoundationEssentials
import PlainContacts
import PlainContactsSystem

/// Reading the server's side of a sync.
extension SyncRun {
    /// How many cards are fetched between two progress reports.
    static let fetchBatch = 500

    /// Finds every card's version on the server and fetches the cards new or changed since the
    /// status: only the changes since the sync token where the server offers `sync-collection`,
    /// nothing more when the ctag says nothing changed, else a listing of every ETag.
    ///
    /// An answer that cannot be read throws; an empty listing is only ever the server's own
    /// word, so a failed read never looks like an emptied address book.
    ///
    /// - Parameter early: the changes since the status's sync token, asked for already.
    mutating func readRemote(early: BackgroundTask<RemoteChanges?>? = nil) throws {
        var statusByHref: [String: String] = [:]
        for (uid, entry) in status.entries { statusByHref[entry.href] = uid }
        var versions: [String: String] = [:]
        for entry in status.entries.values { versions[entry.href] = entry.etag }
        var changed: [String] = []
        // Cards the server sent with its report, which need no fetching.
        var received: [String: Data] = [:]

        // With a sync token, the changes since it are the one request needed; the collection's
        // own properties are read only when there is no token or the server refused it.
        var sinceToken: RemoteChanges?
        if let early {
            sinceToken = try early.value()
        } else if let token = status.syncToken {
            sinceToken = try remote.changes(since: token, includingCards: true)
        }
        if let changes = sinceToken {
            report.incremental = true
            received = changes.cards
            for href in changes.removed { versions[href] = nil }
            for version in changes.changed where versions[version.href] != version.etag || statusByHref[version.href] == nil {
                versions[version.href] = version.etag
                changed.append(version.href)
            }
            newSyncToken = changes.syncToken
        } else if status.syncToken != nil || status.ctag == nil, let initial = try initialChanges() {
            // An initial sync-collection lists every card, with its content where the server
            // sends it, and gives the token in one request.
            versions = [:]
            received = initial.cards
            for version in initial.changed {
                versions[version.href] = version.etag
                let known = statusByHref[version.href].flatMap { status.entries[$0] }
                if known?.etag != version.etag { changed.append(version.href) }
            }
            newSyncToken = initial.syncToken
        } else {
            let state = try remote.collectionState()
            if status.syncToken == nil, state.syncToken == nil, let ctag = status.ctag, state.ctag == ctag {
                report.incremental = true
            } else {
                versions = [:]
                for version in try remote.listCards() {
                    versions[version.href] = version.etag
                    let known = statusByHref[version.href].flatMap { status.entries[$0] }
                    if known?.etag != version.etag { changed.append(version.href) }
                }
            }
            newSyncToken = state.syncToken
            newCtag = state.ctag
        }

        var cards: [String: (etag: String, card: CardMapping.Card)] = [:]
        func read(_ batch: [RemoteCard]) {
            for (card, outcome) in zip(batch, Self.readInParallel(batch)) {
                switch outcome {
                case .success(let read):
                    cards[card.href] = (card.etag, read)
                case .failure(let error):
                    report.warnings.append(error)
                    if let uid = statusByHref[card.href] { skipped.insert(uid) }
                }
            }
        }
        read(changed.compactMap { href in
            guard let data = received[href], let etag = versions[href] else { return nil }
            return RemoteCard(href: href, etag: etag, data: data)
        })
        let wanted = changed.filter { received[$0] == nil }.sorted()
        let batches = stride(from: 0, to: wanted.count, by: Self.fetchBatch).map { start in
            Array(wanted[start..<min(start + Self.fetchBatch, wanted.count)])
        }
        // Each batch is fetched while the one before is read.
        let remote = self.remote
        var next = batches.first.map { batch in BackgroundTask { try remote.fetchCards(batch) } }
        var done = 0
        for index in batches.indices {
            guard let fetching = next else { break }
            let fetched = try fetching.value()
            next = index + 1 < batches.count ? BackgroundTask { [batch = batches[index + 1]] in try remote.fetchCards(batch) } : nil
            read(fetched)
            done += batches[index].count
            options.progress?(SyncProgress(phase: .reading, done: done, total: wanted.count))
        }
        let fetched = Set(changed)
        // Of two cards with one UID, the one whose href sorts first is synced; the order of the
        // hrefs is not otherwise needed, so ten thousand of them are not sorted.
        var leftOut: [String] = []
        remoteEntries.reserveCapacity(versions.count)
        for (href, etag) in versions {
            let uid: String
            let entry: RemoteEntry
            if let read = cards[href] {
                uid = read.card.matchKey
                entry = RemoteEntry(href: href, etag: read.etag, kind: read.card.kind, card: read.card)
            } else if !fetched.contains(href), let known = statusByHref[href], let status = status.entries[known] {
                uid = known
                entry = RemoteEntry(href: href, etag: etag, kind: status.kind, card: nil)
            } else {
                continue  // removed between the listing and the fetch, or unreadable
            }
            if let other = remoteEntries[uid] {
                guard href < other.href else {
                    leftOut.append(href)
                    continue
                }
                leftOut.append(other.href)
            }
            remoteEntries[uid] = entry
        }
        for href in leftOut.sorted() {
            report.warnings.append(
                SyncError(.uidClash, "another card on the server has the same UID; this one is left out of the sync", path: href))
        }
    }

    /// How many cards make a piece of parallel reading worth a thread.
    private static let readChunk = 64

    /// Reads cards on all the machine's cores (a first sync reads thousands); each outcome is
    /// the card read, or the warning that leaves it out of the sync.
    private static func readInParallel(_ batch: [RemoteCard]) -> [Result<CardMapping.Card, SyncError>] {
        Parallel.map(batch.count, minimumChunk: readChunk) { position in
            let card = batch[position]
            do {
                return .success(try read(card))
            } catch let error as SyncError {
                return .failure(error)
            } catch {
                return .failure(SyncError(.malformedResponse, "the server's card is unreadable", path: card.href))
            }
        }
    }

    /// A card from the server, read as a record.
    ///
    /// - Throws: `SyncError.Code.malformedResponse` naming the card's href when it holds no
    ///   card that can be read.
    static func read(_ card: RemoteCard) throws(SyncError) -> CardMapping.Card {
        do {
            return try CardMapping.read(card.data, href: card.href)
        } catch let error as InterchangeError {
            throw error.recoded(.malformedResponse)
        } catch {
            throw SyncError(.malformedResponse, "the server's card is unreadable", path: card.href)
        }
    }

    /// Every card with its ETag and the collection's sync token, from an initial
    /// `sync-collection` (RFC 6578 section 3.4: an empty token); `nil` when the server does not
    /// offer the report, or when its answer, every card in one, is larger than a sync reads:
    /// the listing of ETags and the multigets of a batch each that replace it are far smaller.
    private func initialChanges() throws -> RemoteChanges? {
        do {
            return try remote.changes(since: "", includingCards: true)
        } catch let error as SyncError
            where error.code == .malformedResponse || error.code == .notFound || error.code == .responseTooLarge
        {
            return nil
        }
    }

    /// Fetches the cards of these UIDs that were not fetched yet (a card the status said was
    /// unchanged, needed after all for a merge).
    mutating func fetchMissingCards(_ uids: [String]) throws {
        let missing = uids.compactMap { uid in remoteEntries[uid].flatMap { $0.card == nil ? $0.href : nil } }
        guard !missing.isEmpty else { return }
        var byHref: [String: String] = [:]
        for (uid, entry) in remoteEntries { byHref[entry.href] = uid }
        for card in try remote.fetchCards(missing) {
            guard let uid = byHref[card.href] else { continue }
            let read = try Self.read(card)
            remoteEntries[uid]?.card = read
            remoteEntries[uid]?.etag = card.etag
        }
    }
}

extension CardMapping.Card {
    /// Whether the card is a person's or a group's.
    var kind: SyncStatusFile.Entry.Kind {
        switch self {
        case .person: .person
        case .group: .group
        }
    }
}
