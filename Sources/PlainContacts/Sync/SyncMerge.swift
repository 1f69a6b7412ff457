import FoundationEssentials

/// Merges a server's version of a person with the store's, property by property, with the
/// store's own three-way merge (``RecordMerger``).
///
/// A card read from the server numbers its multi-value entries afresh, so before merging, its
/// entries take the identifiers of the matching entries of a reference version (the last synced
/// one, else the store's): the same label and value first, then the same value, then the same
/// label in order (a value edited on the phone). Entries left over get identifiers no version
/// has used. Fields the card cannot carry (merged record keys, keys of newer versions of the
/// store) are taken from the reference, and an image equal to the reference's keeps its file.
///
/// ```swift
/// let outcome = SyncMerge.merge(base: base, ours: person.state, theirs: card, image: person.imageData)
/// if outcome.conflicts.isEmpty { person.state = outcome.merged }
/// ```
enum SyncMerge {
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
    /// - Parameter image: the bytes of the store's image, read only when the card has one.
    static func merge(
        base: PersonState?, ours: PersonState, theirs: PersonState, prefer: SyncDecision.Preference? = nil,
        image: () throws -> Data?
    ) rethrows -> Outcome {
        var theirs = theirs
        let reference = base ?? ours
        align(&theirs, to: reference, also: ours)
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
    /// not carry: creation and modification dates and the next multi-value identifier.
    static func sameContent(_ a: PersonState, _ b: PersonState) -> Bool {
        var a = a, b = b
        for property in [PropertyID.creationDate, .modificationDate] {
            a.values[property] = nil
            b.values[property] = nil
        }
        a.nextValueIdentifier = 0
        b.nextValueIdentifier = 0
        return a == b
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
            theirs.values[property] = aligned(value, to: reference.values[property], counter: &counter, mapping: &mapping)
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
        _ value: PropertyValue, to reference: PropertyValue?, counter: inout Int32, mapping: inout [Int32: Int32]
    ) -> PropertyValue {
        switch (value, reference) {
        case (.multiString(let multi), let reference):
            if case .multiString(let other)? = reference {
                return .multiString(aligned(multi, to: other, counter: &counter, mapping: &mapping))
            }
            return .multiString(aligned(multi, to: MultiValue(), counter: &counter, mapping: &mapping))
        case (.multiDate(let multi), let reference):
            if case .multiDate(let other)? = reference {
                return .multiDate(aligned(multi, to: other, counter: &counter, mapping: &mapping))
            }
            return .multiDate(aligned(multi, to: MultiValue(), counter: &counter, mapping: &mapping))
        case (.multiAddress(let multi), let reference):
            if case .multiAddress(let other)? = reference {
                return .multiAddress(aligned(multi, to: other, counter: &counter, mapping: &mapping))
            }
            return .multiAddress(aligned(multi, to: MultiValue(), counter: &counter, mapping: &mapping))
        case (.multiInstantMessage(let multi), let reference):
            if case .multiInstantMessage(let other)? = reference {
                return .multiInstantMessage(aligned(multi, to: other, counter: &counter, mapping: &mapping))
            }
            return .multiInstantMessage(aligned(multi, to: MultiValue(), counter: &counter, mapping: &mapping))
        case (.multiSocialProfile(let multi), let reference):
            if case .multiSocialProfile(let other)? = reference {
                return .multiSocialProfile(aligned(multi, to: other, counter: &counter, mapping: &mapping))
            }
            return .multiSocialProfile(aligned(multi, to: MultiValue(), counter: &counter, mapping: &mapping))
        default:
            return value
        }
    }

    /// One multi-value's entries renumbered after the reference's matching entries.
    static func aligned<Value>(
        _ multi: MultiValue<Value>, to reference: MultiValue<Value>, counter: inout Int32, mapping: inout [Int32: Int32]
    ) -> MultiValue<Value> {
        var entries = multi.entries
        var assigned: [MultiValueIdentifier?] = Array(repeating: nil, count: entries.count)
        var unused = reference.entries
        func claim(_ matches: (MultiValue<Value>.Entry, MultiValue<Value>.Entry) -> Bool) {
            for index in entries.indices where assigned[index] == nil {
                if let position = unused.firstIndex(where: { matches(entries[index], $0) }) {
                    assigned[index] = unused.remove(at: position).identifier
                }
            }
        }
        claim { $0.value == $1.value && $0.label == $1.label }
        claim { $0.value == $1.value }
        claim { $0.label == $1.label }
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
