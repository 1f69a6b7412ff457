import FoundationEssentials

/// Merges a server's version of a person with the store's, property by property, with the
/// store's own three-way merge (``RecordMerger``).
///
/// A card read from the server numbers its multi-value entries afresh, so before merging, its
/// entries take the identifiers of the matching entries of a reference version (the last synced
/// one, else the store's): the same label and value first (values compared as
/// ``EntryEquivalence`` does), then an entry the store added since the reference with the same
/// label and value (a value that reached the store by another path, such as a Git pull), then
/// the same value, then the same label in order (a value edited on the phone). Entries left
/// over get identifiers no version has used. Fields the card cannot carry (merged record keys, keys of newer versions of the
/// store) are taken from the reference, and an image equal to the reference's keeps its file.
///
/// The book applies a card through ``AddressBook/applyCard(_:to:merging:placement:)``, which
/// merges with this, sets the record and tells whether the record then says what the card
/// says (``sameContent(_:_:)``).
///
/// ```swift
/// let outcome = CardMerge.merge(base: base, ours: person.state, theirs: card, image: person.imageData)
/// if outcome.conflicts.isEmpty { person.state = outcome.merged }
/// ```
enum CardMerge {
    /// A merged person and the property keys that conflicted (empty when the merge is clean).
    struct Outcome {
        var merged: PersonState
        var conflicts: [String]
        /// The server's version as merged: renumbered after the reference, with the store's
        /// image when it is the same picture. What the card says, in the store's terms.
        var theirs = PersonState()
    }

    /// The record fields that come from the card and are merged like properties.
    static let cardFields: Set<String> = [VCardRecordFields.uidKey, VCardRecordFields.linesKey, VCardOrigin.key]

    /// Merges `theirs` (read from a card) into `ours` against `base` (the last synced version,
    /// or `nil` for two versions met for the first time).
    ///
    /// Without a base, a property set on one side only is taken, entries of both sides' multi-
    /// values are all kept, and the card lines of both sides are kept. With `prefer`, a
    /// conflicting property takes that side's value and is not reported.
    ///
    /// A card whose UID is the one export derives from the record's `key` says nothing of a
    /// UID: the store's record keeps having none, rather than gaining a derived one.
    ///
    /// - Parameter image: the bytes of the store's image, read only when the card has one.
    static func merge(
        base: PersonState?, ours: PersonState, theirs: PersonState, prefer: MergePreference? = nil,
        key: RecordKey? = nil, image: () throws -> Data?
    ) rethrows -> Outcome {
        var theirs = theirs
        let reference = base ?? ours
        align(&theirs, to: reference, also: ours)
        if VCardRecordFields.uid(of: ours) == nil, let key { VCardRecordFields.removeDerivedUID(from: &theirs, key: key) }
        if case .pending(let data) = theirs.image, try data == image() {
            theirs.image = ours.image
        }
        var mergeBase: PersonState
        if let base {
            mergeBase = base
        } else {
            mergeBase = PersonState()
            mergeBase.image = ours.image == theirs.image ? ours.image : .none
            mergeBase.mergedKeys = ours.mergedKeys
            mergeBase.unknownFields = ours.unknownFields.filter { !cardFields.contains($0.key) }
            mergeBase.unknownFields[VCardRecordFields.uidKey] = ours.unknownFields[VCardRecordFields.uidKey]
        }
        var outcome: Outcome
        if prefer == .remote {
            let (merged, _) = RecordMerger.mergeKeepingOurs(base: mergeBase, ours: theirs, theirs: ours)
            outcome = Outcome(merged: merged, conflicts: [])
        } else {
            let (merged, conflicts) = RecordMerger.mergeKeepingOurs(base: mergeBase, ours: ours, theirs: theirs)
            outcome = Outcome(merged: merged, conflicts: prefer == .local ? [] : conflicts)
        }
        if base == nil {
            // Met for the first time: both sides' card lines are kept, and the server's origin
            // describes the lines of the card that is there.
            let lines = VCardRecordFields.lines(of: ours) + VCardRecordFields.lines(of: theirs)
            var seen = Set<String>()
            VCardRecordFields.setLines(lines.filter { seen.insert($0).inserted }, in: &outcome.merged)
            outcome.merged.unknownFields[VCardOrigin.key] = theirs.unknownFields[VCardOrigin.key]
            outcome.conflicts.removeAll { cardFields.contains($0) }
        }
        outcome.theirs = theirs
        return outcome
    }

    /// Whether two versions of a person say the same, leaving out the bookkeeping a card does
    /// not carry (see ``RecordContent``).
    static func sameContent(_ a: PersonState, _ b: PersonState) -> Bool {
        RecordContent.same(a, b)
    }

    /// Gives the card's entries the identifiers of matching entries of `reference`, takes the
    /// fields a card cannot carry from it, and renames the card's origin lines to match.
    /// Identifiers of `also` (the store's version) are never given to other entries.
    static func align(_ theirs: inout PersonState, to reference: PersonState, also other: PersonState) {
        var counter = Swift.max(reference.nextValueIdentifier, other.nextValueIdentifier, theirs.nextValueIdentifier)
        for state in [reference, other] {
            for value in state.values.values {
                for identifier in identifiers(of: value) {
                    counter = Swift.max(counter, MultiValueIdentifier.successor(of: identifier.rawValue))
                }
            }
        }
        var renamed: [String: String] = [:]
        for (property, value) in theirs.values {
            var mapping: [Int32: Int32] = [:]
            theirs.values[property] = aligned(
                value, of: property, to: reference.values[property], also: other.values[property], counter: &counter,
                mapping: &mapping)
            for (old, new) in mapping where old != new {
                renamed["\(property.key)/\(old)"] = "\(property.key)/\(new)"
            }
        }
        theirs.nextValueIdentifier = counter
        theirs.mergedKeys = reference.mergedKeys
        for (key, value) in reference.unknownFields where !cardFields.contains(key) {
            theirs.unknownFields[key] = value
        }
        if theirs.values[.creationDate] == nil { theirs.values[.creationDate] = reference.values[.creationDate] }
        if theirs.values[.modificationDate] == nil { theirs.values[.modificationDate] = reference.values[.modificationDate] }
        if !renamed.isEmpty, var origin = VCardOrigin(of: theirs) {
            var sources: [String: VCardOrigin.Source] = [:]
            for (name, source) in origin.sources { sources[renamed[name] ?? name] = source }
            origin.sources = sources
            origin.store(in: &theirs)
        }
    }

    private static func identifiers(of value: PropertyValue) -> [MultiValueIdentifier] {
        switch value {
        case .multiString(let multi): multi.entries.map(\.identifier)
        case .multiDate(let multi): multi.entries.map(\.identifier)
        case .multiAddress(let multi): multi.entries.map(\.identifier)
        case .multiInstantMessage(let multi): multi.entries.map(\.identifier)
        case .multiSocialProfile(let multi): multi.entries.map(\.identifier)
        default: []
        }
    }

    private static func aligned(
        _ value: PropertyValue, of property: PropertyID, to reference: PropertyValue?, also other: PropertyValue?,
        counter: inout Int32, mapping: inout [Int32: Int32]
    ) -> PropertyValue {
        func renumbered<Value>(
            _ multi: MultiValue<Value>, same: (Value, Value) -> Bool, _ extract: (PropertyValue?) -> MultiValue<Value>?
        ) -> MultiValue<Value> {
            aligned(
                multi, to: extract(reference) ?? MultiValue(), also: extract(other) ?? MultiValue(), same: same,
                counter: &counter, mapping: &mapping)
        }
        switch value {
        case .multiString(let multi):
            return .multiString(renumbered(multi, same: EntryEquivalence.sameValue(for: property)) {
                if case .multiString(let v)? = $0 { v } else { nil }
            })
        case .multiDate(let multi):
            return .multiDate(renumbered(multi, same: ==) { if case .multiDate(let v)? = $0 { v } else { nil } })
        case .multiAddress(let multi):
            return .multiAddress(renumbered(multi, same: ==) { if case .multiAddress(let v)? = $0 { v } else { nil } })
        case .multiInstantMessage(let multi):
            return .multiInstantMessage(renumbered(multi, same: ==) { if case .multiInstantMessage(let v)? = $0 { v } else { nil } })
        case .multiSocialProfile(let multi):
            return .multiSocialProfile(renumbered(multi, same: ==) { if case .multiSocialProfile(let v)? = $0 { v } else { nil } })
        default:
            return value
        }
    }

    /// One multi-value's entries renumbered after the reference's matching entries, or after an
    /// entry `other` added since the reference with the same label and value.
    static func aligned<Value>(
        _ multi: MultiValue<Value>, to reference: MultiValue<Value>, also other: MultiValue<Value> = MultiValue(),
        same: (Value, Value) -> Bool = { $0 == $1 }, counter: inout Int32, mapping: inout [Int32: Int32]
    ) -> MultiValue<Value> {
        var entries = multi.entries
        var assigned: [MultiValueIdentifier?] = Array(repeating: nil, count: entries.count)
        var unused = reference.entries
        let referenceIdentifiers = Set(reference.entries.map(\.identifier))
        var added = other.entries.filter { !referenceIdentifiers.contains($0.identifier) }
        func claim(from candidates: inout [MultiValue<Value>.Entry], _ matches: (MultiValue<Value>.Entry, MultiValue<Value>.Entry) -> Bool) {
            for index in entries.indices where assigned[index] == nil {
                if let position = candidates.firstIndex(where: { matches(entries[index], $0) }) {
                    assigned[index] = candidates.remove(at: position).identifier
                }
            }
        }
        claim(from: &unused) { EntryEquivalence.sameEntry($0, $1, sameValue: same) }
        claim(from: &added) { EntryEquivalence.sameEntry($0, $1, sameValue: same) }
        claim(from: &unused) { same($0.value, $1.value) }
        claim(from: &unused) { $0.label == $1.label }
        for index in entries.indices {
            let identifier: MultiValueIdentifier
            if let claimed = assigned[index] {
                identifier = claimed
            } else {
                identifier = MultiValueIdentifier(rawValue: counter)
                counter = MultiValueIdentifier.successor(of: counter)
            }
            mapping[entries[index].identifier.rawValue] = identifier.rawValue
            entries[index] = MultiValue.Entry(
                identifier: identifier, label: entries[index].label, value: entries[index].value,
                unknownFields: entries[index].unknownFields)
        }
        return MultiValue(entries: entries, nextIdentifier: counter)
    }
}
