/// Which side wins a conflict when two versions of a record are merged, as `contacts sync
/// --prefer local|remote` says: the store's version or the card's.
///
/// ```swift
/// let applied = try book.applyCard(card, to: person, merging: .threeWay(base: nil, prefer: .remote))
/// ```
package enum MergePreference: String, Hashable, Sendable, CaseIterable {
    /// The store's version wins.
    case local
    /// The card's version wins.
    case remote
}
