#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import PlainContacts
import PlainContactsSystem

/// Makes a record's card from its files, without opening an address book: a person's card as
/// `contacts sync` uploads it (``CardMapping/data(for:imageData:version:carryingKey:)``, vCard
/// 3.0 unless the person came from a 4.0 card) but without the record's file key, a group's in
/// the form it came in (``GroupCard``); or either in the vCard version a client asks for. For
/// a listing, a person's UID and ETag are taken without making the card
/// (``listedPerson(_:in:folderPath:)``).
///
/// While the record is as a client's `PUT` left it, its card is the one the client sent, byte
/// for byte, with that card's ETag (see ``CardDAVSentCards``); asked for in another vCard
/// version, the card is made from the record.
///
/// Each file's signature is taken before the file is read, so that a signature recorded with a
/// card never describes bytes newer than the card: a write that lands meanwhile changes the
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
        /// ``listedPerson(_:in:folderPath:)``).
        var data: Data?
        /// The card's UID in ``VCardRecordFields/matchKey(_:)`` form.
        var uid: String
        /// The card's ETag, unquoted: for a person, made from the record file's bytes, the
        /// image's and ``CardMapping/personCardVersion`` (see ``personETag(record:image:)``); for a
        /// group, whose card also shows its members' UIDs, the first 16 bytes of the SHA-256
        /// digest of the card's bytes, in hexadecimal.
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

    /// The store.
    let layout: StoreLayout
    /// The cards clients sent, served in place of the store's while their records are unchanged.
    let sent: CardDAVSentCards

    /// A signature as it may be recorded: itself, or ``racySignature`` when the file changed too
    /// recently.
    static func trusted(_ signature: FileSignature?) -> FileSignature? {
        guard let signature else { return nil }
        return signature.isSettled ? signature : racySignature
    }

    /// The path of a person's record file.
    func personPath(_ key: RecordKey) -> String {
        layout.personFile(key).path(percentEncoded: false)
    }

    /// The paths of a group's record and membership files.
    func groupPaths(_ key: RecordKey) -> [String] {
        [
            layout.groupFile(key).path(percentEncoded: false),
            layout.membersFile(key).path(percentEncoded: false),
        ]
    }

    /// The current signatures of a record's files.
    func signatures(of record: CardDAVEntry.Record) -> [FileSignature?] {
        signatures(of: record.kind, keys: [record.key])[0]
    }

    /// The current signatures of the files of many records of one kind, taken relative to
    /// their folder (a full path per file would cost more than the `stat` itself), on all
    /// cores for a large store.
    func signatures(of kind: CardDAVEntry.Record.Kind, keys: [RecordKey]) -> [[FileSignature?]] {
        let folder = (kind == .person ? layout.peopleFolder : layout.groupsFolder).path(percentEncoded: false)
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return keys.map { _ in kind == .person ? [nil] : [nil, nil] } }
        defer { close(descriptor) }
        return Parallel.map(keys.count, minimumChunk: 4096) { index in
            let key = keys[index].rawValue
            switch kind {
            case .person:
                return [FileSignature.of(key + ".json", in: descriptor)]
            case .group:
                return [FileSignature.of(key + ".json", in: descriptor), FileSignature.of(key + ".members", in: descriptor)]
            }
        }
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
        let signature = FileSignature.of(personPath(key))
        let reader = StoreReader(layout: layout)
        guard let signature, let file = try reader.readPerson(key: key) else { return nil }
        let uid = CardMapping.matchKey(storedUID: VCardRecordFields.uid(of: file.decoded.state), key: key)
        let image = try reader.imageData(file.decoded.state.image)
        let etag = Self.personETag(record: file.fingerprint, image: image)
        let record = CardDAVEntry.Record(kind: .person, key: key)
        if let card = sentCard(record, source: etag, version: version, ownCard: ownCard) {
            return Made(
                data: card.data, uid: uid, etag: card.etag, signatures: [Self.trusted(signature)], modified: signature.modified)
        }
        let person = Person(state: file.decoded.state, key: key, recordID: file.decoded.id)
        let data = CardMapping.data(for: person, imageData: image, version: version, carryingKey: false)
        return Made(data: data, uid: uid, etag: etag, signatures: [Self.trusted(signature)], modified: signature.modified)
    }

    /// What a listing needs of a person's card, its UID and ETag, without making the card: the
    /// record file is read (through the people folder, open as `folder`) but, when it is in the
    /// form the store writes, not decoded (``PersonRecordCoder/storedUID(inStoreWritten:)``). A
    /// person with an image has the card made (``person(_:version:)``), since its ETag needs
    /// the image's bytes. `nil` when the person has no file.
    ///
    /// A UID read so is the record's as long as the record can be read; when it cannot, the
    /// card is left out once a client asks for it, as a record in the middle of a merge is.
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` and the other reading errors of the record
    ///   file.
    func listedPerson(_ key: RecordKey, in folder: Int32, folderPath: String) throws -> Made? {
        let name = key.rawValue + ".json"
        guard let (signature, bytes) = try StoreReader.readFile(named: name, in: folder, folderPath: folderPath) else {
            return nil
        }
        if PersonRecordCoder.mayNameImage(inStoreWritten: bytes) { return try person(key) }
        let stored: String?
        switch PersonRecordCoder.storedUID(inStoreWritten: bytes) {
        case .uid(let uid): stored = uid
        case .none: stored = nil
        case .undecided: stored = VCardRecordFields.uid(of: try PersonRecordCoder.decode(bytes, path: folderPath + "/" + name).state)
        }
        var etag = Self.personETag(record: Fingerprint(bytes), image: nil)
        if let card = sentCard(.init(kind: .person, key: key), source: etag, version: nil, ownCard: false, reading: false) {
            etag = card.etag
        }
        return Made(
            data: nil, uid: CardMapping.matchKey(storedUID: stored, key: key), etag: etag,
            signatures: [Self.trusted(signature)], modified: signature.modified)
    }

    /// What a listing needs of many people's cards (see ``listedPerson(_:in:folderPath:)``), on
    /// all cores.
    func listedPeople(_ keys: [RecordKey]) -> [Outcome] {
        let folderPath = layout.peopleFolder.path(percentEncoded: false)
        let folder = open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else {
            let missing = errno == ENOENT
            return keys.map { _ in missing ? .missing : .unreadable }
        }
        defer { close(folder) }
        return Parallel.map(keys.count, minimumChunk: 64) { index in
            Self.outcome { try listedPerson(keys[index], in: folder, folderPath: folderPath) }
        }
    }

    /// A person card's ETag: ``CardMapping/personCardVersion`` and the fingerprints of the
    /// record file's bytes and of the image's, in hexadecimal. It changes whenever the card can:
    /// the card is made from the record file, the image and the mapping alone.
    static func personETag(record: Fingerprint, image: Data?) -> String {
        var etag = personETagPrefix + hex(record.value)
        if let image { etag += "-" + hex(Fingerprint(image).value) }
        return etag
    }

    /// How every person card's ETag of this ``CardMapping/personCardVersion`` begins.
    static let personETagPrefix = "p\(CardMapping.personCardVersion)-"

    /// Sixteen hexadecimal digits.
    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

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
        let signatures = groupPaths(key).map(FileSignature.of)
        guard let signature = signatures[0], let file = try StoreReader(layout: layout).readGroup(key: key) else {
            return nil
        }
        var card = GroupCard(group: file.state, key: key, memberUIDs: file.members.compactMap(uidOfPerson))
        if let version { card.form = version == .v4 ? .rfc6350 : .apple }
        let served = card.sentCard(in: file.state) ?? card.card(memberValues: GroupCard.sentMemberValues(in: file.state))
        let data = Data(VCardWriter.serialize(served).utf8)
        let etag = SHA256.hexString(SHA256.hash(data).prefix(16))
        var made = Made(
            data: data, uid: VCardRecordFields.matchKey(card.uid), etag: etag, signatures: signatures.map(Self.trusted),
            modified: signature.modified)
        if version == nil, let sent = sentCard(.init(kind: .group, key: key), source: etag, version: nil, ownCard: ownCard) {
            made.data = sent.data
            made.etag = sent.etag
        }
        return made
    }

    /// The keys of the records of one kind, from the names of their files.
    ///
    /// - Throws: the errors of listing the folder (a missing folder has no records).
    func keys(of kind: CardDAVEntry.Record.Kind) throws -> [RecordKey] {
        let folder = kind == .person ? layout.peopleFolder : layout.groupsFolder
        guard let names = try StoreReader.entries(ofFolder: folder.path(percentEncoded: false)) else { return [] }
        var keys: [RecordKey] = []
        keys.reserveCapacity(names.count)
        for name in names where name.hasSuffix(".json") && !name.hasPrefix(".") {
            if let key = RecordKey(rawValue: String(name.dropLast(5))) { keys.append(key) }
        }
        return keys
    }
}
