import FoundationEssentials

/// What a person record says, without the bookkeeping that a rewrite may change while the
/// content stays: the creation and modification dates, the next multi-value identifier, the
/// identifiers of the entries (a card does not carry them, so two clones that take the same
/// value from a card may number it differently), and the origin of its values in the card they
/// came from (how the lines were written, not what they say).
///
/// Sync and the Git merge driver compare records through it, so that a change is told from a
/// rewrite by content, not by file bytes.
///
/// ```swift
/// if RecordContent.same(merged, person.state) { return }  // nothing to write
/// ```
enum RecordContent {
    /// The person without its bookkeeping, entries numbered 0, 1, 2… in order.
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

    private static func renumbered<Value>(_ multi: MultiValue<Value>) -> MultiValue<Value> {
        let entries = multi.entries.enumerated().map { index, entry in
            MultiValue<Value>.Entry(
                identifier: MultiValueIdentifier(rawValue: Int32(truncatingIfNeeded: index)), label: entry.label,
                value: entry.value, unknownFields: entry.unknownFields)
        }
        return MultiValue(entries: entries, nextIdentifier: 0)
    }
}
