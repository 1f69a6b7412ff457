#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContactsSystem
import Synchronization
import PlainContacts

/// The address book as the server sees it: every record of the store as a card with a resource
/// name, an ETag and the change number at which it last changed, kept in memory and brought up to
/// date cheaply before each answer.
///
/// The collection puts together four parts, each with one job, and keeps the first three behind
/// one lock:
/// - the listing, a ``CardDAVEntryTable``: the entries, the removals and the cards' bytes;
/// - a ``CardDAVRefresher``, which brings the table up to date from the store's folder watch
///   (inotify), or by looking at every file when the watch cannot tell;
/// - a ``CardDAVStateRecorder``, which records each change in the ``CardDAVStateFile``, so that
///   names and change numbers survive restarts;
/// - a ``CardDAVCardWarmer``, which makes in the background the cards a bulk change listed
///   without making.
///
/// A card whose bytes changed, a new record and a removed record each take the next change
/// number; the sync token of the collection is simply its latest change number (see
/// ``CardDAVSyncToken``). The server's writes to the store go through a ``CardDAVWriter``, which
/// tells the collection what it saved (``record(_:)``).
///
/// Safe to use from many threads: the state is behind a mutex.
///
/// ```swift
/// let collection = CardDAVCollection(layout: StoreLayout(root: storeURL))
/// let listing = try collection.listing()
/// for entry in listing.entries.values { print(entry.name, entry.quotedETag) }
/// ```
final class CardDAVCollection: Sendable {
    /// The cards at one moment, with the token that names that moment.
    struct Listing: Sendable {
        /// The cards by resource name.
        var entries: [String: CardDAVEntry]
        /// Cards removed, by resource name, with the change number of the removal.
        var removed: [String: UInt64]
        /// The collection's state.
        var token: CardDAVSyncToken
        /// Tokens with a lower change number are no longer answered.
        var floor: UInt64
    }

    /// How many removals are remembered for sync tokens by default: a client that has not
    /// synced since more cards than this were removed syncs afresh.
    static let defaultMaximumRemovals = 20_000

    /// What the mutex guards.
    private struct State {
        /// The listing.
        var table: CardDAVEntryTable
        /// What brings the listing up to date.
        var refresher: CardDAVRefresher
        /// What records the listing's changes in the state file.
        var recorder: CardDAVStateRecorder
    }

    /// Makes cards from the store's files.
    let maker: CardDAVCardMaker
    /// The cards and what belongs with them.
    private let state: Mutex<State>
    /// Makes the cards a bulk change listed without making.
    private let warmer: CardDAVCardWarmer
    /// Where the collection says why it looks at every file, and what it could not keep.
    private let log: @Sendable (String) -> Void

    /// The address book of a store, with what the state file recorded. The store's folders are
    /// watched from now on (see ``StoreFolderWatch``).
    init(
        layout: StoreLayout, maximumRemovals: Int = CardDAVCollection.defaultMaximumRemovals, warmsUp: Bool = true,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.log = log
        let sent = CardDAVSentCards(layout: layout)
        maker = CardDAVCardMaker(layout: layout, sent: sent)
        warmer = CardDAVCardWarmer(maker: maker, enabled: warmsUp)
        let stateURL = CardDAVStateFile.url(in: layout)
        let table = CardDAVEntryTable(file: CardDAVStateFile.load(from: stateURL), maximumRemovals: maximumRemovals, sent: sent)
        state = Mutex(
            State(table: table, refresher: CardDAVRefresher(layout: layout, log: log), recorder: CardDAVStateRecorder(url: stateURL)))
    }

    // MARK: Reading

    /// Every card, brought up to date with the store.
    ///
    /// - Throws: the errors of listing the store's folders; ``ContactsError/Code/io`` when the
    ///   state file cannot be written.
    func listing() throws -> Listing {
        try state.withLock { state in
            try refreshAll(&state)
            let file = state.table.file
            return Listing(entries: file.entries, removed: file.removed, token: state.table.token, floor: file.floor)
        }
    }

    /// The collection's token, after bringing it up to date.
    ///
    /// - Throws: the errors of ``listing()``.
    func token() throws -> CardDAVSyncToken {
        try state.withLock { state in
            try refreshAll(&state)
            return state.table.token
        }
    }

    /// The collection's token, after bringing it up to date, with the records whose cards
    /// changed, were added or were removed since the change number `since` of the same
    /// instance, oldest first; the records are `nil` when the collection cannot tell (another
    /// instance, removals forgotten since, too many changes since).
    ///
    /// For a change number from before the server started (a list kept by the server that ran
    /// before), the people removed before it started cannot be named: `people` then gives the
    /// keys of every person, and a person not among them is gone. It is `nil` otherwise.
    ///
    /// - Throws: the errors of ``listing()``.
    func token(
        withRecordsChangedSince since: CardDAVSyncToken
    ) throws -> (token: CardDAVSyncToken, records: [CardDAVEntry.Record]?, people: Set<RecordKey>?) {
        try state.withLock { state in
            try refreshAll(&state)
            let token = state.table.token
            guard since.instance == token.instance, let changed = state.table.records(changedSince: since.sequence) else {
                return (token, nil, nil)
            }
            return (token, changed.records, changed.complete ? nil : state.table.personKeys)
        }
    }

    /// Cards by resource name, with their bytes, each brought up to date with its files; names
    /// of no card are left out.
    ///
    /// - Throws: the errors of ``listing()``.
    func cards(named names: some Sequence<String>) throws -> [String: (entry: CardDAVEntry, data: Data)] {
        let wanted = Array(Set(names))
        return try state.withLock { state in
            if wanted.contains(where: { state.table.entry(named: $0) == nil }) { try refreshAll(&state) }
            // The files of the cards asked for are compared with their signatures all at once.
            let known = wanted.compactMap { state.table.entry(named: $0) }
            var current: [CardDAVEntry.Record: [FileSignature?]] = [:]
            for kind in [CardDAVEntry.Record.Kind.person, .group] {
                let keys = known.filter { $0.record.kind == kind }.map(\.record.key)
                for (key, signatures) in zip(keys, maker.signatures(of: kind, keys: keys)) {
                    current[CardDAVEntry.Record(kind: kind, key: key)] = signatures
                }
            }
            var found: [String: (entry: CardDAVEntry, data: Data)] = [:]
            var stale: [CardDAVEntry] = []
            for entry in known {
                if let data = state.table.cachedCard(named: entry.name), current[entry.record] == entry.signatures {
                    found[entry.name] = (entry, data)
                } else {
                    stale.append(entry)
                }
            }
            // People's cards are made on all cores (a client fetching a bulk change asks for
            // hundreds at a time); a group's needs its members' UIDs, kept in the table.
            let people = stale.filter { $0.record.kind == .person }.map(\.record)
            let maker = self.maker
            let made = Parallel.map(people.count, minimumChunk: 16) { index in maker.outcome(people[index]) { _ in nil } }
            var outcomes = zip(people, made).map { ($0, $1) }
            for entry in stale where entry.record.kind == .group {
                outcomes.append((entry.record, maker.outcome(entry.record) { key in state.table.uid(ofPersonWithKey: key) }))
            }
            var changes = CardDAVStateChanges()
            var uidChanged = false
            for (record, outcome) in outcomes {
                if let data = state.table.apply(outcome, to: record, changes: &changes, uidChanged: &uidChanged),
                    let updated = state.table.entry(of: record)
                {
                    found[updated.name] = (updated, data)
                }
            }
            try state.table.record(changes, by: &state.recorder)
            if uidChanged { try refreshAll(&state, regroup: true) }
            return found
        }
    }

    /// One card with its bytes; `nil` when there is none of that name.
    ///
    /// - Throws: the errors of ``listing()``.
    func card(named name: String) throws -> (entry: CardDAVEntry, data: Data)? {
        try cards(named: [name])[name]
    }

    /// Cards in a vCard version: each card not already in that version is made again from its
    /// record's files in it, keeping its entry (and so its ETag, which names the record's
    /// state, not one spelling of it: DAVx5 lists ETags with `PROPFIND` and fetches the cards
    /// in 4.0, and with an ETag per version would fetch every card again at every sync). A card whose files changed since `cards` were read is
    /// read again first; a card gone meanwhile is left out; one whose files cannot be read now
    /// (in the middle of a merge) is given as it is. `nil` leaves the cards as they are.
    ///
    /// ```swift
    /// let cards = try collection.converted(collection.cards(named: ["d69c.vcf"]), to: .v4)
    /// ```
    ///
    /// - Throws: the errors of ``listing()``.
    func converted(
        _ cards: [String: (entry: CardDAVEntry, data: Data)], to version: VCardVersion?
    ) throws -> [String: (entry: CardDAVEntry, data: Data)] {
        guard let version else { return cards }
        var result = cards
        for (name, given) in cards where Self.version(of: given.data) != version.rawValue {
            var current: (entry: CardDAVEntry, data: Data)? = given
            result[name] = nil
            // A file written between reading the card and making it again changes its
            // signatures: the card is read again, a few times at most.
            for _ in 0..<3 {
                guard let entry = current?.entry else { break }
                // A person's card needs nothing of the state: it is made without holding the
                // lock, so that other requests are not kept waiting on its files.
                let outcome =
                    entry.record.kind == .person
                    ? maker.outcome(entry.record, version: version) { _ in nil }
                    : state.withLock { state in
                        maker.outcome(entry.record, version: version) { key in state.table.uid(ofPersonWithKey: key) }
                    }
                if case .made(let made) = outcome, let data = made.data, made.signatures == entry.signatures {
                    result[name] = (entry, data)
                    break
                }
                current = try card(named: name)
            }
            if result[name] == nil, let current { result[name] = current }
        }
        return result
    }

    /// The `VERSION` of a card: its second line in a card the server made; else the first
    /// `VERSION` line, in any case, ended by CRLF or LF alone (a card a client sent); `nil` when
    /// it has none.
    static func version(of data: Data) -> String? {
        let prefix = Array("BEGIN:VCARD\r\nVERSION:".utf8)
        if data.count > prefix.count, data.starts(with: prefix) {
            let rest = data.dropFirst(prefix.count).prefix(16)
            if let end = rest.firstIndex(of: 0x0D) { return String(decoding: rest[..<end], as: UTF8.self) }
        }
        let name = Array("version:".utf8)
        var start = data.startIndex
        while start < data.endIndex {
            let end = data[start...].firstIndex(of: 0x0A) ?? data.endIndex
            let line = data[start..<end]
            if line.count > name.count, zip(line, name).allSatisfy({ $0 | 0x20 == $1 }) {
                let value = line.dropFirst(name.count).filter { $0 != 0x0D && $0 != 0x20 && $0 != 0x09 }
                return String(decoding: value, as: UTF8.self)
            }
            start = end < data.endIndex ? data.index(after: end) : end
        }
        return nil
    }

    /// How many times bringing the collection up to date looked at every record file.
    var fullLooks: Int {
        state.withLock { $0.refresher.fullLooks }
    }

    /// The resource name of the card with a UID (``VCardRecordFields/matchKey(_:)`` form), as
    /// last brought up to date.
    func name(ofUID uid: String) -> String? {
        state.withLock { $0.table.name(ofUID: uid) }
    }

    /// The record key of the person with a UID, as last brought up to date.
    func personKey(ofUID uid: String) -> RecordKey? {
        state.withLock { $0.table.personKey(ofUID: uid) }
    }

    /// What the store's folder watch heard since the last call, for the writer's book (see
    /// ``CardDAVRefresher/newsForBook()``).
    func newsForBook() -> StoreFolderWatch.News {
        state.withLock { $0.refresher.newsForBook() }
    }

    // MARK: Writes

    /// What one write did to the store, as a ``CardDAVWriter`` tells it.
    struct Written {
        /// The record saved or removed.
        var record: CardDAVEntry.Record
        /// The card a client sent, to be kept as sent (see ``CardDAVSentCards``) when the record
        /// now says what it says; `nil` for a removal.
        var sent: CardDAVSentCard?

        /// A record saved from a card sent, or (`sent` `nil`) removed.
        init(record: CardDAVEntry.Record, sent: CardDAVSentCard? = nil) {
            self.record = record
            self.sent = sent
        }
    }

    /// Has a new record with a UID take `name` when its card is first made, until
    /// ``release(uid:)``: the name a client put the card under.
    func reserve(_ name: String, forUID uid: String) {
        state.withLock { $0.table.reserve(name, forUID: uid) }
    }

    /// Ends what ``reserve(_:forUID:)`` asked.
    func release(uid: String) {
        state.withLock { $0.table.release(uid: uid) }
    }

    /// Records a write just saved: a card sent is kept as sent when the record's files, read
    /// again, say what it says (``CardDAVSentCard/isKept(by:in:ownCard:)``); the record's card
    /// is then brought up to date and returned with the bytes a `GET` now serves (`nil` once
    /// removed; bytes `nil` when the record's files cannot be read now).
    ///
    /// - Throws: the errors of ``listing()``.
    func record(_ written: Written) throws -> (entry: CardDAVEntry, data: Data?)? {
        let record = written.record
        if let sent = written.sent { keep(sent, for: record) }
        return try state.withLock { state in
            var changes = CardDAVStateChanges()
            var uidChanged = false
            // The record's files are read just below, after what the watch heard of this
            // write: only a later write names it again.
            state.refresher.listen()
            state.refresher.forget(record)
            let data = state.table.update(record, maker: maker, changes: &changes, uidChanged: &uidChanged)
            try state.table.record(changes, by: &state.recorder)
            if uidChanged { try refreshAll(&state, regroup: true) }
            return state.table.entry(of: record).map { ($0, data) }
        }
    }

    /// Keeps a card as a client sent it for a record, when the record's files say what the
    /// card says; otherwise forgets any card kept for it before.
    private func keep(_ sent: CardDAVSentCard, for record: CardDAVEntry.Record) {
        let outcome = state.withLock { state in
            maker.outcome(record, ownCard: true) { key in state.table.uid(ofPersonWithKey: key) }
        }
        guard case .made(let own) = outcome, sent.isKept(by: record, in: maker.cards, ownCard: own) else {
            maker.sent.forget(record)
            return
        }
        do {
            try maker.sent.keep(sent.data, for: record, source: own.etag)
        } catch {
            log("the card sent for \(record.kind.rawValue) \(record.key.rawValue) is served as the store makes it: \(error)")
        }
    }

    // MARK: Bringing up to date

    /// Brings the listing up to date (see ``CardDAVRefresher/refresh(_:maker:regroup:changes:uidChanged:)``),
    /// has the cards it listed without making made in the background, and records the changes.
    private func refreshAll(_ state: inout State, regroup: Bool = false) throws {
        var changes = CardDAVStateChanges()
        var uidChanged = false
        let unmade = try state.refresher.refresh(
            &state.table, maker: maker, regroup: regroup, changes: &changes, uidChanged: &uidChanged)
        warmer.warm(unmade, for: self)
        try state.table.record(changes, by: &state.recorder)
    }
}

extension CardDAVCollection: CardDAVWarmedCards {
    func entriesWithoutCards(named names: [String]) -> [CardDAVEntry] {
        state.withLock { state in
            names.compactMap { name in
                state.table.cachedCard(named: name) == nil ? state.table.entry(named: name) : nil
            }
        }
    }

    func keepMade(_ made: [(entry: CardDAVEntry, outcome: CardDAVCardMaker.Outcome)]) -> Bool {
        state.withLock { state in
            for (entry, outcome) in made {
                guard case .made(let card) = outcome else { continue }
                guard state.table.keepMade(card, for: entry) else { return false }
            }
            return true
        }
    }
}
