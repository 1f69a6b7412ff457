import FoundationEssentials

/// Where a save places a new record made from an account's card, so that every clone that
/// makes it from the same card writes the same file under the same record ID, and Git merges
/// the two additions into one record.
///
/// The file key is the one the card carries (the key of the record it was made from, written
/// by `contacts sync` as `X-PLAINCONTACTS-KEY`), else the slug of the name with a suffix drawn
/// from the card's UID (see ``RecordKey/derived(name:fallback:uid:)``). The record ID is the
/// one the card carries with the key, else a settled ID drawn from the UID (see
/// ``DuplicateIDResolver/freeSettledID(hashing:taken:)``). A carried key another record of the
/// store already has gives way to the derived one, and that to a random one; a carried ID
/// another record has, to the settled one.
///
/// ```swift
/// try book.add(person, placement: RecordPlacement(uid: "phone-1", carriedKey: nil))
/// try book.save()   // people/pat-phone-<suffix of phone-1>.json, record ID ≥ 1,000,000,000
/// ```
package struct RecordPlacement: Sendable, Hashable {
    /// The UID of the card the record is made from.
    var uid: String
    /// The file key the card carries, if any.
    var carriedKey: RecordKey?
    /// The record ID the card carries with its key, if any.
    var carriedID: RecordID?
    /// The keys of the groups the new person joins with the same save (a removed person
    /// brought back into the groups they were in); groups no longer there are skipped.
    var groups: Set<RecordKey>

    init(uid: String, carriedKey: RecordKey?, carriedID: RecordID? = nil, groups: Set<RecordKey> = []) {
        self.uid = uid
        self.carriedKey = carriedKey
        self.carriedID = carriedID
        self.groups = groups
    }

    /// The record ID: the carried one unless taken, else the settled ID of the UID.
    func recordID(taken: Set<RecordID>) -> RecordID {
        if let carriedID, !taken.contains(carriedID) { return carriedID }
        return DuplicateIDResolver.freeSettledID(hashing: uid, taken: taken)
    }

    /// The keys to try, in order, for a record with this display name.
    func candidateKeys(name: String?, fallback: String) -> [RecordKey] {
        [carriedKey, RecordKey.derived(name: name, fallback: fallback, uid: uid)].compactMap { $0 }
    }
}
