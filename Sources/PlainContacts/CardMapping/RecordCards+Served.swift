import FoundationEssentials
import PlainContactsSystem

/// A record's card as a server serves it: its bytes, its UID, its ETag and the signatures of
/// the files it was made from, in one answer, so that a server never puts a card's identity
/// together from the store's pieces.
extension RecordCards {
    /// A record's card as served, or, for a listing, what names it without its bytes.
    ///
    /// ```swift
    /// if let card = try cards.card(of: .person, key: key) { print(card.uid, card.etag) }
    /// ```
    package struct Served: Sendable, Hashable {
        /// The card's bytes; `nil` when only its UID and ETag were taken (see
        /// ``listedCards(_:)``).
        package var data: Data?
        /// The card's UID in ``VCardRecordFields/matchKey(_:)`` form.
        package var uid: String
        /// The card's ETag, unquoted: for a person, made from the record file's bytes, the
        /// image's and ``CardMapping/personCardVersion`` (see ``personETagPrefix``); for a
        /// group, whose card also shows its members' UIDs, the first 16 bytes of the SHA-256
        /// digest of the card's bytes, in hexadecimal.
        package var etag: String
        /// The signatures of the files it was made from, taken before they were read: a
        /// person's record file; a group's record file and its membership file (`nil`: there
        /// is none). The first is never `nil`.
        package var signatures: [FileSignature?]
    }

    /// How every person card's ETag begins: it names ``CardMapping/personCardVersion``, so
    /// that a new way of making cards gives every person card a new ETag.
    package static let personETagPrefix = "p\(CardMapping.personCardVersion)-"

    /// A record's card in a vCard version (`nil`: the version, or for a group the form, its
    /// card came in), made from its files; `nil` when the record has no file. A person's card
    /// is the one `contacts sync` uploads without the record's file key; a group's names its
    /// members by the UIDs `uidOfPerson` gives (`nil`: a person left out), in the spelling
    /// its card came in while the group still says what that card says.
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` and the other reading errors of the
    ///   record's files or a person's image.
    package func card(
        of kind: RecordType, key: RecordKey, version: VCardVersion? = nil, uidOfPerson: (RecordKey) -> String? = { _ in nil }
    ) throws -> Served? {
        switch kind {
        case .person:
            return try person(key).map { Self.served($0, version: version) }
        case .group:
            guard let file = try group(key) else { return nil }
            let (data, uid) = file.card(uidOfPerson: uidOfPerson, version: version)
            return Served(
                data: data, uid: uid, etag: SHA256.hexString(SHA256.hash(data).prefix(16)), signatures: file.signatures)
        }
    }

    /// What a listing needs of many people's cards, their UIDs and ETags, on all cores,
    /// without their bytes: a person's card is made only when its ETag needs its image (see
    /// ``listedPeople(_:)``). `nil` for a person without a file; the error for one whose file
    /// cannot be read.
    package func listedCards(_ keys: [RecordKey]) -> [Result<Served?, any Error>] {
        listedPeople(keys).map { result in result.map { $0.map { Self.served($0, version: nil) } } }
    }

    /// Whether the person whose file has `key` says what a card's person says: merging the
    /// card into the record, preferring the card, would leave its content as it is. `false`
    /// when the person has no file or it cannot be read.
    package func person(_ key: RecordKey, says card: PersonState) -> Bool {
        guard let file = try? person(key) else { return false }
        return file.says(card)
    }

    /// A person's file as served: its card in `version` unless it was only listed.
    private static func served(_ file: PersonFile, version: VCardVersion?) -> Served {
        Served(
            data: file.isListed ? nil : file.card(version: version) ?? Data(), uid: file.uid,
            etag: personETag(record: file.fingerprint, image: file.imageFingerprint), signatures: [file.signature])
    }

    /// A person card's ETag: ``personETagPrefix`` and the fingerprints of the record file's
    /// bytes and of the image's, in hexadecimal. It changes whenever the card can: the card is
    /// made from the record file, the image and the mapping alone.
    static func personETag(record: Fingerprint, image: Fingerprint?) -> String {
        var etag = personETagPrefix + hex(record.value)
        if let image { etag += "-" + hex(image.value) }
        return etag
    }

    /// Sixteen hexadecimal digits.
    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
