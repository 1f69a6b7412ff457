/// The three-way merge of a group's cards, as a sync merges the store's group with the
/// server's.
extension GroupCard {
    /// The merged group, or `nil` when the name changed differently on both sides and no
    /// preference settles it: the name as a property, the members as a set (additions and
    /// removals of both sides kept, see ``RecordMerger/merge(base:ours:theirs:)``), the kept
    /// lines from whichever side changed them. Without a base, the members and lines of both
    /// sides are kept. The server's card (`theirs`) keeps its form.
    ///
    /// ```swift
    /// let merged = GroupCard.merge(base: base, ours: ours, theirs: theirs, prefer: nil)
    /// // nil: the name was changed differently on both sides
    /// ```
    package static func merge(base: GroupCard?, ours: GroupCard, theirs: GroupCard, prefer: MergePreference?) -> GroupCard? {
        var merged = theirs
        if ours.name != theirs.name {
            if let base, base.name == theirs.name {
                merged.name = ours.name
            } else if let base, base.name == ours.name {
                merged.name = theirs.name
            } else if let prefer {
                merged.name = prefer == .local ? ours.name : theirs.name
            } else {
                return nil
            }
        }
        if let base {
            merged.members = Array(
                RecordMerger.merge(base: Set(base.members), ours: Set(ours.members), theirs: Set(theirs.members))
            ).sorted()
            merged.lines = ours.lines == base.lines ? theirs.lines : ours.lines
        } else {
            merged.members = Array(Set(ours.members).union(theirs.members)).sorted()
            var seen = Set<String>()
            merged.lines = (theirs.lines + ours.lines).filter { seen.insert($0).inserted }
        }
        return merged
    }
}
