import FoundationEssentials

/// Settles record IDs that two records share, as happens when two clones each created
/// record 42 and were then merged.
///
/// The rule, the same on every machine so that two clones repairing the same merge write the
/// same bytes: among the records sharing an ID, the one created first keeps it (a record with
/// no creation date counts as created last), ties broken by the smaller key in byte order.
/// The others, taken in key order, get new IDs counting up from the highest ID in the store.
package enum DuplicateIDResolver {
    package struct Claim: Sendable {
        package var key: RecordKey
        package var id: RecordID
        package var created: Date?

        package init(key: RecordKey, id: RecordID, created: Date?) {
            self.key = key
            self.id = id
            self.created = created
        }
    }

    /// The new ID of every record that must change; records keeping their ID are absent.
    package static func assign(_ claims: [Claim]) -> [RecordKey: RecordID] {
        var created: [RecordKey: Date] = [:]
        for claim in claims { created[claim.key] = claim.created }
        return assign(claims.lazy.map { ($0.key, $0.id) }, created: { created[$0] })
    }

    /// The new ID of every record that must change, asking for creation dates only of the
    /// records that share an ID: a store of 100,000 people with no duplicates costs one set.
    package static func assign(
        _ records: some Sequence<(key: RecordKey, id: RecordID)>, created: (RecordKey) -> Date?
    ) -> [RecordKey: RecordID] {
        var seen = Set<RecordID>(minimumCapacity: records.underestimatedCount)
        var shared = Set<RecordID>()
        var highest: Int32 = 0
        for (_, id) in records {
            if !seen.insert(id).inserted { shared.insert(id) }
            highest = max(highest, id.rawValue)
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
            highest += 1
            result[claim.key] = RecordID(highest)
        }
        return result
    }
}
