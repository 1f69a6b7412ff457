#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Synchronization
import PlainContacts

/// The address book as the server sees it: every record of the store as a card with a resource
/// name, an ETag and the change number at which it last changed, kept in memory and brought up to
/// date cheaply before each answer.
///
/// Bringing it up to date reads again the files the store's ``StoreFolderWatch`` says changed
/// since the last time (other than those the server itself just wrote and read back), and makes
/// their cards again. The first time, and whenever the watch cannot tell (its queue overflowed,
/// a folder was replaced) or where the system gives no inotify, it lists the people and groups
/// folders instead and compares every file's signature (inode, size, times) with the one
/// recorded when its card was made, and says so in the log. A card whose bytes changed,
/// a new record and a removed record each take the next change number. So changes made by the
/// server, by the CLI, by a `git pull` or by an editor are all seen, and the sync token of the
/// collection is simply its latest change number (see ``CardDAVSyncToken``).
///
/// After a bulk change (an import, a pull of thousands of records) a listing takes only what
/// it needs of each person's card, its UID and ETag, from the record file
/// (``CardDAVCardMaker/listedPerson(_:in:folderPath:)``); the cards themselves are then made in
/// the background, or when a client asks for them first.
///
/// A record keeps its resource name for its whole life: a new record takes the name a client
/// put it under, else its UID's (``CardMapping/fileName(forUID:)``), else one derived from its
/// key; names and change numbers are recorded in ``CardDAVStateFile`` so that they survive
/// restarts.
///
/// Safe to use from many threads: the state is behind a mutex, and writes to the store are
/// serialized by ``write(name:uid:_:)``.
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

    /// How many people must have changed together for their cards not to be made at once
    /// (see ``CardDAVCardMaker/listedPerson(_:in:folderPath:)``).
    static let bulkChange = 256

    /// How many bytes of cards are kept in memory: a ten-thousand-card book without photos
    /// takes a few megabytes; photos beyond this are read from their files when asked for.
    static let cardCacheLimit = 64 << 20

    /// What the mutex guards.
    private struct State {
        /// What is recorded in the state file.
        var file: CardDAVStateFile
        /// The latest change number.
        var sequence: UInt64
        /// The resource name of each record.
        var names: [CardDAVEntry.Record: String] = [:]
        /// The resource name of the card with each UID (the first, when two share one).
        var uids: [String: String] = [:]
        /// Names that writes in progress put new cards under, by the card's UID.
        var pending: [String: String] = [:]
        /// Cards' bytes by resource name, as far as ``cardCacheLimit`` allows.
        var cards: [String: Data] = [:]
        /// The bytes in ``cards``.
        var cachedBytes = 0
        /// Set when the state file failed to take a change: it is rewritten whole next time.
        var fileIsBehind = false
        /// What tells which files changed; `nil` where the system gives no inotify.
        var watch: StoreFolderWatch?
        /// Whether every file was looked at since the watch started: only then is the watch's
        /// news all there is to look at.
        var lookedAtEverything = false
        /// How many times every file was looked at.
        var fullLooks = 0
        /// Records the watch named that are still to be looked at.
        var heard = Heard()
        /// Names of cards a bulk change listed without making, still to be made in the
        /// background (see ``warmUp()``).
        var unmade: [String] = []
        /// Whether the background making runs.
        var warming = false
    }

    /// What the watch told that is still to be looked at.
    private struct Heard {
        var people = Set<RecordKey>()
        var groups = Set<RecordKey>()
        /// Why every file must be looked at, when the names are not enough.
        var everything: StoreFolderWatch.Reason?
    }

    /// What a change adds to the state file: lines of removals, and the cards whose line is
    /// written as they are when the change is recorded (after the other lines, so that a card
    /// removed and made again in one change ends as made), unless the whole file is rewritten.
    private struct Changes {
        /// The lines other than cards', one after another.
        var lines: [UInt8] = []
        /// How many lines in ``lines``.
        var lineCount = 0
        /// The names of the cards that changed.
        var cards: [String] = []
        /// Set when the whole file must be written (removals were forgotten).
        var forcesRewrite = false

        /// How many lines the change adds.
        var count: Int { lineCount + cards.count }

        /// Adds a line.
        mutating func add(_ line: [UInt8]) {
            lines += line
            lineCount += 1
        }

        /// Adds the line of a card.
        mutating func add(card name: String) {
            cards.append(name)
        }
    }

    /// Makes cards from the store's files.
    let maker: CardDAVCardMaker
    /// The state file.
    private let stateURL: URL
    /// The cards and what belongs with them.
    private let state: Mutex<State>
    /// Serializes the server's writes to the store.
    private let writer = Mutex<Void>(())
    /// How many removals are remembered for sync tokens.
    let maximumRemovals: Int
    /// Where the collection says why it looks at every file.
    private let log: @Sendable (String) -> Void
    /// Whether cards a bulk change listed without making are made in the background.
    private let warmsUp: Bool

    /// The address book of a store, with what the state file recorded. The store's folders are
    /// watched from now on (see ``StoreFolderWatch``).
    init(
        layout: StoreLayout, maximumRemovals: Int = CardDAVCollection.defaultMaximumRemovals, warmsUp: Bool = true,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.maximumRemovals = maximumRemovals
        self.warmsUp = warmsUp
        self.log = log
        maker = CardDAVCardMaker(layout: layout, sent: CardDAVSentCards(layout: layout))
        stateURL = CardDAVStateFile.url(in: layout)
        let file = CardDAVStateFile.load(from: stateURL)
        var initial = State(file: file, sequence: file.sequence)
        initial.watch = StoreFolderWatch(layout: layout)
        if initial.watch == nil {
            log("no inotify watch on \(layout.root.path(percentEncoded: false)): every listing looks at every record file")
        }
        for (name, entry) in file.entries {
            initial.names[entry.record] = name
            if initial.uids[entry.uid] == nil { initial.uids[entry.uid] = name }
            if entry.record.kind == .person, !entry.etag.hasPrefix(CardDAVCardMaker.personETagPrefix) {
                // Its ETag was made by an earlier card mapping: the card is looked at again.
                initial.file.entries[name]?.signatures = []
            }
        }
        state = Mutex(initial)
    }

    // MARK: Reading

    /// Every card, brought up to date with the store.
    ///
    /// - Throws: the errors of listing the store's folders; ``ContactsError/Code/io`` when the
    ///   state file cannot be written.
    func listing() throws -> Listing {
        try state.withLock { state in
            try refreshAll(&state)
            return Listing(
                entries: state.file.entries, removed: state.file.removed,
                token: CardDAVSyncToken(instance: state.file.instance, sequence: state.sequence), floor: state.file.floor)
        }
    }

    /// The collection's token, after bringing it up to date.
    ///
    /// - Throws: the errors of ``listing()``.
    func token() throws -> CardDAVSyncToken {
        try state.withLock { state in
            try refreshAll(&state)
            return CardDAVSyncToken(instance: state.file.instance, sequence: state.sequence)
        }
    }

    /// Cards by resource name, with their bytes, each brought up to date with its files; names
    /// of no card are left out.
    ///
    /// - Throws: the errors of ``listing()``.
    func cards(named names: some Sequence<String>) throws -> [String: (entry: CardDAVEntry, data: Data)] {
        let wanted = Array(Set(names))
        return try state.withLock { state in
            if wanted.contains(where: { state.file.entries[$0] == nil }) { try refreshAll(&state) }
            // The files of the cards asked for are compared with their signatures all at once.
            var known: [CardDAVEntry] = []
            known.reserveCapacity(wanted.count)
            for name in wanted { if let entry = state.file.entries[name] { known.append(entry) } }
            var current: [CardDAVEntry.Record: [FileSignature?]] = [:]
            for kind in [CardDAVEntry.Record.Kind.person, .group] {
                let keys = known.filter { $0.record.kind == kind }.map(\.record.key)
                for (key, signatures) in zip(keys, maker.signatures(of: kind, keys: keys)) {
                    current[CardDAVEntry.Record(kind: kind, key: key)] = signatures
                }
            }
            var found: [String: (entry: CardDAVEntry, data: Data)] = [:]
            var changes = Changes()
            var uidChanged = false
            var stale: [CardDAVEntry] = []
            for entry in known {
                if let data = state.cards[entry.name], current[entry.record] == entry.signatures {
                    found[entry.name] = (entry, data)
                } else {
                    stale.append(entry)
                }
            }
            // People's cards are made on all cores (a client fetching a bulk change asks for
            // hundreds at a time); a group's needs its members' UIDs, kept in the state.
            let people = stale.filter { $0.record.kind == .person }.map(\.record)
            let maker = self.maker
            let made = Parallel.map(people.count, minimumChunk: 16) { index in maker.outcome(people[index]) { _ in nil } }
            var outcomes = zip(people, made).map { ($0, $1) }
            for entry in stale where entry.record.kind == .group {
                let outcome = maker.outcome(entry.record) { key in
                    state.names[.init(kind: .person, key: key)].flatMap { state.file.entries[$0]?.uid }
                }
                outcomes.append((entry.record, outcome))
            }
            for (record, outcome) in outcomes {
                if let data = apply(outcome, to: record, in: &state, changes: &changes, uidChanged: &uidChanged),
                    let updated = state.names[record].flatMap({ state.file.entries[$0] })
                {
                    found[updated.name] = (updated, data)
                }
            }
            try persist(changes, in: &state)
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
                        maker.outcome(entry.record, version: version) { key in
                            state.names[.init(kind: .person, key: key)].flatMap { state.file.entries[$0]?.uid }
                        }
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
        state.withLock { $0.fullLooks }
    }

    /// The resource name of the card with a UID (``VCardRecordFields/matchKey(_:)`` form), as
    /// last brought up to date.
    func name(ofUID uid: String) -> String? {
        state.withLock { $0.uids[uid] }
    }

    /// The record key of the person with a UID, as last brought up to date.
    func personKey(ofUID uid: String) -> RecordKey? {
        state.withLock { state in
            guard let name = state.uids[uid], let entry = state.file.entries[name], entry.record.kind == .person else {
                return nil
            }
            return entry.record.key
        }
    }

    // MARK: Writing

    /// What one write did to the store.
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

    /// Runs one write of the store for the card at `name`, serialized with the server's other
    /// writes: `body` is given the card as it is now (`nil` when there is none) and returns
    /// what it saved or removed (`nil` when it changed nothing). A new record that a UID `uid`
    /// names takes `name`. A card sent is kept as sent when the record's files, read again,
    /// say what it says (``CardDAVSentCard/isKept(by:)``). The card is then brought up to date
    /// and returned with the bytes a `GET` now serves (`nil` once removed; bytes `nil` when the
    /// record's files cannot be read now).
    ///
    /// - Throws: what `body` throws (the collection is then left as the store is), and the
    ///   errors of ``listing()``.
    func write(
        name: String, uid: String?, _ body: (CardDAVEntry?) throws -> Written?
    ) throws -> (entry: CardDAVEntry, data: Data?)? {
        try writer.withLock { _ in
            let current = try card(named: name)
            if let uid { state.withLock { $0.pending[uid] = name } }
            defer {
                if let uid { state.withLock { _ = $0.pending.removeValue(forKey: uid) } }
            }
            guard let written = try body(current?.entry) else { return current.map { ($0.entry, $0.data) } }
            let record = written.record
            if let sent = written.sent { keep(sent, for: record) }
            return try state.withLock { state in
                var changes = Changes()
                var uidChanged = false
                // The record's files are read just below, after what the watch heard of this
                // write: only a later write names it again.
                listen(&state)
                switch record.kind {
                case .person: state.heard.people.remove(record.key)
                case .group: state.heard.groups.remove(record.key)
                }
                let data = update(record, in: &state, changes: &changes, uidChanged: &uidChanged)
                try persist(changes, in: &state)
                if uidChanged { try refreshAll(&state, regroup: true) }
                return state.names[record].flatMap { state.file.entries[$0] }.map { ($0, data) }
            }
        }
    }

    /// Keeps a card as a client sent it for a record, when the record's files say what the
    /// card says; otherwise forgets any card kept for it before.
    private func keep(_ sent: CardDAVSentCard, for record: CardDAVEntry.Record) {
        let outcome = state.withLock { state in
            maker.outcome(record, ownCard: true) { key in
                state.names[.init(kind: .person, key: key)].flatMap { state.file.entries[$0]?.uid }
            }
        }
        guard case .made(let own) = outcome, sent.isKept(by: record, layout: maker.layout, ownCard: own) else {
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

    /// Makes again the cards of the records the watch named since the last time, or, when it
    /// cannot tell, of every record whose files' signatures differ from those recorded; with
    /// `regroup`, every group card is made again (a member's UID changed).
    private func refreshAll(_ state: inout State, regroup: Bool = false) throws {
        var changes = Changes()
        var uidChanged = false
        var changed: (people: Set<RecordKey>, groups: Set<RecordKey>)?
        listen(&state)
        if state.lookedAtEverything {
            if let reason = state.heard.everything {
                log("looking at every record file: \(reason.rawValue)")
            } else {
                changed = (state.heard.people, state.heard.groups)
            }
        }
        state.heard = Heard()
        if state.watch?.isBroken == true {
            state.watch = nil
            log("the store's change queue stopped: every listing now looks at every record file")
        }
        if changed == nil {
            state.lookedAtEverything = state.watch != nil
            state.fullLooks += 1
        }
        let people = try staleRecords(.person, in: &state, changes: &changes, among: changed?.people)
        // The people's cards are looked at on all cores. After a bulk change (an import, a
        // pull) only what the listing needs of each is taken, its UID and ETag; their cards are
        // made when asked for.
        let maker = self.maker
        let made: [CardDAVCardMaker.Outcome]
        if people.count >= Self.bulkChange {
            made = maker.listedPeople(people)
        } else {
            made = Parallel.map(people.count, minimumChunk: 64) { index in
                maker.outcome(.init(kind: .person, key: people[index])) { _ in nil }
            }
        }
        if people.count >= Self.bulkChange {
            state.file.entries.reserveCapacity(state.file.entries.count + people.count)
            state.names.reserveCapacity(state.names.count + people.count)
            state.uids.reserveCapacity(state.uids.count + people.count)
        }
        for (key, outcome) in zip(people, made) {
            let record = CardDAVEntry.Record(kind: .person, key: key)
            if apply(outcome, to: record, in: &state, changes: &changes, uidChanged: &uidChanged) == nil,
                case .made = outcome, let name = state.names[record]
            {
                state.unmade.append(name)
            }
        }
        if !state.unmade.isEmpty, !state.warming, warmsUp {
            state.warming = true
            // A moment later, so as not to slow the answer of the listing that started it.
            DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + Self.warmUpDelay) { [weak self] in
                self?.warmUp()
            }
        }
        let groups = try staleRecords(
            .group, in: &state, changes: &changes, among: regroup || uidChanged ? nil : changed?.groups, all: regroup || uidChanged)
        for key in groups {
            _ = update(.init(kind: .group, key: key), in: &state, changes: &changes, uidChanged: &uidChanged)
        }
        try persist(changes, in: &state)
    }

    /// Makes, in the background, on one core and a batch at a time, the cards a bulk change
    /// listed without making, so that clients fetching them (hundreds per multiget) find them made. A card
    /// made is kept only while its entry still names the same files and ETag; the state lock
    /// is taken once per batch, so requests are not kept waiting.
    private func warmUp() {
        let maker = self.maker
        while true {
            let batch: [CardDAVEntry] = state.withLock { state in
                var batch: [CardDAVEntry] = []
                while batch.count < Self.warmUpBatch, let name = state.unmade.popLast() {
                    if let entry = state.file.entries[name], state.cards[name] == nil { batch.append(entry) }
                }
                if batch.isEmpty { state.warming = false }
                return batch
            }
            if batch.isEmpty { return }
            // On one core: the other is left to the requests (the listing that started this
            // is still writing its answer).
            let made = batch.map { entry in maker.outcome(entry.record) { _ in nil } }
            state.withLock { state in
                for (entry, outcome) in zip(batch, made) {
                    guard case .made(let card) = outcome, let data = card.data, let current = state.file.entries[entry.name],
                        current.record == entry.record, current.etag == card.etag, current.signatures == card.signatures,
                        state.cards[entry.name] == nil
                    else { continue }
                    // The length is known in memory; the state file learns it with the card's
                    // next change.
                    state.file.entries[entry.name]?.length = data.count
                    cache(data, as: entry.name, in: &state)
                    if state.cards[entry.name] == nil {
                        // The cache is full: the rest are made when asked for.
                        state.unmade.removeAll()
                        break
                    }
                }
            }
        }
    }

    /// How long after a bulk listing the background making starts.
    static let warmUpDelay: DispatchTimeInterval = .seconds(1)

    /// How many cards the background making makes between two takings of the state lock.
    static let warmUpBatch = 256

    /// Adds what the watch heard since it was last asked to what is still to be looked at.
    private func listen(_ state: inout State) {
        switch state.watch?.news() {
        case .records(let people, let groups)?:
            state.heard.people.formUnion(people)
            state.heard.groups.formUnion(groups)
        case .everything(let reason)?:
            state.heard.everything = state.heard.everything ?? reason
        case nil:
            break
        }
    }

    /// The keys of the records of one kind whose files changed since their cards were made (or
    /// all of them): every one of `among` when given (a file the watch named is read again
    /// whatever its signature, which a write in the clock tick of the last read can leave as it
    /// was), else those of every file whose signature differs; records whose files are gone are
    /// removed on the way.
    private func staleRecords(
        _ kind: CardDAVEntry.Record.Kind, in state: inout State, changes: inout Changes, among: Set<RecordKey>? = nil,
        all: Bool = false
    ) throws -> [RecordKey] {
        // A named record whose file is gone is removed when its card is made (it is missing).
        if let among { return among.sorted { $0.rawValue < $1.rawValue } }
        let keys = try maker.keys(of: kind)
        let signatures = all ? [] : maker.signatures(of: kind, keys: keys)
        var stale: [RecordKey] = []
        // Records named and still there are counted: when every named record of this kind is,
        // none is gone, and the names need not be looked at again.
        var named = 0
        for (index, key) in keys.enumerated() {
            let record = CardDAVEntry.Record(kind: kind, key: key)
            guard let name = state.names[record] else {
                if !all { stale.append(key) }
                continue
            }
            named += 1
            // By index: a lookup of the entry's value would copy it whole.
            guard !all, let position = state.file.entries.index(forKey: name),
                state.file.entries.values[position].signatures == signatures[index]
            else {
                if !all { stale.append(key) }
                continue
            }
        }
        if named < state.names.keys.count(where: { $0.kind == kind }) {
            let present = Set(keys)
            for (record, _) in state.names where record.kind == kind && !present.contains(record.key) {
                remove(record, in: &state, changes: &changes)
            }
        }
        return all ? keys : stale
    }

    /// Makes a record's card again and records it; gives its bytes, `nil` when the record is
    /// gone or cannot be read.
    private func update(
        _ record: CardDAVEntry.Record, in state: inout State, changes: inout Changes, uidChanged: inout Bool
    ) -> Data? {
        let outcome = maker.outcome(record) { key in
            state.names[.init(kind: .person, key: key)].flatMap { state.file.entries[$0]?.uid }
        }
        return apply(outcome, to: record, in: &state, changes: &changes, uidChanged: &uidChanged)
    }

    /// Records a card just made: a new card takes a name and the next change number, a card
    /// whose bytes changed takes the next change number, a card whose files changed without
    /// changing it only takes their new signatures. A record that is gone is removed; one that
    /// cannot be read is left as it was (a file in the middle of a merge).
    @discardableResult
    private func apply(
        _ outcome: CardDAVCardMaker.Outcome, to record: CardDAVEntry.Record, in state: inout State,
        changes: inout Changes, uidChanged: inout Bool
    ) -> Data? {
        let made: CardDAVCardMaker.Made
        switch outcome {
        case .unreadable:
            return nil
        case .missing:
            remove(record, in: &state, changes: &changes)
            return nil
        case .made(let card):
            made = card
        }
        let etag = made.etag
        var entry: CardDAVEntry
        var sameCard = false
        if let name = state.names[record], let old = state.file.entries[name] {
            entry = old
            if old.uid != made.uid {
                if record.kind == .person { uidChanged = true }
                if state.uids[old.uid] == name { state.uids[old.uid] = nil }
            }
            if old.etag != etag {
                state.sequence += 1
                entry.sequence = state.sequence
            } else {
                sameCard = true
            }
        } else {
            state.sequence += 1
            let name = newName(for: record, uid: made.uid, in: state)
            entry = CardDAVEntry(
                record: record, name: name, uid: made.uid, etag: etag, length: CardDAVEntry.unknownLength, modified: 0,
                signatures: [], sequence: state.sequence)
            state.names[record] = name
            if state.file.removed.removeValue(forKey: name) != nil { changes.add(CardDAVStateFile.line(forgotten: name)) }
        }
        entry.uid = made.uid
        entry.etag = etag
        if let data = made.data {
            entry.length = data.count
        } else if !sameCard {
            entry.length = CardDAVEntry.unknownLength
        }
        entry.modified = made.modified
        entry.signatures = made.signatures
        if entry != state.file.entries[entry.name] {
            state.file.entries[entry.name] = entry
            changes.add(card: entry.name)
        }
        if state.uids[made.uid] == nil { state.uids[made.uid] = entry.name }
        if let data = made.data {
            cache(data, as: entry.name, in: &state)
        } else if !sameCard, let old = state.cards.removeValue(forKey: entry.name) {
            // The bytes kept are those of the card before: it is made again when asked for.
            state.cachedBytes -= old.count
        }
        return made.data
    }

    /// Removes a record's card: its name is remembered as removed, with the next change number.
    private func remove(_ record: CardDAVEntry.Record, in state: inout State, changes: inout Changes) {
        maker.sent.forget(record)
        guard let name = state.names.removeValue(forKey: record) else { return }
        if let entry = state.file.entries.removeValue(forKey: name), state.uids[entry.uid] == name {
            state.uids[entry.uid] = nil
        }
        if let data = state.cards.removeValue(forKey: name) { state.cachedBytes -= data.count }
        state.sequence += 1
        state.file.removed[name] = state.sequence
        changes.add(CardDAVStateFile.line(removed: name, sequence: state.sequence))
        if state.file.removed.count > maximumRemovals {
            let oldest = state.file.removed.sorted { $0.value < $1.value }.prefix(state.file.removed.count - maximumRemovals)
            for (forgotten, sequence) in oldest {
                state.file.removed[forgotten] = nil
                state.file.floor = max(state.file.floor, sequence)
            }
            changes.forcesRewrite = true
        }
    }

    /// The name of a new record's card: the one a write put it under, else its UID's, else one
    /// derived from its key.
    private func newName(for record: CardDAVEntry.Record, uid: String, in state: State) -> String {
        if let pending = state.pending[uid], state.file.entries[pending] == nil { return pending }
        let preferred = CardMapping.fileName(forUID: uid)
        if state.file.entries[preferred] == nil { return preferred }
        let digest = SHA256.hexString(SHA256.hash("\(record.kind.rawValue)/\(record.key.rawValue)".utf8).prefix(16))
        var candidate = digest + ".vcf"
        var counter = 1
        while state.file.entries[candidate] != nil {
            counter += 1
            candidate = "\(digest)-\(counter).vcf"
        }
        return candidate
    }

    /// Keeps a card's bytes in memory while the cache has room.
    private func cache(_ data: Data, as name: String, in state: inout State) {
        if let old = state.cards.removeValue(forKey: name) { state.cachedBytes -= old.count }
        guard state.cachedBytes + data.count <= Self.cardCacheLimit else { return }
        state.cards[name] = data
        state.cachedBytes += data.count
    }

    /// Records changes in the state file. When that fails, the next change rewrites it whole,
    /// and the error is thrown: no token is given for a state the file does not hold.
    private func persist(_ changes: Changes, in state: inout State) throws {
        guard changes.count > 0 || changes.forcesRewrite || state.fileIsBehind else { return }
        do {
            if changes.forcesRewrite || state.fileIsBehind { state.file.lineCount = 0 }
            let file = state.file
            try state.file.save(lineCount: changes.count, to: stateURL) {
                var lines = changes.lines
                for name in changes.cards {
                    if let entry = file.entries[name] { CardDAVStateFile.appendLine(for: entry, to: &lines) }
                }
                return lines
            }
            state.fileIsBehind = false
        } catch {
            state.fileIsBehind = true
            throw error
        }
    }
}
