import FoundationEssentials
import Glibc

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
    private static let textCount = Text.allCases.count

    /// The orderings whose sort keys an entry stores, in the order they are written.
    private static let sortKeyOrderings: [SortOrdering] = [.lastName, .firstName]

    init(key: RecordKey, storage: [UInt8], range: Range<Int>) {
        self.key = key
        self.storage = storage
        self.range = range
    }

    /// Where the fixed fields lie in an entry's body: the ID, the file's signature, the
    /// creation time, the offsets of the search words, sort keys and email addresses, then the
    /// key.
    private enum Layout {
        static let id = 0
        static let signature = 4
        static let created = 36
        static let searchWords = 44
        static let sortKeys = 48
        static let emails = 52
        static let key = 56
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
        guard length >= Layout.key + 4 else { throw IndexReader.Damaged() }
        try checkLayout(bytes, body: start..<(start + length))
        var keyReader = IndexReader(bytes, offset: start + Layout.key)
        guard let key = RecordKey(rawValue: try keyReader.requiredString()) else { throw IndexReader.Damaged() }
        return PersonSummary(key: key, storage: bytes, range: start..<(start + length))
    }

    /// Walks every field of an entry's body without building any value, and throws unless
    /// each lies inside the body where the layout puts it and nothing follows the last.
    private static func checkLayout(_ bytes: [UInt8], body: Range<Int>) throws {
        var fixed = IndexReader(bytes, offset: body.lowerBound + Layout.searchWords)
        let searchWords = Int(try fixed.uint32())
        let sortKeys = Int(try fixed.uint32())
        let emails = Int(try fixed.uint32())
        var reader = IndexReader(bytes, offset: body.lowerBound + Layout.key)
        func string(optional: Bool) throws {
            let length = try reader.uint32()
            if length == .max, optional { return }
            guard reader.offset + Int(length) <= body.upperBound else { throw IndexReader.Damaged() }
            try reader.skip(Int(length))
        }
        func strings() throws {
            let count = try reader.uint32()
            guard Int(count) <= body.upperBound - reader.offset else { throw IndexReader.Damaged() }
            for _ in 0..<count { try string(optional: false) }
        }
        try string(optional: false)  // the key
        try string(optional: true)  // the name hash
        try reader.skip(1)  // the organization flag
        for _ in 0..<textCount { try string(optional: true) }
        try strings()  // the merged keys
        guard reader.offset == body.lowerBound + searchWords else { throw IndexReader.Damaged() }
        try strings()
        guard reader.offset == body.lowerBound + sortKeys else { throw IndexReader.Damaged() }
        for _ in sortKeyOrderings {
            try reader.skip(1)
            try string(optional: false)
            try string(optional: false)
        }
        guard reader.offset == body.lowerBound + emails else { throw IndexReader.Damaged() }
        let emailCount = try reader.uint32()
        guard Int(emailCount) <= body.upperBound - reader.offset else { throw IndexReader.Damaged() }
        for _ in 0..<emailCount {
            try string(optional: true)  // the label
            try string(optional: false)  // the address
        }
        guard reader.offset == body.upperBound else { throw IndexReader.Damaged() }
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
        guard !queryWords.isEmpty else { return false }
        let listStart = range.lowerBound + Int(uint32(at: Layout.searchWords))
        return storage.withUnsafeBytes { buffer in
            let end = range.upperBound
            guard let base = buffer.baseAddress, listStart + 4 <= end else { return false }
            let count = Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: listStart, as: UInt32.self)))
            return queryWords.allSatisfy { query in
                var offset = listStart + 4
                for _ in 0..<count {
                    guard offset + 4 <= end else { return false }
                    let length = Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                    offset += 4
                    guard length != Int(UInt32.max), offset + length <= end else { return false }
                    if length >= query.count, memcmp(base + offset, query, query.count) == 0 {
                        return true
                    }
                    offset += length
                }
                return false
            }
        }
    }

    /// How each query word meets the search words, comparing bytes in place (the same rule
    /// as ``EmailSearch/wordMatches(_:searchWords:)``), written into `matches`.
    func wordMatches(_ query: EmailSearch.Query, into matches: inout [EmailSearch.WordMatch]) {
        matches.removeAll(keepingCapacity: true)
        let listStart = range.lowerBound + Int(uint32(at: Layout.searchWords))
        storage.withUnsafeBytes { buffer in
            let end = range.upperBound
            guard let base = buffer.baseAddress, listStart + 4 <= end else {
                matches.append(contentsOf: repeatElement(.none, count: query.wordBytes.count))
                return
            }
            let count = Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: listStart, as: UInt32.self)))
            for word in query.wordBytes {
                var best = EmailSearch.WordMatch.none
                var offset = listStart + 4
                for _ in 0..<count {
                    guard offset + 4 <= end else { break }
                    let length = Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                    offset += 4
                    guard length != Int(UInt32.max), offset + length <= end else { break }
                    if length >= word.count, memcmp(base + offset, word, word.count) == 0 {
                        best = length == word.count ? .exact : .prefix
                        if best == .exact { break }
                    }
                    offset += length
                }
                matches.append(best)
            }
        }
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
        var reader = reader(at: Int(uint32(at: Layout.emails)))
        return Int((try? reader.uint32()) ?? 0)
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
        var reader = reader(at: Int(uint32(at: Layout.emails)))
        let count = Int((try? reader.uint32()) ?? 0)
        var offset = reader.offset
        storage.withUnsafeBufferPointer { buffer in
            let end = range.upperBound
            for position in 0..<count {
                // Each entry: the label (a length of 0xFFFFFFFF for none), then the address.
                for field in 0..<2 {
                    guard offset + 4 <= end else { return }
                    let length = Int(UInt32(littleEndian: UnsafeRawBufferPointer(buffer).loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                    offset += 4
                    if field == 0, length == Int(UInt32.max) { continue }
                    guard offset + length <= end else { return }
                    if field == 1 { body(position, UnsafeBufferPointer(rebasing: buffer[offset..<(offset + length)])) }
                    offset += length
                }
            }
        }
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
