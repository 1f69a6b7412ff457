import PlainContacts
import PlainContactsSystem

/// One card of the address book as the server knows it: which record it shows, under which
/// resource name, its ETag, and when it last changed in the collection's sequence of changes.
///
/// ```swift
/// let entry = CardDAVEntry(record: .init(kind: .person, key: key), name: "d69c.vcf", uid: "d69c",
///                          etag: "3f2a…", length: 412, modified: 0, signatures: [signature], sequence: 7)
/// entry.quotedETag   // "\"3f2a…\""
/// ```
struct CardDAVEntry: Sendable, Hashable {
    /// A record of the store: a person or a group, by its file key.
    struct Record: Sendable, Hashable {
        /// Whether the record is a person or a group.
        enum Kind: String, Sendable, Hashable {
            case person, group
        }

        /// The record's kind.
        var kind: Kind
        /// The record's file key, fixed for the record's life.
        var key: RecordKey
    }

    /// The record the card shows.
    var record: Record
    /// The card's resource name, decoded (`d69c71e5-….vcf`): fixed while the record exists.
    var name: String
    /// The card's UID in ``VCardRecordFields/matchKey(_:)`` form.
    var uid: String
    /// The card's ETag without quotes (see ``CardDAVCardMaker/Made/etag``).
    var etag: String
    /// The card's length in bytes; ``unknownLength`` until the card is made (a listing names
    /// a card without making it).
    var length: Int
    /// When the record's file was last modified, in nanoseconds since 1970.
    var modified: Int64
    /// The signatures of the files the card was made from when it was made: the person file;
    /// or the group file and its membership file (`nil` for a file that does not exist).
    var signatures: [FileSignature?]
    /// The collection's change number at which the card last changed.
    var sequence: UInt64

    /// The ``length`` of a card not made yet.
    static let unknownLength = -1

    /// The ETag as a header and `getetag` give it: a strong ETag, quoted.
    var quotedETag: String { "\"" + etag + "\"" }
}
