import FoundationEssentials
import Glibc
import PlainContactsSystem

/// The cards of a store's records, made from their files without opening an address book: what
/// a CardDAV server serves. A person's card is the one `contacts sync` uploads
/// (``CardMapping/data(for:imageData:version:carryingKey:)``) without the record's file key; a
/// group's is in the form it came in (``GroupCard``). Each record file is read once, and its
/// signature is taken before it is read, so that a signature never describes bytes newer than
/// the card made from them.
///
/// ```swift
/// let cards = RecordCards(layout: StoreLayout(root: storeURL))
/// for key in try cards.keys(of: .person) {
///     if let card = try cards.card(of: .person, key: key) { print(card.uid, card.etag) }
/// }
/// ```
package struct RecordCards: Sendable {
    /// A person's record file as read for its card.
    struct PersonFile: Sendable {
        /// The file's signature, taken before it was read.
        let signature: FileSignature
        /// The card's UID in ``VCardRecordFields/matchKey(_:)`` form: the UID the record stores,
        /// else the one derived from its key.
        let uid: String
        /// The fingerprint of the record file's bytes.
        let fingerprint: Fingerprint
        /// The fingerprint of the image's bytes; `nil` for a person without an image, and for a
        /// person only listed.
        let imageFingerprint: Fingerprint?
        /// What the card is made from; `nil` for a person only listed (see
        /// ``RecordCards/listedPeople(_:)``).
        let content: Content?

        /// The decoded record and its image.
        struct Content: Sendable {
            var key: RecordKey
            var id: RecordID
            var state: PersonState
            var image: Data?
        }

        /// Whether only the UID and the fingerprints were taken, without decoding the record.
        var isListed: Bool { content == nil }

        /// The person's card in a vCard version (`nil`: the version of the card the person
        /// came from), without the record's file key; `nil` for a person only listed.
        func card(version: VCardVersion?) -> Data? {
            guard let content else { return nil }
            let person = Person(state: content.state, key: content.key, recordID: content.id)
            return CardMapping.data(for: person, imageData: content.image, version: version, carryingKey: false)
        }

        /// Whether merging a card's person into the record, preferring the card, would leave
        /// its content as it is: the record says what the card says. `false` for a person only
        /// listed.
        func says(_ theirs: PersonState) -> Bool {
            guard let content else { return false }
            let stored = content.state
            let outcome = CardMerge.merge(
                base: stored, ours: stored, theirs: theirs, prefer: .remote, key: content.key, image: { content.image })
            return CardMerge.sameContent(outcome.merged, stored)
        }
    }

    /// A group's record and membership files as read for its card.
    struct GroupFile: Sendable {
        /// The signatures of the group file and of its membership file (`nil`: there is none),
        /// taken before they were read.
        let signatures: [FileSignature?]
        /// The group's record key.
        let key: RecordKey
        /// The group as read.
        let state: GroupState
        /// Its members' record keys.
        let members: Set<RecordKey>

        /// The group's card and its UID in ``VCardRecordFields/matchKey(_:)`` form: in the
        /// spelling its card came in while the group still says what that card says
        /// (``GroupCard/sentCard(in:)``), else in `version` (4.0: `KIND:group` and `MEMBER`;
        /// 3.0: Apple's form; `nil`: the form it came in).
        ///
        /// - Parameter uidOfPerson: the UID of a member by record key, `nil` for a person left
        ///   out.
        func card(uidOfPerson: (RecordKey) -> String?, version: VCardVersion?) -> (data: Data, uid: String) {
            var card = GroupCard(group: state, key: key, memberUIDs: members.compactMap(uidOfPerson))
            if let version { card.form = version == .v4 ? .rfc6350 : .apple }
            let served = card.sentCard(in: state) ?? card.card(memberValues: GroupCard.sentMemberValues(in: state))
            return (Data(VCardWriter.serialize(served).utf8), VCardRecordFields.matchKey(card.uid))
        }
    }

    /// The store.
    let layout: StoreLayout

    /// The cards of the store at `layout`.
    package init(layout: StoreLayout) {
        self.layout = layout
    }

    /// The folder holding the record files of a kind.
    private func folder(of kind: RecordType) -> String {
        (kind == .person ? layout.peopleFolder : layout.groupsFolder).path(percentEncoded: false)
    }

    /// The keys of the records of one kind, from the names of their files, in no particular
    /// order.
    ///
    /// - Throws: the errors of listing the folder (a missing folder has no records).
    package func keys(of kind: RecordType) throws -> [RecordKey] {
        guard let names = try StoreReader.entries(ofFolder: folder(of: kind)) else { return [] }
        var keys: [RecordKey] = []
        keys.reserveCapacity(names.count)
        for name in names where name.hasSuffix(".json") && !name.hasPrefix(".") {
            if let key = RecordKey(rawValue: String(name.dropLast(5))) { keys.append(key) }
        }
        return keys
    }

    /// The current signatures of the files of many records of one kind (a person's record
    /// file; a group's record and membership files), taken relative to their folder (a full
    /// path per file would cost more than the `stat` itself), on all cores for a large store.
    package func signatures(of kind: RecordType, keys: [RecordKey]) -> [[FileSignature?]] {
        let descriptor = open(folder(of: kind), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
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

    /// A person's record file and image, read and decoded; `nil` when the person has no file.
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` and the other reading errors of the record
    ///   file or its image.
    func person(_ key: RecordKey) throws -> PersonFile? {
        let signature = FileSignature.of(layout.personFile(key).path(percentEncoded: false))
        let reader = StoreReader(layout: layout)
        guard let signature, let file = try reader.readPerson(key: key) else { return nil }
        let state = file.decoded.state
        let image = try reader.imageData(state.image)
        return PersonFile(
            signature: signature, uid: CardMapping.matchKey(storedUID: VCardRecordFields.uid(of: state), key: key),
            fingerprint: file.fingerprint, imageFingerprint: image.map { Fingerprint($0) },
            content: .init(key: key, id: file.decoded.id, state: state, image: image))
    }

    /// What a listing needs of many people, their UIDs and fingerprints, on all cores: each
    /// record file is read through the open people folder but, when it is in the form the
    /// store writes, not decoded (``PersonRecordCoder/storedUID(inStoreWritten:)``). A person
    /// whose file may name an image is read whole (``person(_:)``), since a card's identity
    /// needs the image's bytes. `nil` for a person without a file; the error for one whose
    /// file cannot be read (all of them when the folder cannot be opened).
    ///
    /// A UID read so is the record's as long as the record can be read; when it cannot, reading
    /// the person whole fails.
    func listedPeople(_ keys: [RecordKey]) -> [Result<PersonFile?, any Error>] {
        let folderPath = layout.peopleFolder.path(percentEncoded: false)
        let folder = open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else {
            let code = errno
            if code == ENOENT { return keys.map { _ in .success(nil) } }
            let error = PosixError.error("cannot list the folder", path: folderPath, code: code, call: "open")
            return keys.map { _ in .failure(error) }
        }
        defer { close(folder) }
        return Parallel.map(keys.count, minimumChunk: 64) { index in
            Result { try listedPerson(keys[index], in: folder, folderPath: folderPath) }
        }
    }

    /// One person of ``listedPeople(_:)``, read through the open people folder `folder`.
    private func listedPerson(_ key: RecordKey, in folder: Int32, folderPath: String) throws -> PersonFile? {
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
        return PersonFile(
            signature: signature, uid: CardMapping.matchKey(storedUID: stored, key: key), fingerprint: Fingerprint(bytes),
            imageFingerprint: nil, content: nil)
    }

    /// A group's record and membership files, read; `nil` when the group has no record file.
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` and the other reading errors of the files.
    func group(_ key: RecordKey) throws -> GroupFile? {
        let paths = [layout.groupFile(key), layout.membersFile(key)].map { $0.path(percentEncoded: false) }
        let signatures = paths.map(FileSignature.of)
        guard signatures[0] != nil, let file = try StoreReader(layout: layout).readGroup(key: key) else { return nil }
        return GroupFile(signatures: signatures, key: key, state: file.state, members: file.members)
    }
}
