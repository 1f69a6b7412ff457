import Glibc
import PlainContactsSystem

/// A person's summary read in place from the index's bytes, without building a
/// ``PersonSummary``: what an operation over every person reads of each (its file's name and
/// signature, its search words, its email addresses) before it keeps the few it needs.
///
/// It points into bytes that the caller keeps alive, and is valid only inside the closure that
/// handed it out (``PersonSummary/withBytes(_:)``, ``CheckedIndex/summaries(where:)``). Every
/// read checks its bounds against the body, and reads nothing past it.
///
/// ```swift
/// summary.withBytes { bytes in
///     bytes.emailCount
/// }
/// ```
struct SummaryBytes {
    /// The bytes that hold the summary.
    let buffer: UnsafeRawBufferPointer
    /// Where the summary's body (without its length prefix) lies in ``buffer``.
    let body: Range<Int>

    /// Where the fixed fields lie in a summary's body: the ID, the file's signature, the
    /// creation time, the offsets of the search words, sort keys and email addresses, then the
    /// key. The layout is that of ``PersonSummary/init(key:signature:decoded:)``.
    enum Layout {
        static let id = 0
        static let signature = 4
        static let created = 36
        static let searchWords = 44
        static let sortKeys = 48
        static let emails = 52
        static let key = 56
    }

    /// The 32-bit value at an offset of the buffer, or `nil` when it does not lie inside the body.
    private func uint32(at offset: Int) -> Int? {
        guard offset >= body.lowerBound, offset + 4 <= body.upperBound else { return nil }
        return Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }

    /// The 64-bit value at an offset of the body (the caller has checked the body's length).
    private func int64(atBody position: Int) -> Int64 {
        Int64(littleEndian: buffer.loadUnaligned(fromByteOffset: body.lowerBound + position, as: Int64.self))
    }

    /// The signature of the person's file when the summary was made, or `nil` for a body too
    /// short to hold one.
    var signature: FileSignature? {
        guard body.count >= Layout.created else { return nil }
        return FileSignature(
            inode: UInt64(bitPattern: int64(atBody: Layout.signature)), size: int64(atBody: Layout.signature + 8),
            modified: int64(atBody: Layout.signature + 16), changed: int64(atBody: Layout.signature + 24))
    }

    /// The record ID written in the file.
    var id: RecordID {
        guard body.count >= Layout.id + 4 else { return .invalid }
        return RecordID(Int32(bitPattern: UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: body.lowerBound, as: UInt32.self))))
    }

    /// The creation date in whole seconds, which settles duplicate IDs.
    var created: Int64? {
        guard body.count >= Layout.created + 8 else { return nil }
        let value = int64(atBody: Layout.created)
        return value == .min ? nil : value
    }

    /// The key's UTF-8 bytes, or `nil` when they do not lie inside the body.
    var key: UnsafeRawBufferPointer? {
        let start = body.lowerBound + Layout.key
        guard let length = uint32(at: start), length != Int(UInt32.max), start + 4 + length <= body.upperBound else {
            return nil
        }
        return UnsafeRawBufferPointer(rebasing: buffer[(start + 4)..<(start + 4 + length)])
    }

    /// The offset in the buffer of a list whose place the fixed field at `field` gives, or
    /// `nil` when it lies outside the body.
    private func list(at field: Int) -> Int? {
        guard let position = uint32(at: body.lowerBound + field), position + 4 <= body.count else { return nil }
        return body.lowerBound + position
    }

    /// How many email addresses the person has, read without decoding them.
    var emailCount: Int {
        list(at: Layout.emails).flatMap { uint32(at: $0) } ?? 0
    }

    /// Calls `visit` with each string of the list that starts at `offset` (a count, then each
    /// string as a length and its bytes), until it returns `false` or the list ends.
    private func forEachString(inListAt offset: Int, _ visit: (UnsafeRawBufferPointer) -> Bool) {
        guard let count = uint32(at: offset) else { return }
        var offset = offset + 4
        for _ in 0..<count {
            guard let length = uint32(at: offset), length != Int(UInt32.max), offset + 4 + length <= body.upperBound else {
                return
            }
            offset += 4
            guard visit(UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + length)])) else { return }
            offset += length
        }
    }

    /// Whether `word` is a prefix of `text`.
    private static func starts(_ text: UnsafeRawBufferPointer, with word: [UInt8]) -> Bool {
        guard text.count >= word.count else { return false }
        guard let base = text.baseAddress else { return word.isEmpty }
        return memcmp(base, word, word.count) == 0
    }

    /// Whether every query word begins one of the search words (the same rule as
    /// ``NameSearch/matches(queryWords:searchWords:)``).
    func matches(queryWords: [[UInt8]]) -> Bool {
        guard !queryWords.isEmpty, let words = list(at: Layout.searchWords) else { return false }
        return queryWords.allSatisfy { query in
            var found = false
            forEachString(inListAt: words) { word in
                found = Self.starts(word, with: query)
                return !found
            }
            return found
        }
    }

    /// How each query word meets the search words (the same rule as
    /// ``EmailSearch/wordMatches(_:searchWords:)``), written into `matches`.
    func wordMatches(_ query: EmailSearch.Query, into matches: inout [EmailSearch.WordMatch]) {
        matches.removeAll(keepingCapacity: true)
        guard let words = list(at: Layout.searchWords) else {
            matches.append(contentsOf: repeatElement(.none, count: query.wordBytes.count))
            return
        }
        for query in query.wordBytes {
            var best = EmailSearch.WordMatch.none
            forEachString(inListAt: words) { word in
                if Self.starts(word, with: query) { best = word.count == query.count ? .exact : .prefix }
                return best != .exact
            }
            matches.append(best)
        }
    }

    /// Calls `visit` with the place and the UTF-8 bytes of each email address in turn, so that
    /// a query can skip the addresses it does not keep without building them.
    func forEachEmailAddress(_ visit: (_ position: Int, _ address: UnsafeBufferPointer<UInt8>) -> Void) {
        guard let list = list(at: Layout.emails), let count = uint32(at: list) else { return }
        var offset = list + 4
        for position in 0..<count {
            // Each entry: the label (a length of 0xFFFFFFFF for none), then the address.
            guard let labelLength = uint32(at: offset) else { return }
            offset += 4
            if labelLength != Int(UInt32.max) { offset += labelLength }
            guard let length = uint32(at: offset), length != Int(UInt32.max), offset + 4 + length <= body.upperBound else {
                return
            }
            offset += 4
            visit(position, UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + length)]).assumingMemoryBound(to: UInt8.self))
            offset += length
        }
    }

    // The readers below fall back to defaults only as a bounds guard: a summary is decoded
    // (``PersonSummary/decode(body:sharing:)``) or confirmed (``CheckedIndex``) only after
    // ``hasValidLayout``, or was just written, so no field can be short or misplaced.

    /// A reader at a position of the body.
    private func reader(at position: Int) -> Reader {
        Reader(buffer: buffer, offset: body.lowerBound + position, end: body.upperBound)
    }

    /// A reader placed after the key (at the name hash).
    private func afterKey() -> Reader {
        var reader = reader(at: Layout.key)
        reader.skipString()
        return reader
    }

    /// A reader placed at the text field `field` (0 is the name prefix).
    private func atText(_ field: Int) -> Reader {
        var reader = afterKey()
        reader.skipString()
        _ = try? reader.skip(1)
        for _ in 0..<field { reader.skipString() }
        return reader
    }

    /// The text field `field` (see ``PersonSummary``'s order), or `nil`.
    func text(_ field: Int) -> String? {
        var reader = atText(field)
        return (try? reader.string()) ?? nil
    }

    /// The name hash.
    var nameHash: NameHash? {
        var reader = afterKey()
        return ((try? reader.string()) ?? nil).flatMap(NameHash.init)
    }

    /// The name parts and whether the record is an organization.
    var parts: NameParts {
        var reader = afterKey()
        reader.skipString()
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

    /// The keys of the records merged into this one.
    var mergedKeys: [String] {
        var reader = atText(PersonSummary.textCount)
        return (try? reader.strings()) ?? []
    }

    /// The search words of the names.
    var searchWords: [String] {
        guard let list = list(at: Layout.searchWords) else { return [] }
        var reader = reader(at: list - body.lowerBound)
        return (try? reader.strings()) ?? []
    }

    /// The sort key for an ordering.
    func sortKey(_ ordering: SortOrdering) -> SortKey {
        var reader = reader(at: (list(at: Layout.sortKeys) ?? body.upperBound) - body.lowerBound)
        // Skip the keys stored before this ordering's: a flag and two strings each.
        for _ in 0..<(PersonSummary.sortKeyOrderings.firstIndex(of: ordering) ?? 0) {
            _ = try? reader.skip(1)
            reader.skipString()
            reader.skipString()
        }
        let hasName = (try? reader.byte()) == 1
        let primary = ((try? reader.string()) ?? nil) ?? ""
        let secondary = ((try? reader.string()) ?? nil) ?? ""
        return SortKey(storedHasName: hasName, primary: primary, secondary: secondary)
    }

    /// Every email address with its label (the stored word or custom text), in the person's
    /// order.
    var emails: [(label: String?, address: String)] {
        guard let list = list(at: Layout.emails) else { return [] }
        var reader = reader(at: list - body.lowerBound)
        var emails: [(label: String?, address: String)] = []
        do {
            for _ in 0..<(try reader.uint32()) {
                let label = try reader.string()
                emails.append((label, try reader.requiredString()))
            }
        } catch {}
        return emails
    }

    /// Whether every field lies inside the body where the layout puts it and nothing follows
    /// the last, walked without building any value: a summary that fails would read as
    /// defaults (no name, no search words), so it is refused as damaged instead.
    var hasValidLayout: Bool {
        guard body.count >= Layout.key + 4, body.lowerBound >= 0, body.upperBound <= buffer.count,
            let searchWords = uint32(at: body.lowerBound + Layout.searchWords),
            let sortKeys = uint32(at: body.lowerBound + Layout.sortKeys),
            let emails = uint32(at: body.lowerBound + Layout.emails)
        else { return false }
        var reader = reader(at: Layout.key)
        do {
            try reader.checkString(optional: false)  // the key
            try reader.checkString(optional: true)  // the name hash
            try reader.skip(1)  // the organization flag
            for _ in 0..<PersonSummary.textCount { try reader.checkString(optional: true) }
            try reader.checkStrings()  // the merged keys
            guard reader.offset == body.lowerBound + searchWords else { return false }
            try reader.checkStrings()
            guard reader.offset == body.lowerBound + sortKeys else { return false }
            for _ in PersonSummary.sortKeyOrderings {
                try reader.skip(1)
                try reader.checkString(optional: false)
                try reader.checkString(optional: false)
            }
            guard reader.offset == body.lowerBound + emails else { return false }
            for _ in 0..<(try reader.count()) {
                try reader.checkString(optional: true)  // the label
                try reader.checkString(optional: false)  // the address
            }
        } catch {
            return false
        }
        return reader.offset == body.upperBound
    }
}

extension SummaryBytes {
    /// Reads one field after another from a summary's body, as ``IndexReader`` does from an
    /// array; a field that would not end inside the body throws ``IndexReader/Damaged``.
    struct Reader {
        let buffer: UnsafeRawBufferPointer
        private(set) var offset: Int
        let end: Int

        init(buffer: UnsafeRawBufferPointer, offset: Int, end: Int) {
            self.buffer = buffer
            self.offset = offset
            self.end = end
        }

        /// Moves past `count` bytes.
        mutating func skip(_ count: Int) throws {
            guard count >= 0, count <= end - offset else { throw IndexReader.Damaged() }
            offset += count
        }

        mutating func uint32() throws -> Int {
            let start = offset
            try skip(4)
            return Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: start, as: UInt32.self)))
        }

        mutating func byte() throws -> UInt8 {
            let start = offset
            try skip(1)
            return buffer[start]
        }

        /// A string, or `nil` for none (the length 0xFFFFFFFF).
        mutating func string() throws -> String? {
            let length = try uint32()
            if length == Int(UInt32.max) { return nil }
            let start = offset
            try skip(length)
            return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[start..<offset]), as: UTF8.self)
        }

        mutating func requiredString() throws -> String {
            guard let value = try string() else { throw IndexReader.Damaged() }
            return value
        }

        /// A list's count, when no more items than bytes remain.
        mutating func count() throws -> Int {
            let count = try uint32()
            guard count <= end - offset else { throw IndexReader.Damaged() }
            return count
        }

        mutating func strings() throws -> [String] {
            let count = try count()
            var values: [String] = []
            values.reserveCapacity(count)
            for _ in 0..<count { values.append(try requiredString()) }
            return values
        }

        /// Moves past a string without making it, whatever its length says (a bounds guard).
        mutating func skipString() {
            guard let length = try? uint32(), length != Int(UInt32.max) else { return }
            _ = try? skip(length)
        }

        /// Moves past a string; none (0xFFFFFFFF) only when `optional`.
        mutating func checkString(optional: Bool) throws {
            let length = try uint32()
            if length == Int(UInt32.max) {
                guard optional else { throw IndexReader.Damaged() }
                return
            }
            try skip(length)
        }

        /// Moves past a list of strings.
        mutating func checkStrings() throws {
            for _ in 0..<(try count()) { try checkString(optional: false) }
        }
    }
}
