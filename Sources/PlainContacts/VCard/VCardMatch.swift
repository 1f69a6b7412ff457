/// A card that matches a person already in the book, as the import's `decide` closure sees it.
///
/// The closure answers with a ``VCardMatchDecision``; the `contacts import --on-match ask`
/// command shows ``card`` beside ``existing`` and asks.
///
/// ```swift
/// let report = try book.importVCards(from: data, source: "export.vcf") { match in
///     match.matchedBy == .uid ? .merge : .createNew
/// }
/// ```
///
/// A match holds persons, so it is not `Sendable`; use it inside the closure.
public struct VCardMatch {
    /// How a card matched a person.
    public enum Reason: Sendable, Hashable, CaseIterable {
        /// The card's UID equals the person's.
        case uid
        /// The card's normalized first and last name equal the person's.
        case name
    }

    /// Whether the card matched by UID or by name.
    public let matchedBy: Reason
    /// The record ID of the matching person; ``RecordID/invalid`` when the person was added by
    /// an earlier card of the same import (same UID).
    public let existingRecordID: RecordID
    /// The composite name of the matching person.
    public let existingName: String?
    /// The composite name of the card.
    public let cardName: String?
    /// The file (or name) the card was read from.
    public let source: String
    /// The 1-based line of the card's `BEGIN:VCARD`.
    public let line: Int
    /// The matching person, as it is in the book now.
    public let existing: Person
    /// The card's values as a person that belongs to no book.
    public let card: Person

    /// Creates a match description.
    public init(
        matchedBy: Reason, existingRecordID: RecordID, existingName: String?, cardName: String?, source: String,
        line: Int, existing: Person, card: Person
    ) {
        self.matchedBy = matchedBy
        self.existingRecordID = existingRecordID
        self.existingName = existingName
        self.cardName = cardName
        self.source = source
        self.line = line
        self.existing = existing
        self.card = card
    }
}

extension VCardMatch {
    /// The same match named by `source` and `line`: the input and the line of the original
    /// file the card came from, for an import that turned or joined its inputs into one text.
    func located(source: String, line: Int) -> VCardMatch {
        VCardMatch(
            matchedBy: matchedBy, existingRecordID: existingRecordID, existingName: existingName, cardName: cardName,
            source: source, line: line, existing: existing, card: card)
    }
}

/// The answer to a ``VCardMatch``.
public enum VCardMatchDecision: Sendable, Hashable, CaseIterable {
    /// Merge the card into the matching person.
    case merge
    /// Add the card as a new person.
    case createNew
    /// Import nothing from the card.
    case skip
}
