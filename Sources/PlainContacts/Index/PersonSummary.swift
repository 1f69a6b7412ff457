import FoundationEssentials
import PlainContactsSystem

/// What the hot paths need to know about a person without reading its file: the record ID,
/// the names (with their search words and sort keys), the first phone and email, the vCard
/// UID, and every email address with its label. Kept in the index, one per person file.
///
/// A summary is a view over its bytes in the index: only the key is decoded up front, every
/// other field when asked for, so that searching 100,000 people compares bytes instead of
/// building strings. The layout is that of ``init(key:signature:decoded:)``: fixed fields
/// first, then the strings, with the offsets of the lists that search and sorting read.
struct PersonSummary: Sendable, Hashable {
    let key: RecordKey
    /// The bytes holding the entry (shared with the whole index), and where the entry's body
    /// (without its length prefix) lies in them.
    private let storage: IndexBytes
    private let range: Range<Int>

    /// The string fields after the flags, in order.
    private enum Text: Int, CaseIterable {
        case prefix, firstName, middleName, lastName, suffix, nickname
        case firstNamePhonetic, middleNamePhonetic, lastNamePhonetic, organization
        case firstPhone, firstEmail, uid
    }

    /// How many string fields ``Text`` names (13): readers skip them all to reach the lists.
    static let textCount = Text.allCases.count

    /// The orderings whose sort keys an entry stores, in the order they are written.
    static let sortKeyOrderings: [SortOrdering] = [.lastName, .firstName]

    /// Where the fixed fields lie in an entry's body (see ``SummaryBytes/Layout``).
    private typealias Layout = SummaryBytes.Layout

    init(key: RecordKey, storage: IndexBytes, range: Range<Int>) {
        self.key = key
        self.storage = storage
        self.range = range
    }

    /// A summary whose body lies at `range` in a copy of `bytes`.
    init(key: RecordKey, storage bytes: [UInt8], range: Range<Int>) {
        self.init(key: key, storage: IndexBytes(copying: bytes), range: range)
    }

    /// A summary of a decoded person file.
    init(key: RecordKey, signature: FileSignature, decoded: PersonRecordCoder.Decoded) {
        let state = decoded.state
        let parts = state.nameParts
        var firstPhone: String?
        var firstEmail: String?
        var uid: String?
        var emails: [MultiValue<String>.Entry] = []
        if case .multiString(let phones)? = state.values[.phones] { firstPhone = phones.first?.value }
        if case .multiString(let values)? = state.values[.emails] {
            firstEmail = values.first?.value
            emails = values.entries
        }
        if case .string(let text)? = state.unknownFields["uid"] { uid = text }
        var body = IndexWriter()
        body.int32(decoded.id.rawValue)
        body.signature(signature)
        body.int64(state.creationDate.map { Int64($0.timeIntervalSince1970.rounded(.down)) } ?? .min)
        body.uint32(0)
        body.uint32(0)
        body.uint32(0)
        body.string(key.rawValue)
        body.string(state.nameHash.rawValue)
        body.byte(parts.isOrganization ? 1 : 0)
        for text in [
            parts.prefix, parts.firstName, parts.middleName, parts.lastName, parts.suffix, parts.nickname,
            parts.firstNamePhonetic, parts.middleNamePhonetic, parts.lastNamePhonetic, parts.organization,
            firstPhone, firstEmail, uid,
        ] {
            body.string(text)
        }
        body.strings(state.mergedKeys)
        let searchWords = body.bytes.count
        body.strings(NameSearch.searchWords(parts))
        let sortKeys = body.bytes.count
        for ordering in Self.sortKeyOrderings {
            let sortKey = SortKey(parts, ordering: ordering)
            body.byte(sortKey.hasName ? 1 : 0)
            body.string(sortKey.primary)
            body.string(sortKey.secondary)
        }
        let emailsOffset = body.bytes.count
        body.uint32(UInt32(emails.count))
        for email in emails {
            body.string(email.label?.rawValue)
            body.string(email.value)
        }
        var bytes = body.bytes
        IndexWriter.store(UInt32(searchWords), at: Layout.searchWords, in: &bytes)
        IndexWriter.store(UInt32(sortKeys), at: Layout.sortKeys, in: &bytes)
        IndexWriter.store(UInt32(emailsOffset), at: Layout.emails, in: &bytes)
        self.init(key: key, storage: bytes, range: 0..<bytes.count)
    }

    /// Writes the entry: its byte length, then the body.
    func encode(into writer: inout IndexWriter) {
        withBytes { bytes in
            writer.uint32(UInt32(bytes.body.count))
            writer.append(UnsafeRawBufferPointer(rebasing: bytes.buffer[bytes.body]))
        }
    }

    /// Decodes the entry at the reader's position into bytes of its own, and moves past it.
    ///
    /// - Throws: ``IndexReader/Damaged`` as ``decode(body:sharing:)`` does.
    static func decode(_ reader: inout IndexReader) throws -> PersonSummary {
        let length = Int(try reader.uint32())
        let start = reader.offset
        try reader.skip(length)
        return try decode(body: 0..<length, sharing: IndexBytes(copying: reader.bytes[start..<(start + length)]))
    }

    /// Decodes the entry whose body lies at `body` in `bytes`, sharing them.
    ///
    /// The whole layout is checked here, so that the fields read later, on demand, can never
    /// meet a short or misplaced value: a summary that would read as defaults (no name, no
    /// search words) is refused as damaged instead, and the index with it.
    ///
    /// - Throws: ``IndexReader/Damaged`` for a summary whose fields are misplaced or whose key
    ///   is not a valid ``RecordKey``.
    static func decode(body: Range<Int>, sharing bytes: IndexBytes) throws -> PersonSummary {
        let summary = SummaryBytes(buffer: bytes.buffer, body: body)
        guard summary.hasValidLayout, let keyBytes = summary.key,
            let key = RecordKey(rawValue: String(decoding: keyBytes, as: UTF8.self))
        else { throw IndexReader.Damaged() }
        return PersonSummary(key: key, storage: bytes, range: body)
    }

    /// Calls `body` with the summary's bytes, read in place.
    func withBytes<T>(_ body: (SummaryBytes) throws -> T) rethrows -> T {
        try withExtendedLifetime(storage) { try body(SummaryBytes(buffer: storage.buffer, body: range)) }
    }

    // MARK: Fields

    /// The record ID written in the file.
    var id: RecordID { withBytes { $0.id } }

    /// The signature of the person's file when the summary was made.
    var signature: FileSignature {
        withBytes { $0.signature } ?? FileSignature(inode: 0, size: -1, modified: 0, changed: 0)
    }

    /// The creation date in whole seconds, which settles duplicate IDs.
    var created: Int64? { withBytes { $0.created } }

    var nameHash: NameHash? { withBytes { $0.nameHash } }

    var parts: NameParts { withBytes { $0.parts } }

    var firstPhone: String? { withBytes { $0.text(Text.firstPhone.rawValue) } }
    var firstEmail: String? { withBytes { $0.text(Text.firstEmail.rawValue) } }
    var uid: String? { withBytes { $0.text(Text.uid.rawValue) } }

    var mergedKeys: [String] { withBytes { $0.mergedKeys } }

    var searchWords: [String] { withBytes { $0.searchWords } }

    /// Whether every query word begins one of the search words, comparing bytes in place
    /// (the same rule as ``NameSearch/matches(queryWords:searchWords:)``).
    func matches(queryWords: [[UInt8]]) -> Bool {
        withBytes { $0.matches(queryWords: queryWords) }
    }

    /// How each query word meets the search words, comparing bytes in place (the same rule
    /// as ``EmailSearch/wordMatches(_:searchWords:)``), written into `matches`.
    func wordMatches(_ query: EmailSearch.Query, into matches: inout [EmailSearch.WordMatch]) {
        withBytes { $0.wordMatches(query, into: &matches) }
    }

    func sortKey(_ ordering: SortOrdering) -> SortKey {
        withBytes { $0.sortKey(ordering) }
    }

    /// How many email addresses the person has, read without decoding them.
    var emailCount: Int {
        withBytes { $0.emailCount }
    }

    /// Every email address with its label (the stored word or custom text), in the person's
    /// order.
    var emails: [(label: String?, address: String)] {
        withBytes { $0.emails }
    }

    /// Calls `body` with the place and the UTF-8 bytes of each email address in turn, read in
    /// place, so that a query can skip the addresses it does not keep without building them.
    func forEachEmailAddress(_ body: (_ position: Int, _ address: UnsafeBufferPointer<UInt8>) -> Void) {
        withBytes { $0.forEachEmailAddress(body) }
    }

    var lastNameKey: SortKey { sortKey(.lastName) }
    var firstNameKey: SortKey { sortKey(.firstName) }

    static func == (lhs: PersonSummary, rhs: PersonSummary) -> Bool {
        lhs.withBytes { left in
            rhs.withBytes { right in
                left.body.count == right.body.count
                    && UnsafeRawBufferPointer(rebasing: left.buffer[left.body])
                        .elementsEqual(UnsafeRawBufferPointer(rebasing: right.buffer[right.body]))
            }
        }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(range.count)
    }
}
