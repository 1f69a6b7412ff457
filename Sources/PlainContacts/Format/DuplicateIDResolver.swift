import FoundationEssentials

/// Settles record IDs that two records share, as happens when two clones each created
/// record 42 and were then merged.
///
/// The rule, the same on every machine and at every load, so that an ID once shown stays the
/// person's: among the records sharing an ID, the one created first keeps it (a record with no
/// creation date counts as created last), ties broken by the smaller key in byte order. Each of
/// the others gets an ID in ``settledIDs``, drawn from a hash of its file key, moving up
/// (and wrapping) past IDs in use; the records are taken in key order.
///
/// Settling happens when a store is read and changes no file: the settled ID is written only
/// with a change to that record. Neither a save of something else nor `contacts doctor --fix`
/// rewrites a record that another clone created (and may since have removed).
enum DuplicateIDResolver {
    /// The IDs given to records whose ID another record also has. New records never get them:
    /// their IDs count up below (see ``isAllocatable(_:)``), so a settled ID does not move
    /// when people are added, as a count from the highest ID would.
    static let settledIDs: ClosedRange<Int32> = 1_000_000_000...Int32.max

    /// Whether new records may be numbered after `id`: false for settled IDs.
    static func isAllocatable(_ id: Int32) -> Bool {
        id < settledIDs.lowerBound
    }

    struct Claim: Sendable {
        var key: RecordKey
        var id: RecordID
        var created: Date?

        init(key: RecordKey, id: RecordID, created: Date?) {
            self.key = key
            self.id = id
            self.created = created
        }
    }

    /// The new ID of every record that must change; records keeping their ID are absent.
    static func assign(_ claims: [Claim]) -> [RecordKey: RecordID] {
        var created: [RecordKey: Date] = [:]
        for claim in claims { created[claim.key] = claim.created }
        return assign(claims.lazy.map { ($0.key, $0.id) }, created: { created[$0] })
    }

    /// The new ID of every record that must change, asking for creation dates only of the
    /// records that share an ID: a store of 100,000 people with no duplicates costs one set.
    static func assign(
        _ records: some Sequence<(key: RecordKey, id: RecordID)>, created: (RecordKey) -> Date?
    ) -> [RecordKey: RecordID] {
        var seen = Set<RecordID>(minimumCapacity: records.underestimatedCount)
        var shared = Set<RecordID>()
        for (_, id) in records where !seen.insert(id).inserted {
            shared.insert(id)
        }
        guard !shared.isEmpty else { return [:] }
        var byID: [RecordID: [Claim]] = [:]
        for (key, id) in records where shared.contains(id) {
            byID[id, default: []].append(Claim(key: key, id: id, created: created(key)))
        }
        var losers: [Claim] = []
        for (_, sharing) in byID where sharing.count > 1 {
            let ordered = sharing.sorted { a, b in
                let aTime = a.created?.timeIntervalSince1970 ?? .infinity
                let bTime = b.created?.timeIntervalSince1970 ?? .infinity
                if aTime != bTime { return aTime < bTime }
                return a.key < b.key
            }
            losers.append(contentsOf: ordered.dropFirst())
        }
        var result: [RecordKey: RecordID] = [:]
        for claim in losers.sorted(by: { $0.key < $1.key }) {
            let id = freeSettledID(for: claim.key, taken: seen)
            seen.insert(id)
            result[claim.key] = id
        }
        return result
    }

    /// The settled ID a key hashes to, or the next one up (wrapping) not in `taken`.
    ///
    /// The hash is 64-bit FNV-1a of the key's UTF-8 bytes, so it is the same on every machine.
    /// The range holds over a billion IDs; a store would need that many records for the search
    /// to fail, and then it returns an ID of the range even if taken.
    static func freeSettledID(for key: RecordKey, taken: Set<RecordID>) -> RecordID {
        freeSettledID(hashing: key.rawValue, taken: taken)
    }

    /// The settled ID a text hashes to (a key, or the UID of the card a record is made from),
    /// or the next one up (wrapping) not in `taken`.
    static func freeSettledID(hashing text: String, taken: Set<RecordID>) -> RecordID {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let lower = Int64(settledIDs.lowerBound)
        let size = Int64(settledIDs.upperBound) - lower + 1
        var offset = Int64(hash % UInt64(size))
        for _ in 0..<Swift.min(size, Int64(taken.count) + 1) {
            let id = RecordID(Int32(lower + offset))
            if !taken.contains(id) { return id }
            offset = (offset + 1) % size
        }
        return RecordID(Int32(lower + offset))
    }
}
