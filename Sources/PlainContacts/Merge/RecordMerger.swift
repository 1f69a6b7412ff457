import FoundationEssentials
import PlainContactsSystem

/// Three-way merges of records: the version both sides started from (base), this side's
/// version (ours) and the other side's (theirs).
///
/// Properties merge one by one: a property changed on one side only takes that side's value;
/// changed identically on both sides is fine; changed differently is a conflict. Multi-values
/// merge entry by entry through their identifiers (an entry removed on one side and changed on
/// the other keeps its changed version: the new value, which the removing side never saw; the
/// old one stays removed); an entry one side numbered anew is first
/// given the identifier of the base's entry with its label and value, if that side lacks it.
/// An entry both sides added with the same
/// label and value (see ``EntryEquivalence``) is one entry, under the smaller of its two
/// identifiers, so that a value that reached a record by two paths is kept once and both
/// sides of any merge pick the same identifier. Other entries added on both sides under the
/// same identifier both survive, ours under a fresh identifier (a conflict when the record has
/// no identifier left). The modification date is
/// bookkeeping and takes the later value, never conflicting. Unknown keys merge like
/// properties.
enum RecordMerger {
    /// The merged person, or the property keys that conflict.
    static func merge(base: PersonState, ours: PersonState, theirs: PersonState) -> Result<PersonState, Conflicts> {
        let (merged, conflicts) = mergeKeepingOurs(base: base, ours: ours, theirs: theirs)
        return conflicts.isEmpty ? .success(merged) : .failure(Conflicts(keys: conflicts))
    }

    /// The merged person with this side's value for every conflicting property, image and
    /// unknown key, and the sorted keys of those conflicts (empty when the merge is clean).
    static func mergeKeepingOurs(base: PersonState, ours: PersonState, theirs: PersonState) -> (merged: PersonState, conflicts: [String]) {
        var merged = theirs
        var conflicts: [String] = []
        var counter = Swift.max(base.nextValueIdentifier, ours.nextValueIdentifier, theirs.nextValueIdentifier)

        for property in PropertyID.personProperties {
            let b = base.values[property], o = ours.values[property], t = theirs.values[property]
            if property == .modificationDate {
                merged.values[property] = later(o, t)
                continue
            }
            if property == .creationDate {
                merged.values[property] = earlier(o, t) ?? b
                continue
            }
            if o == b { continue }
            if t == b || o == t {
                merged.values[property] = o
                continue
            }
            if let value = mergeMulti(property, base: b, ours: o, theirs: t, counter: &counter) {
                merged.values[property] = value.isEmpty ? nil : value
            } else {
                merged.values[property] = o
                conflicts.append(property.key)
            }
        }
        merged.nextValueIdentifier = counter

        if ours.image != base.image {
            if theirs.image == base.image || sameImage(ours.image, theirs.image) {
                merged.image = ours.image
            } else {
                merged.image = ours.image
                conflicts.append("image")
            }
        }
        if ours.mergedKeys != base.mergedKeys {
            merged.mergedKeys = Array(Set(theirs.mergedKeys).union(ours.mergedKeys)).sorted()
        }
        let fields = mergeFieldsKeepingOurs(base: base.unknownFields, ours: ours.unknownFields, theirs: theirs.unknownFields)
        merged.unknownFields = fields.merged
        conflicts.append(contentsOf: fields.conflicts)
        return (merged, conflicts.sorted())
    }

    /// The merged group, or the keys that conflict.
    static func merge(base: GroupState, ours: GroupState, theirs: GroupState) -> Result<GroupState, Conflicts> {
        let (merged, conflicts) = mergeKeepingOurs(base: base, ours: ours, theirs: theirs)
        return conflicts.isEmpty ? .success(merged) : .failure(Conflicts(keys: conflicts))
    }

    /// The merged group with this side's value for every conflicting key, and the sorted keys
    /// of those conflicts (empty when the merge is clean).
    static func mergeKeepingOurs(base: GroupState, ours: GroupState, theirs: GroupState) -> (merged: GroupState, conflicts: [String]) {
        var merged = theirs
        var conflicts: [String] = []
        if ours.name != base.name, theirs.name != base.name, ours.name != theirs.name {
            merged.name = ours.name
            conflicts.append("name")
        } else if ours.name != base.name {
            merged.name = ours.name
        }
        merged.modificationDate = [ours.modificationDate, theirs.modificationDate].compactMap { $0 }.max()
        merged.creationDate = [ours.creationDate, theirs.creationDate].compactMap { $0 }.min() ?? base.creationDate
        let fields = mergeFieldsKeepingOurs(base: base.unknownFields, ours: ours.unknownFields, theirs: theirs.unknownFields)
        merged.unknownFields = fields.merged
        conflicts.append(contentsOf: fields.conflicts)
        return (merged, conflicts.sorted())
    }

    /// Membership merges as set changes: theirs, plus what we added, minus what we removed.
    static func merge<Element: Hashable>(base: Set<Element>, ours: Set<Element>, theirs: Set<Element>) -> Set<Element> {
        theirs.union(ours.subtracting(base)).subtracting(base.subtracting(ours))
    }

    /// The keys that could not be merged.
    struct Conflicts: Error, Sendable, Hashable {
        var keys: [String]
    }

    /// Merges unknown keys one by one.
    static func mergeFields(
        base: [String: JSONValue], ours: [String: JSONValue], theirs: [String: JSONValue]
    ) -> Result<[String: JSONValue], Conflicts> {
        let (merged, conflicts) = mergeFieldsKeepingOurs(base: base, ours: ours, theirs: theirs)
        return conflicts.isEmpty ? .success(merged) : .failure(Conflicts(keys: conflicts))
    }

    /// Merges unknown keys one by one, taking this side's value for each conflicting key; the
    /// conflicting keys come back sorted.
    static func mergeFieldsKeepingOurs(
        base: [String: JSONValue], ours: [String: JSONValue], theirs: [String: JSONValue]
    ) -> (merged: [String: JSONValue], conflicts: [String]) {
        var merged = theirs
        var conflicts: [String] = []
        for key in Set(base.keys).union(ours.keys).union(theirs.keys) {
            let b = base[key], o = ours[key], t = theirs[key]
            if o == b { continue }
            if t != b && o != t { conflicts.append(key) }
            merged[key] = o
        }
        return (merged, conflicts.sorted())
    }

    private static func later(_ a: PropertyValue?, _ b: PropertyValue?) -> PropertyValue? {
        guard case .timestamp(let x)? = a else { return b }
        guard case .timestamp(let y)? = b else { return a }
        return x >= y ? a : b
    }

    private static func earlier(_ a: PropertyValue?, _ b: PropertyValue?) -> PropertyValue? {
        guard case .timestamp(let x)? = a else { return b }
        guard case .timestamp(let y)? = b else { return a }
        return x <= y ? a : b
    }

    private static func sameImage(_ a: ImageState, _ b: ImageState) -> Bool {
        a == b
    }

    /// Merges two multi-values of `property` entry by entry, or `nil` when an entry conflicts
    /// or the values are not multi-values of one type.
    private static func mergeMulti(
        _ property: PropertyID, base: PropertyValue?, ours: PropertyValue?, theirs: PropertyValue?, counter: inout Int32
    ) -> PropertyValue? {
        switch (ours ?? theirs ?? base) {
        case .multiString?:
            return merged(base, ours, theirs, counter: &counter, same: EntryEquivalence.sameValue(for: property), extract: { if case .multiString(let v) = $0 { v } else { nil } }).map(PropertyValue.multiString)
        case .multiDate?:
            return merged(base, ours, theirs, counter: &counter, same: ==, extract: { if case .multiDate(let v) = $0 { v } else { nil } }).map(PropertyValue.multiDate)
        case .multiAddress?:
            return merged(base, ours, theirs, counter: &counter, same: ==, extract: { if case .multiAddress(let v) = $0 { v } else { nil } }).map(PropertyValue.multiAddress)
        case .multiInstantMessage?:
            return merged(base, ours, theirs, counter: &counter, same: ==, extract: { if case .multiInstantMessage(let v) = $0 { v } else { nil } }).map(PropertyValue.multiInstantMessage)
        case .multiSocialProfile?:
            return merged(base, ours, theirs, counter: &counter, same: ==, extract: { if case .multiSocialProfile(let v) = $0 { v } else { nil } }).map(PropertyValue.multiSocialProfile)
        default:
            return nil
        }
    }

    /// One side's entries with the identifier of the base's entry they are, where that side
    /// numbered it otherwise: an entry that is new or changed under its identifier, with the
    /// label and value (see ``EntryEquivalence``) of a base entry the side lacks, is that
    /// entry, not a removal and an addition. Two clones that took one value from an account's
    /// card number it each their own way (or take a number the phone replaced as an edit of
    /// the old entry), and a later removal on one of them must still remove it.
    private static func renumbered<Value>(
        _ side: [MultiValue<Value>.Entry], after base: [MultiValue<Value>.Entry], same: (Value, Value) -> Bool
    ) -> [MultiValue<Value>.Entry] {
        let baseByID = Dictionary(base.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        func isUnchanged(_ entry: MultiValue<Value>.Entry) -> Bool {
            baseByID[entry.identifier].map { EntryEquivalence.sameEntry($0, entry, sameValue: same) } ?? false
        }
        // Base entries no unchanged entry of the side holds are free to be found again.
        let held = Set(side.filter(isUnchanged).map(\.identifier))
        var free = base.filter { !held.contains($0.identifier) }
        guard !free.isEmpty else { return side }
        var found: [Int: MultiValueIdentifier] = [:]
        for (index, entry) in side.enumerated() where !isUnchanged(entry) {
            if let position = free.firstIndex(where: { EntryEquivalence.sameEntry($0, entry, sameValue: same) }) {
                found[index] = free.remove(at: position).identifier
            }
        }
        guard !found.isEmpty else { return side }
        // An identifier is taken only from an entry that moves on itself, never shared.
        let staying = Set(side.indices.filter { found[$0] == nil }.map { side[$0].identifier })
        return side.enumerated().map { index, entry in
            guard let identifier = found[index], !staying.contains(identifier) else { return entry }
            return .init(identifier: identifier, label: entry.label, value: entry.value, unknownFields: entry.unknownFields)
        }
    }

    private static func merged<Value>(
        _ base: PropertyValue?, _ ours: PropertyValue?, _ theirs: PropertyValue?, counter: inout Int32,
        same: (Value, Value) -> Bool, extract: (PropertyValue) -> MultiValue<Value>?
    ) -> MultiValue<Value>? {
        func entries(_ value: PropertyValue?) -> [MultiValue<Value>.Entry]? {
            guard let value else { return [] }
            return extract(value)?.entries
        }
        guard let b = entries(base), var o = entries(ours), var t = entries(theirs) else { return nil }
        o = renumbered(o, after: b, same: same)
        t = renumbered(t, after: b, same: same)
        let baseByID = Dictionary(b.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        let oursByID = Dictionary(o.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        let theirsByID = Dictionary(t.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        for entry in b + o + t { counter = Swift.max(counter, MultiValueIdentifier.successor(of: entry.identifier.rawValue)) }

        var result: [MultiValue<Value>.Entry] = []
        // Theirs, in their order, with our edits and removals applied.
        for entry in t {
            let id = entry.identifier
            let baseEntry = baseByID[id]
            let ourEntry = oursByID[id]
            guard let baseEntry else {
                result.append(entry)  // added by them (ours, if any, is handled below)
                continue
            }
            if let ourEntry {
                if ourEntry == baseEntry || ourEntry == entry {
                    result.append(entry)
                } else if entry == baseEntry {
                    result.append(ourEntry)
                } else {
                    return nil  // the same entry changed differently
                }
            } else if entry != baseEntry {
                result.append(entry)  // removed by us, edited by them: the new value stays
            }
        }
        // Entries we added. One they added too, under another identifier, is one entry: the
        // version with the smaller identifier. An identifier they used for another value is
        // renumbered.
        var theirAdditions = t.filter { baseByID[$0.identifier] == nil }
        for entry in o where baseByID[entry.identifier] == nil {
            if let theirEntry = theirsByID[entry.identifier], theirEntry == entry {
                theirAdditions.removeAll { $0.identifier == entry.identifier }
                continue
            }
            if let match = theirAdditions.firstIndex(where: { EntryEquivalence.sameEntry($0, entry, sameValue: same) }) {
                let theirEntry = theirAdditions.remove(at: match)
                if entry.identifier < theirEntry.identifier, let position = result.firstIndex(of: theirEntry) {
                    result[position] = entry
                }
                continue
            }
            if theirsByID[entry.identifier] != nil {
                guard counter <= MultiValueIdentifier.highest else { return nil }  // no identifier left: a conflict
                result.append(.init(identifier: MultiValueIdentifier(rawValue: counter), label: entry.label, value: entry.value, unknownFields: entry.unknownFields))
                counter += 1
            } else {
                result.append(entry)
            }
        }
        // Entries they removed that we edited: the new value stays.
        for entry in b where theirsByID[entry.identifier] == nil {
            if let ourEntry = oursByID[entry.identifier], ourEntry != entry { result.append(ourEntry) }
        }
        let entries = withoutNewRepeats(ordered(result, base: b, ours: o, theirs: t), ours: o, theirs: t, same: same)
        return MultiValue(entries: entries, nextIdentifier: counter)
    }

    /// The merged entries in an order that does not depend on which side merges, so that two
    /// clones that merge the same versions (and a sync that uploads the result) agree: the
    /// base's entries in the order of the side that reordered them (else the base's), and each
    /// added entry after the base entry it follows on its side. Entries added after the same
    /// one keep the order of a side that holds them all, unless both do in different orders:
    /// then they go by label and value (two clones may number the same values differently).
    private static func ordered<Value>(
        _ result: [MultiValue<Value>.Entry], base: [MultiValue<Value>.Entry], ours: [MultiValue<Value>.Entry],
        theirs: [MultiValue<Value>.Entry]
    ) -> [MultiValue<Value>.Entry] {
        let baseIDs = Set(base.map(\.identifier))
        let kept = Set(result.map(\.identifier))
        let baseOrder = base.map(\.identifier).filter { kept.contains($0) }
        func order(of side: [MultiValue<Value>.Entry]) -> [MultiValueIdentifier] {
            side.map(\.identifier).filter { baseIDs.contains($0) && kept.contains($0) }
        }
        func reordered(_ order: [MultiValueIdentifier]) -> Bool {
            let present = Set(order)
            return order != baseOrder.filter { present.contains($0) }
        }
        let (ourOrder, theirOrder) = (order(of: ours), order(of: theirs))
        let source = reordered(ourOrder) && !reordered(theirOrder) ? ourOrder : reordered(theirOrder) ? theirOrder : baseOrder
        let spine = source + result.map(\.identifier).filter { baseIDs.contains($0) && !source.contains($0) }
        let position = Dictionary(spine.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        // Each added entry's anchor: the kept base entry before it, the earlier of the two sides'.
        var anchors: [MultiValueIdentifier: Int] = [:]
        for side in [ours, theirs] {
            var anchor = -1
            for entry in side {
                if let index = position[entry.identifier] {
                    anchor = index
                } else if kept.contains(entry.identifier) {
                    anchors[entry.identifier] = Swift.min(anchors[entry.identifier] ?? anchor, anchor)
                }
            }
        }
        let byID = Dictionary(result.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        let added = result.filter { !baseIDs.contains($0.identifier) }
        let oursKeys = ours.map(RecordContent.sortKey(of:)), theirsKeys = theirs.map(RecordContent.sortKey(of:))
        func slot(_ anchor: Int) -> [MultiValue<Value>.Entry] {
            let entries = added.filter { (anchors[$0.identifier] ?? spine.count - 1) == anchor }
            guard entries.count > 1 else { return entries }
            let keys = entries.map(RecordContent.sortKey(of:))
            let wanted = Set(keys)
            let orders = [oursKeys, theirsKeys].map { $0.filter(wanted.contains) }.filter { Set($0) == wanted && $0.count == keys.count }
            let order = orders.count == 1 || (orders.count == 2 && orders[0] == orders[1])
                ? orders[0] : keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            var remaining = entries
            return order.compactMap { key in
                remaining.firstIndex { RecordContent.sortKey(of: $0) == key }.map { remaining.remove(at: $0) }
            } + remaining
        }
        var entries = slot(-1)
        for (index, identifier) in spine.enumerated() {
            if let entry = byID[identifier] { entries.append(entry) }
            entries += slot(index)
        }
        return entries
    }

    /// The merged entries without a value repeated more often than either side repeats it: one
    /// side may have taken a value as an edit of an entry (a number the phone replaced) and the
    /// other as an entry of its own, and the value is then one entry, under the smaller
    /// identifier.
    private static func withoutNewRepeats<Value>(
        _ merged: [MultiValue<Value>.Entry], ours: [MultiValue<Value>.Entry], theirs: [MultiValue<Value>.Entry],
        same: (Value, Value) -> Bool
    ) -> [MultiValue<Value>.Entry] {
        func count(_ entry: MultiValue<Value>.Entry, in entries: [MultiValue<Value>.Entry]) -> Int {
            entries.filter { EntryEquivalence.sameEntry($0, entry, sameValue: same) }.count
        }
        var dropped: Set<MultiValueIdentifier> = []
        for entry in merged where !dropped.contains(entry.identifier) {
            let repeats = merged.filter { EntryEquivalence.sameEntry($0, entry, sameValue: same) }
            let allowed = Swift.max(count(entry, in: ours), count(entry, in: theirs), 1)
            guard repeats.count > allowed else { continue }
            let kept = repeats.sorted { $0.identifier < $1.identifier }.prefix(allowed).map(\.identifier)
            for repeated in repeats where !kept.contains(repeated.identifier) { dropped.insert(repeated.identifier) }
        }
        return dropped.isEmpty ? merged : merged.filter { !dropped.contains($0.identifier) }
    }
}
