import FoundationEssentials

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
    private let storage: [UInt8]
    private let range: Range<Int>

    /// The entry's body.
    var body: ArraySlice<UInt8> { storage[range] }

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

    init(key: RecordKey, storage: [UInt8], range: Range<Int>) {
        self.key = key
        self.storage = storage
        self.range = range
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
        writer.uint32(UInt32(body.count))
        writer.append(body)
    }

    /// Decodes the entry at the reader's position and moves past it.
    ///
    /// The whole layout is checked here, so that the fields read later, on demand, can never
    /// meet a short or misplaced value: a summary that would read as defaults (no name, no
    /// search words) is refused as damaged instead, and the index with it.
    static func decode(_ reader: inout IndexReader, sharing bytes: [UInt8]) throws -> PersonSummary {
        let length = Int(try reader.uint32())
        let start = reader.offset
        try reader.skip(length)
        return try decode(body: start..<(start + length), sharing: bytes)
    }

    /// Decodes the entry whose body lies at `body` in `bytes`, checking its whole layout as
    /// ``decode(_:sharing:)`` does.
    static func decode(body: Range<Int>, sharing bytes: [UInt8]) throws -> PersonSummary {
        let key = bytes.withUnsafeBytes { buffer -> RecordKey? in
            let summary = SummaryBytes(buffer: buffer, body: body)
            guard summary.hasValidLayout, let key = summary.key else { return nil }
            return RecordKey(rawValue: String(decoding: key, as: UTF8.self))
        }
        guard let key else { throw IndexReader.Damaged() }
        return PersonSummary(key: key, storage: bytes, range: body)
    }

    /// Calls `body` with the summary's bytes, read in place.
    func withBytes<T>(_ body: (SummaryBytes) throws -> T) rethrows -> T {
        try storage.withUnsafeBytes { buffer in try body(SummaryBytes(buffer: buffer, body: range)) }
    }

    // MARK: Fields

    // The readers below fall back to defaults only as a bounds guard: ``decode(_:sharing:)``
    // has checked the whole layout, and ``init(key:signature:decoded:)`` wrote it, so no field
    // of a summary can be short or misplaced.

    /// A reader at a position of the body.
    private func reader(at position: Int) -> IndexReader {
        IndexReader(storage, offset: range.lowerBound + position)
    }

    /// The 32-bit field at a position of the body (0 past the end).
    private func uint32(at position: Int) -> UInt32 {
        var reader = reader(at: position)
        return (try? reader.uint32()) ?? 0
    }

    /// A reader placed after the key (at the name hash).
    private func afterKey() -> IndexReader {
        var reader = reader(at: Layout.key)
        skipString(&reader)
        return reader
    }

    /// A reader placed at the first text field.
    private func atTexts() -> IndexReader {
        var reader = afterKey()
        skipString(&reader)
        try? reader.skip(1)
        return reader
    }

    private func text(_ field: Text) -> String? {
        var reader = atTexts()
        for _ in 0..<field.rawValue { skipString(&reader) }
        return (try? reader.string()) ?? nil
    }

    private func skipString(_ reader: inout IndexReader) {
        guard let length = try? reader.uint32(), length != .max else { return }
        try? reader.skip(Int(length))
    }

    /// A reader placed at the merged keys.
    private func atLists() -> IndexReader {
        var reader = atTexts()
        for _ in 0..<Self.textCount { skipString(&reader) }
        return reader
    }

    /// The record ID written in the file.
    var id: RecordID {
        var reader = reader(at: Layout.id)
        return RecordID((try? reader.int32()) ?? RecordID.invalid.rawValue)
    }

    /// The signature of the person's file when the summary was made.
    var signature: FileSignature {
        var reader = reader(at: Layout.signature)
        return (try? reader.signature()) ?? FileSignature(inode: 0, size: -1, modified: 0, changed: 0)
    }

    /// The creation date in whole seconds, which settles duplicate IDs.
    var created: Int64? {
        var reader = reader(at: Layout.created)
        guard let value = try? reader.int64(), value != .min else { return nil }
        return value
    }

    var nameHash: NameHash? {
        var reader = afterKey()
        return ((try? reader.string()) ?? nil).flatMap(NameHash.init)
    }

    var parts: NameParts {
        var reader = afterKey()
        skipString(&reader)
        var parts = NameParts()
        parts.isOrganization = (try? reader.byte()) == 1
        func next() -> String? { (try? reader.string()) ?? nil }
        parts.prefix = next()
        parts.firstName = next()
        parts.middleName = next()
        parts.lastName = next()
        parts.suffix = next()
        parts.nickname = next()
        parts.firstNamePhonetic = next()
        parts.middleNamePhonetic = next()
        parts.lastNamePhonetic = next()
        parts.organization = next()
        return parts
    }

    var firstPhone: String? { text(.firstPhone) }
    var firstEmail: String? { text(.firstEmail) }
    var uid: String? { text(.uid) }

    var mergedKeys: [String] {
        var reader = atLists()
        return (try? reader.strings()) ?? []
    }

    var searchWords: [String] {
        var reader = reader(at: Int(uint32(at: Layout.searchWords)))
        return (try? reader.strings()) ?? []
    }

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
        var reader = reader(at: Int(uint32(at: Layout.sortKeys)))
        // Skip the keys stored before this ordering's: a flag and two strings each.
        for _ in 0..<(Self.sortKeyOrderings.firstIndex(of: ordering) ?? 0) {
            try? reader.skip(1)
            skipString(&reader)
            skipString(&reader)
        }
        let hasName = (try? reader.byte()) == 1
        let primary = ((try? reader.string()) ?? nil) ?? ""
        let secondary = ((try? reader.string()) ?? nil) ?? ""
        return SortKey(storedHasName: hasName, primary: primary, secondary: secondary)
    }

    /// How many email addresses the person has, read without decoding them.
    var emailCount: Int {
        withBytes(\.emailCount)
    }

    /// Every email address with its label (the stored word or custom text), in the person's
    /// order.
    var emails: [(label: String?, address: String)] {
        var reader = reader(at: Int(uint32(at: Layout.emails)))
        let count = (try? reader.uint32()) ?? 0
        var emails: [(label: String?, address: String)] = []
        do {
            for _ in 0..<count {
                let label = try reader.string()
                emails.append((label, try reader.requiredString()))
            }
        } catch {}
        return emails
    }

    /// Calls `body` with the place and the UTF-8 bytes of each email address in turn, read in
    /// place, so that a query can skip the addresses it does not keep without building them.
    func forEachEmailAddress(_ body: (_ position: Int, _ address: UnsafeBufferPointer<UInt8>) -> Void) {
        withBytes { $0.forEachEmailAddress(body) }
    }

    var lastNameKey: SortKey { sortKey(.lastName) }
    var firstNameKey: SortKey { sortKey(.firstName) }

    static func == (lhs: PersonSummary, rhs: PersonSummary) -> Bool {
        lhs.body.elementsEqual(rhs.body)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(body.count)
    }
}
