import FoundationEssentials

/// Merging an imported card into a person, as ``VCardMatchPolicy/merge`` does.
///
/// - Single values on the card (every text property, such as the name parts, organization or
///   note, and the birthday) replace the person's; values the card lacks stay.
///   A card of kind organization makes the person one. A photo on the card replaces the image
///   when its bytes differ.
/// - Multi-values are united: each card value the person does not have yet is appended with the
///   card's label. Phones compare by their digits only, emails ignoring case, other values
///   exactly.
/// - The kept vCard lines are united; the card's UID fills a missing one and never replaces it.
///
/// ```swift
/// try VCardMerge.merge(imported.person, into: katie)
/// ```
enum VCardMerge {
    /// Merges a card into a person, as described above.
    ///
    /// - Throws: ``ContactsError/Code/identifiersExhausted`` when the person has no multi-value
    ///   identifier left for a card's value.
    static func merge(_ card: Person, into target: Person) throws {
        let incoming = card.state
        for property in PropertyID.personProperties where property.type == .string || property.type == .date {
            if let value = incoming.values[property] { try? target.setValue(value, for: property) }
        }
        if card.kind == .organization { target.kind = .organization }
        target.phones = try united(target.phones, card.phones, same: samePhone)
        target.emails = try united(target.emails, card.emails) { $0.lowercased() == $1.lowercased() }
        target.urls = try united(target.urls, card.urls, same: ==)
        target.relatedNames = try united(target.relatedNames, card.relatedNames, same: ==)
        target.dates = try united(target.dates, card.dates, same: ==)
        target.addresses = try united(target.addresses, card.addresses, same: ==)
        target.instantMessages = try united(target.instantMessages, card.instantMessages, same: ==)
        target.socialProfiles = try united(target.socialProfiles, card.socialProfiles, same: ==)
        if case .pending(let data) = incoming.image, (try? target.imageData()) != data {
            target.setImageData(data)
        }
        var state = target.state
        let lines = VCardRecordFields.lines(of: state)
        var known = Set(lines)
        let newLines = VCardRecordFields.lines(of: incoming).filter { known.insert($0).inserted }
        if !newLines.isEmpty { VCardRecordFields.setLines(lines + newLines, in: &state) }
        if VCardRecordFields.uid(of: state) == nil, let uid = VCardRecordFields.uid(of: incoming) {
            VCardRecordFields.setUID(uid, in: &state)
        }
        if state != target.state { target.state = state }
    }

    /// The existing values followed by each incoming value that none of them equals.
    static func united<Value>(
        _ existing: MultiValue<Value>, _ incoming: MultiValue<Value>, same: (Value, Value) -> Bool
    ) throws -> MultiValue<Value> {
        var result = existing
        for entry in incoming where !result.values.contains(where: { same($0, entry.value) }) {
            if result.add(entry.value, label: entry.label) == .invalid { throw ContactsError.identifiersExhausted(path: nil) }
        }
        return result
    }

    /// Whether two phone numbers have the same digits (exact text when either has none).
    static func samePhone(_ a: String, _ b: String) -> Bool {
        let aDigits = digits(a)
        let bDigits = digits(b)
        if aDigits.isEmpty || bDigits.isEmpty { return a == b }
        return aDigits == bDigits
    }

    private static func digits(_ text: String) -> [UInt8] {
        text.utf8.filter { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
