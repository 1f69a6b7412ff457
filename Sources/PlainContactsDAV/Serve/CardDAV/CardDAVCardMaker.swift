#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts
import PlainContactsSystem

/// Makes a record's card from its files through the store's ``RecordCards``, without opening an
/// address book, and serves it: a person's card as `contacts sync` uploads it (vCard 3.0 unless the person
/// came from a 4.0 card) but without the record's file key, a group's in the form it came in;
/// or either in the vCard version a client asks for. For a listing, a person's UID and ETag
/// are taken without making the card (``listedPeople(_:)``).
///
/// While the record is as a client's `PUT` left it, its card is the one the client sent, byte
/// for byte, with that card's ETag (see ``CardDAVSentCards``); asked for in another vCard
/// version, the card is made from the record.
///
/// Each file's signature is taken before the file is read (``RecordCards/card(of:key:version:uidOfPerson:)``), so that a signature
/// recorded with a card never describes bytes newer than the card: a write that lands meanwhile changes the
/// signature again, and the next look makes the card anew. A file changed within
/// ``FileSignature/racyWindow`` of being read could change again in the same clock tick without
/// changing its signature (an editor writing in place, keeping the size): its signature is recorded as
/// ``racySignature``, which matches no file, so that the next look reads it again, as the
/// store's index does.
///
/// ```swift
/// let maker = CardDAVCardMaker(layout: layout, sent: CardDAVSentCards(layout: layout))
/// if let made = try maker.person(key) { print(made.uid, made.etag) }
/// ```
struct CardDAVCardMaker: Sendable {
    /// A card made from a record's files, or, for a listing, what names it without its bytes.
    struct Made: Sendable {
        /// The card's bytes; `nil` when only its UID and ETag were taken (see
        /// ``listedPeople(_:)``).
        var data: Data?
        /// The card's UID in ``VCardRecordFields/matchKey(_:)`` form.
        var uid: String
        /// The card's ETag, unquoted: the store's (``RecordCards/Served/etag``), or that of the
        /// card a client sent while it is kept.
        var etag: String
        /// The signatures of the files it was made from (see ``CardDAVEntry/signatures``).
        var signatures: [FileSignature?]
        /// The record file's modification time, in nanoseconds since 1970.
        var modified: Int64
    }

    /// What looking at a record's files gave.
    enum Outcome: Sendable {
        /// The card.
        case made(Made)
        /// The record has no file (any more).
        case missing
        /// The record's files cannot be read now (a file in the middle of a merge, with
        /// conflict markers): its card is left as it was.
        case unreadable
    }

    /// The signature recorded for a file changed within ``FileSignature/racyWindow`` of being read.
    static let racySignature = FileSignature(inode: 0, size: -1, modified: 0, changed: 0)

    /// The store's cards.
    let cards: RecordCards
    /// The cards clients sent, served in place of the store's while their records are unchanged.
    let sent: CardDAVSentCards

    /// A maker of the cards of the store at `layout`, serving those in `sent` while they are
    /// kept.
    init(layout: StoreLayout, sent: CardDAVSentCards) {
        cards = RecordCards(layout: layout)
        self.sent = sent
    }

    /// A signature as it may be recorded: itself, or ``racySignature`` when the file changed too
    /// recently.
    static func trusted(_ signature: FileSignature?) -> FileSignature? {
        guard let signature else { return nil }
        return signature.isSettled ? signature : racySignature
    }

    /// The current signatures of a record's files.
    func signatures(of record: CardDAVEntry.Record) -> [FileSignature?] {
        signatures(of: record.kind, keys: [record.key])[0]
    }

    /// The current signatures of the files of many records of one kind, on all cores for a
    /// large store (see ``RecordCards/signatures(of:keys:)``).
    func signatures(of kind: CardDAVEntry.Record.Kind, keys: [RecordKey]) -> [[FileSignature?]] {
        cards.signatures(of: Self.kind(kind), keys: keys)
    }

    /// The store's name for a kind of record.
    private static func kind(_ kind: CardDAVEntry.Record.Kind) -> RecordType {
        kind == .person ? .person : .group
    }

    /// A record's card in a vCard version (`nil` for the version its card came in), or what
    /// kept it from being made.
    ///
    /// - Parameter ownCard: `true` for the store's own card even where a client's sent card is
    ///   kept for the record (its ETag is the one a sent card is kept with).
    func outcome(
        _ record: CardDAVEntry.Record, version: VCardVersion? = nil, ownCard: Bool = false,
        uidOfPerson: (RecordKey) -> String?
    ) -> Outcome {
        Self.outcome {
            try record.kind == .person
                ? person(record.key, version: version, ownCard: ownCard)
                : group(record.key, uidOfPerson: uidOfPerson, version: version, ownCard: ownCard)
        }
    }

    /// The card a client sent for a record, when it is to be served in place of the store's
    /// card with ETag `source` in `version` (see ``CardDAVSentCards/card(for:source:reading:)``).
    private func sentCard(
        _ record: CardDAVEntry.Record, source: String, version: VCardVersion?, ownCard: Bool, reading: Bool = true
    ) -> CardDAVSentCards.Sent? {
        guard !ownCard, let card = sent.card(for: record, source: source, reading: reading) else { return nil }
        guard let version, version.rawValue != card.version else { return card }
        return nil
    }

    /// What making a card gave.
    private static func outcome(_ make: () throws -> Made?) -> Outcome {
        do {
            return try make().map(Outcome.made) ?? .missing
        } catch {
            return .unreadable
        }
    }

    /// A person's card in a vCard version (`nil`: the version of the card the person came
    /// from, see ``CardMapping/data(for:imageData:version:carryingKey:)``): the card a client
    /// sent while it is kept, else the store's (with `ownCard`, always the store's); `nil` when
    /// the person has no file.
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` and the other reading errors of the record
    ///   file or its image.
    func person(_ key: RecordKey, version: VCardVersion? = nil, ownCard: Bool = false) throws -> Made? {
        try cards.card(of: .person, key: key, version: version).map { made($0, key: key, version: version, ownCard: ownCard) }
    }

    /// The card of a person as the store serves it: for one only listed, its UID and ETag (the
    /// ETag of the card a client sent while it is kept) without the card's bytes; else as
    /// ``person(_:version:ownCard:)`` gives it.
    private func made(_ card: RecordCards.Served, key: RecordKey, version: VCardVersion?, ownCard: Bool) -> Made {
        let own = Self.made(card)
        let record = CardDAVEntry.Record(kind: .person, key: key)
        guard own.data != nil else {
            let sent = sentCard(record, source: own.etag, version: nil, ownCard: false, reading: false)
            return Made(data: nil, uid: own.uid, etag: sent?.etag ?? own.etag, signatures: own.signatures, modified: own.modified)
        }
        guard let sent = sentCard(record, source: own.etag, version: version, ownCard: ownCard) else { return own }
        return Made(data: sent.data, uid: own.uid, etag: sent.etag, signatures: own.signatures, modified: own.modified)
    }

    /// The store's card as made, its signatures as they may be recorded.
    private static func made(_ card: RecordCards.Served) -> Made {
        let modified = card.signatures.first.flatMap { $0 }?.modified ?? 0
        return Made(data: card.data, uid: card.uid, etag: card.etag, signatures: card.signatures.map(trusted), modified: modified)
    }

    /// What a listing needs of many people's cards, their UIDs and ETags, on all cores: a
    /// person's card is made only when its ETag needs its image (see
    /// ``RecordCards/listedCards(_:)``).
    func listedPeople(_ keys: [RecordKey]) -> [Outcome] {
        let cards = cards.listedCards(keys)
        return Parallel.map(keys.count, minimumChunk: 64) { index in
            Self.outcome { try cards[index].get().map { made($0, key: keys[index], version: nil, ownCard: false) } }
        }
    }

    /// How every person card's ETag begins (``RecordCards/personETagPrefix``): an entry whose
    /// ETag does not was recorded under another way of making cards.
    static let personETagPrefix = RecordCards.personETagPrefix

    /// A group's card; `nil` when the group has no file. The card a client sent for the group is
    /// given byte for byte while the group is as the client left it (``CardDAVSentCards``), else
    /// in the spelling the client used while it still says what the group says
    /// (``GroupCard/sentCard(in:)``); with `ownCard`, the store's card is given whatever a client
    /// sent.
    ///
    /// - Parameters:
    ///   - uidOfPerson: the UID of a member by record key, `nil` for a person the server does
    ///     not know (left out).
    ///   - version: the vCard version asked for (4.0: `KIND:group` and `MEMBER`; 3.0: Apple's
    ///     form); `nil` for the form the group's card came in.
    /// - Throws: ``ContactsError/Code/malformedFile`` and the other reading errors of the files.
    func group(
        _ key: RecordKey, uidOfPerson: (RecordKey) -> String?, version: VCardVersion? = nil, ownCard: Bool = false
    ) throws -> Made? {
        guard let card = try cards.card(of: .group, key: key, version: version, uidOfPerson: uidOfPerson) else { return nil }
        var made = Self.made(card)
        if version == nil, let sent = sentCard(.init(kind: .group, key: key), source: made.etag, version: nil, ownCard: ownCard) {
            made.data = sent.data
            made.etag = sent.etag
        }
        return made
    }

    /// The keys of the records of one kind, from the names of their files.
    ///
    /// - Throws: the errors of listing the folder (a missing folder has no records).
    func keys(of kind: CardDAVEntry.Record.Kind) throws -> [RecordKey] {
        try cards.keys(of: Self.kind(kind))
    }
}
