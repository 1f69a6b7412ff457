#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts
import PlainContactsSystem

/// The listing of the address book: every card's entry (its record, resource name, UID, ETag,
/// the signatures of its files and the change number at which it last changed), the names of
/// the cards removed, and the bytes of as many cards as ``cardCacheLimit`` allows.
///
/// The table only records what it is told: a card just made takes a name and a change number
/// (``apply(_:to:changes:uidChanged:)``), a record gone is removed with the next change number
/// (``remove(_:changes:)``), and each change is noted in a ``CardDAVStateChanges`` for the state
/// file. Which records to look at is the ``CardDAVRefresher``'s business; keeping the table behind
/// a lock is the ``CardDAVCollection``'s.
///
/// A record keeps its resource name for its whole life: a new record takes the name a write put
/// it under (``reserve(_:forUID:)``), else its UID's (``CardMapping/fileName(forUID:)``), else one
/// derived from its key.
///
/// ```swift
/// var table = CardDAVEntryTable(file: CardDAVStateFile.load(from: url), maximumRemovals: 20_000, sent: sent)
/// var changes = CardDAVStateChanges()
/// var uidChanged = false
/// let data = table.update(record, maker: maker, changes: &changes, uidChanged: &uidChanged)
/// ```
struct CardDAVEntryTable {
    /// How many bytes of cards are kept in memory: a ten-thousand-card book without photos
    /// takes a few megabytes; photos beyond this are read from their files when asked for.
    static let cardCacheLimit = 64 << 20

    /// What is recorded in the state file: the entries, the removals and the floor of the
    /// tokens still answered.
    private(set) var file: CardDAVStateFile
    /// The latest change number.
    private(set) var sequence: UInt64
    /// The resource name of each record.
    private(set) var names: [CardDAVEntry.Record: String] = [:]
    /// The resource name of the card with each UID (the first, when two share one).
    private var uids: [String: String] = [:]
    /// Names that writes in progress put new cards under, by the card's UID.
    private var pending: [String: String] = [:]
    /// Cards' bytes by resource name, as far as ``cardCacheLimit`` allows.
    private var cards: [String: Data] = [:]
    /// The bytes in ``cards``.
    private var cachedBytes = 0
    /// How many removals are remembered for sync tokens.
    let maximumRemovals: Int
    /// The cards clients sent, forgotten with their records.
    private let sent: CardDAVSentCards
    /// The records whose cards changed, were added or removed since the table was made, each
    /// with its change number, oldest first, as far back as ``recentLimit`` allows: what a list
    /// kept elsewhere (the web pages') needs to catch up without listing everything again.
    private var recent: [(sequence: UInt64, record: CardDAVEntry.Record)] = []
    /// The change number from which ``recent`` names every change.
    private var recentFloor: UInt64

    /// How many changes ``recent`` keeps at least: a list behind by more is made again.
    static let recentLimit = 4096

    /// The table of what the state file recorded. The cards of people whose ETags an earlier
    /// card mapping made are looked at again (their signatures are forgotten).
    init(file: CardDAVStateFile, maximumRemovals: Int, sent: CardDAVSentCards) {
        self.file = file
        sequence = file.sequence
        recentFloor = file.sequence
        self.maximumRemovals = maximumRemovals
        self.sent = sent
        for (name, entry) in file.entries {
            names[entry.record] = name
            if uids[entry.uid] == nil { uids[entry.uid] = name }
            if entry.record.kind == .person, !entry.etag.hasPrefix(CardDAVCardMaker.personETagPrefix) {
                // Its ETag was made by an earlier card mapping: the card is looked at again.
                self.file.entries[name]?.signatures = []
            }
        }
    }

    // MARK: Reading

    /// The token that names the table's state.
    var token: CardDAVSyncToken {
        CardDAVSyncToken(instance: file.instance, sequence: sequence)
    }

    /// The records whose cards changed, were added or were removed after the change number
    /// `since`, oldest first (a record may be named more than once); `nil` when the table no
    /// longer knows them all (too many changes since, or removals forgotten since).
    ///
    /// For a change number from before the table was made (what a list kept by the server
    /// that ran before holds), the records are those whose cards carry a later change number,
    /// then those changed since the table was made, and `complete` is `false`: the records
    /// removed before the table was made cannot be named, and the caller must look for them.
    func records(changedSince since: UInt64) -> (records: [CardDAVEntry.Record], complete: Bool)? {
        guard since <= sequence else { return nil }
        if since >= recentFloor {
            let first = recent.lastIndex { $0.sequence <= since }.map { $0 + 1 } ?? recent.startIndex
            return (recent[first...].map(\.record), true)
        }
        guard since >= file.floor else { return nil }
        var records = file.entries.values.filter { $0.sequence > since && $0.sequence <= recentFloor }.map(\.record)
        records += recent.map(\.record)
        return (records, false)
    }

    /// The keys of every person's card.
    var personKeys: Set<RecordKey> {
        Set(names.keys.lazy.filter { $0.kind == .person }.map(\.key))
    }

    /// The entry of a card by resource name.
    func entry(named name: String) -> CardDAVEntry? {
        file.entries[name]
    }

    /// The entry of a record's card.
    func entry(of record: CardDAVEntry.Record) -> CardDAVEntry? {
        names[record].flatMap { file.entries[$0] }
    }

    /// The bytes of a card kept in memory.
    func cachedCard(named name: String) -> Data? {
        cards[name]
    }

    /// Whether the signatures recorded for a record's card are `signatures`, looked up without
    /// copying the entry (a listing asks this of every card).
    func hasSignatures(_ signatures: [FileSignature?], name: String) -> Bool {
        guard let position = file.entries.index(forKey: name) else { return false }
        return file.entries.values[position].signatures == signatures
    }

    /// The resource name of the card with a UID (``VCardRecordFields/matchKey(_:)`` form).
    func name(ofUID uid: String) -> String? {
        uids[uid]
    }

    /// The UID of a person's card: what a group's card names its members by.
    func uid(ofPersonWithKey key: RecordKey) -> String? {
        entry(of: CardDAVEntry.Record(kind: .person, key: key))?.uid
    }

    /// The record key of the person with a UID.
    func personKey(ofUID uid: String) -> RecordKey? {
        guard let name = uids[uid], let entry = file.entries[name], entry.record.kind == .person else { return nil }
        return entry.record.key
    }

    // MARK: Changing

    /// Has a new record with a UID take `name` when its card is first made, while a write
    /// makes it.
    mutating func reserve(_ name: String, forUID uid: String) {
        pending[uid] = name
    }

    /// Ends what ``reserve(_:forUID:)`` asked.
    mutating func release(uid: String) {
        pending[uid] = nil
    }

    /// Makes room for `count` more records (a bulk change is about to be listed).
    mutating func reserveCapacity(adding count: Int) {
        file.entries.reserveCapacity(file.entries.count + count)
        names.reserveCapacity(names.count + count)
        uids.reserveCapacity(uids.count + count)
    }

    /// Makes a record's card again and records it; gives its bytes, `nil` when the record is
    /// gone or cannot be read.
    mutating func update(
        _ record: CardDAVEntry.Record, maker: CardDAVCardMaker, changes: inout CardDAVStateChanges, uidChanged: inout Bool
    ) -> Data? {
        let outcome = maker.outcome(record) { key in uid(ofPersonWithKey: key) }
        return apply(outcome, to: record, changes: &changes, uidChanged: &uidChanged)
    }

    /// Records a card just made: a new card takes a name and the next change number, a card
    /// whose bytes changed takes the next change number, a card whose files changed without
    /// changing it only takes their new signatures. A record that is gone is removed; one that
    /// cannot be read is left as it was (a file in the middle of a merge). Gives the card's
    /// bytes when they were made. `uidChanged` is set when a person's UID changed (the group
    /// cards naming it must be made again).
    @discardableResult
    mutating func apply(
        _ outcome: CardDAVCardMaker.Outcome, to record: CardDAVEntry.Record, changes: inout CardDAVStateChanges,
        uidChanged: inout Bool
    ) -> Data? {
        let made: CardDAVCardMaker.Made
        switch outcome {
        case .unreadable:
            return nil
        case .missing:
            remove(record, changes: &changes)
            return nil
        case .made(let card):
            made = card
        }
        let etag = made.etag
        var entry: CardDAVEntry
        var sameCard = false
        if let name = names[record], let old = file.entries[name] {
            entry = old
            if old.uid != made.uid {
                if record.kind == .person { uidChanged = true }
                if uids[old.uid] == name { uids[old.uid] = nil }
            }
            if old.etag != etag {
                sequence += 1
                entry.sequence = sequence
                noteRecent(record)
            } else {
                sameCard = true
            }
        } else {
            sequence += 1
            noteRecent(record)
            let name = newName(for: record, uid: made.uid)
            entry = CardDAVEntry(
                record: record, name: name, uid: made.uid, etag: etag, length: CardDAVEntry.unknownLength, modified: 0,
                signatures: [], sequence: sequence)
            names[record] = name
            if file.removed.removeValue(forKey: name) != nil { changes.add(CardDAVStateFile.line(forgotten: name)) }
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
        if entry != file.entries[entry.name] {
            file.entries[entry.name] = entry
            changes.add(card: entry.name)
        }
        if uids[made.uid] == nil { uids[made.uid] = entry.name }
        if let data = made.data {
            cache(data, as: entry.name)
        } else if !sameCard, let old = cards.removeValue(forKey: entry.name) {
            // The bytes kept are those of the card before: it is made again when asked for.
            cachedBytes -= old.count
        }
        return made.data
    }

    /// Removes a record's card, and the card a client sent for it: its name is remembered as
    /// removed, with the next change number. Past ``maximumRemovals`` the oldest removals are
    /// forgotten, and the tokens before them are no longer answered.
    mutating func remove(_ record: CardDAVEntry.Record, changes: inout CardDAVStateChanges) {
        sent.forget(record)
        guard let name = names.removeValue(forKey: record) else { return }
        if let entry = file.entries.removeValue(forKey: name), uids[entry.uid] == name {
            uids[entry.uid] = nil
        }
        if let data = cards.removeValue(forKey: name) { cachedBytes -= data.count }
        sequence += 1
        noteRecent(record)
        file.removed[name] = sequence
        changes.add(CardDAVStateFile.line(removed: name, sequence: sequence))
        if file.removed.count > maximumRemovals {
            let oldest = file.removed.sorted { $0.value < $1.value }.prefix(file.removed.count - maximumRemovals)
            for (forgotten, sequence) in oldest {
                file.removed[forgotten] = nil
                file.floor = max(file.floor, sequence)
            }
            changes.forcesRewrite = true
        }
    }

    /// Keeps the bytes of a card made in the background, when its entry still names the files
    /// and ETag they were made from and no bytes are kept for it yet; the length is known in
    /// memory, and the state file learns it with the card's next change. Gives `false` when the
    /// cache is full.
    mutating func keepMade(_ made: CardDAVCardMaker.Made, for entry: CardDAVEntry) -> Bool {
        guard let data = made.data, let current = file.entries[entry.name], current.record == entry.record,
            current.etag == made.etag, current.signatures == made.signatures, cards[entry.name] == nil
        else { return true }
        file.entries[entry.name]?.length = data.count
        cache(data, as: entry.name)
        return cards[entry.name] != nil
    }

    /// Records changes in the state file, through `recorder`.
    ///
    /// - Throws: the errors of ``CardDAVStateRecorder/record(_:in:)``.
    mutating func record(_ changes: CardDAVStateChanges, by recorder: inout CardDAVStateRecorder) throws {
        try recorder.record(changes, in: &file)
    }

    /// The name of a new record's card: the one a write put it under, else its UID's, else one
    /// derived from its key.
    private func newName(for record: CardDAVEntry.Record, uid: String) -> String {
        if let pending = pending[uid], file.entries[pending] == nil { return pending }
        let preferred = CardMapping.fileName(forUID: uid)
        if file.entries[preferred] == nil { return preferred }
        let digest = SHA256.hexString(SHA256.hash("\(record.kind.rawValue)/\(record.key.rawValue)".utf8).prefix(16))
        var candidate = digest + ".vcf"
        var counter = 1
        while file.entries[candidate] != nil {
            counter += 1
            candidate = "\(digest)-\(counter).vcf"
        }
        return candidate
    }

    /// Notes in ``recent`` that `record` changed at the current change number, forgetting the
    /// oldest changes past twice ``recentLimit``.
    private mutating func noteRecent(_ record: CardDAVEntry.Record) {
        recent.append((sequence, record))
        if recent.count > 2 * Self.recentLimit {
            let dropped = recent.count - Self.recentLimit
            recentFloor = recent[dropped - 1].sequence
            recent.removeFirst(dropped)
        }
    }

    /// Keeps a card's bytes in memory while the cache has room.
    private mutating func cache(_ data: Data, as name: String) {
        if let old = cards.removeValue(forKey: name) { cachedBytes -= old.count }
        guard cachedBytes + data.count <= Self.cardCacheLimit else { return }
        cards[name] = data
        cachedBytes += data.count
    }
}
