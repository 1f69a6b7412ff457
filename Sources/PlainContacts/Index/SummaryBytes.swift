import Glibc

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

    /// Whether every field lies inside the body where the layout puts it and nothing follows
    /// the last, walked without building any value: a summary that fails would read as
    /// defaults (no name, no search words), so it is refused as damaged instead.
    var hasValidLayout: Bool {
        guard body.count >= Layout.key + 4, body.lowerBound >= 0, body.upperBound <= buffer.count,
            let searchWords = uint32(at: body.lowerBound + Layout.searchWords),
            let sortKeys = uint32(at: body.lowerBound + Layout.sortKeys),
            let emails = uint32(at: body.lowerBound + Layout.emails)
        else { return false }
        var walk = LayoutWalk(buffer: buffer, offset: body.lowerBound + Layout.key, end: body.upperBound)
        guard walk.string(optional: false), walk.string(optional: true), walk.skip(1) else { return false }
        for _ in 0..<PersonSummary.textCount where !walk.string(optional: true) { return false }
        guard walk.strings(), walk.offset == body.lowerBound + searchWords, walk.strings(),
            walk.offset == body.lowerBound + sortKeys
        else { return false }
        for _ in PersonSummary.sortKeyOrderings where !(walk.skip(1) && walk.string(optional: false) && walk.string(optional: false)) {
            return false
        }
        guard walk.offset == body.lowerBound + emails, let count = walk.count() else { return false }
        for _ in 0..<count where !(walk.string(optional: true) && walk.string(optional: false)) { return false }
        return walk.offset == body.upperBound
    }
}

/// A walk over the fields of a summary's body for ``SummaryBytes/hasValidLayout``: each step
/// moves past one field, and fails when it would leave the body.
private struct LayoutWalk {
    let buffer: UnsafeRawBufferPointer
    var offset: Int
    let end: Int

    /// Moves past `count` bytes.
    mutating func skip(_ count: Int) -> Bool {
        guard count <= end - offset else { return false }
        offset += count
        return true
    }

    /// Moves past a 32-bit value and gives it.
    private mutating func uint32() -> Int? {
        guard offset + 4 <= end else { return nil }
        defer { offset += 4 }
        return Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }

    /// Moves past a string (its length and bytes); the length 0xFFFFFFFF (none) only when
    /// `optional`.
    mutating func string(optional: Bool) -> Bool {
        guard let length = uint32() else { return false }
        if length == Int(UInt32.max) { return optional }
        return skip(length)
    }

    /// Moves past a list's count and gives it, when no more items than bytes remain.
    mutating func count() -> Int? {
        guard let count = uint32(), count <= end - offset else { return nil }
        return count
    }

    /// Moves past a list of strings.
    mutating func strings() -> Bool {
        guard let count = count() else { return false }
        for _ in 0..<count where !string(optional: false) { return false }
        return true
    }
}
