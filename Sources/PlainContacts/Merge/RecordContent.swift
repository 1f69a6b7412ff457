import FoundationEssentials

/// What a person record says, without the bookkeeping that a rewrite may change while the
/// content stays: the creation and modification dates, the next multi-value identifier, the
/// identifiers and the order of the entries (a card does not carry identifiers, so two clones
/// that take the same values from a card may number and order them differently), and the
/// origin of its values in the card they came from (how the lines were written, not what they
/// say).
///
/// Sync and the Git merge driver compare records through it, so that a change is told from a
/// rewrite by content, not by file bytes.
///
/// ```swift
/// if RecordContent.same(merged, person.state) { return }  // nothing to write
/// ```
enum RecordContent {
    /// The person without its bookkeeping: each multi-value's entries in the order of
    /// ``sortKey(of:)``, numbered 0, 1, 2….
    static func of(_ state: PersonState) -> PersonState {
        var content = state
        content.values[.creationDate] = nil
        content.values[.modificationDate] = nil
        content.nextValueIdentifier = 0
        content.unknownFields[VCardOrigin.key] = nil
        for (property, value) in content.values {
            content.values[property] = renumbered(value)
        }
        return content
    }

    /// Whether two versions of a person say the same.
    static func same(_ a: PersonState, _ b: PersonState) -> Bool {
        a == b || of(a) == of(b)
    }

    private static func renumbered(_ value: PropertyValue) -> PropertyValue {
        switch value {
        case .multiString(let multi): .multiString(renumbered(multi))
        case .multiDate(let multi): .multiDate(renumbered(multi))
        case .multiAddress(let multi): .multiAddress(renumbered(multi))
        case .multiInstantMessage(let multi): .multiInstantMessage(renumbered(multi))
        case .multiSocialProfile(let multi): .multiSocialProfile(renumbered(multi))
        case .string, .timestamp, .date, .kind: value
        }
    }

    /// The text an entry sorts by, the same on every machine: its label and its value.
    static func sortKey<Value>(of entry: MultiValue<Value>.Entry) -> String {
        (entry.label.map { String(describing: $0) } ?? "") + "\u{0}" + String(describing: entry.value)
    }

    private static func renumbered<Value>(_ multi: MultiValue<Value>) -> MultiValue<Value> {
        let sorted = multi.entries.sorted { sortKey(of: $0).utf8.lexicographicallyPrecedes(sortKey(of: $1).utf8) }
        let entries = sorted.enumerated().map { index, entry in
            MultiValue<Value>.Entry(
                identifier: MultiValueIdentifier(rawValue: Int32(truncatingIfNeeded: index)), label: entry.label,
                value: entry.value, unknownFields: entry.unknownFields)
        }
        return MultiValue(entries: entries, nextIdentifier: 0)
    }
}
