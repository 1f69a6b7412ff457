/// What an import does with a card that matches a person already in the book.
///
/// A card matches a person when their UIDs are equal, or else when the card's normalized first
/// and last name (its name hash) equals the person's and is not empty.
///
/// ```swift
/// let report = try book.importVCards(from: data, source: "export.vcf",
///                                    options: VCardImportOptions(onMatch: .skip))
/// ```
public enum VCardMatchPolicy: Sendable, Hashable, CaseIterable {
    /// Merge the card into the person: the card's single values fill or replace the person's,
    /// its multi-values and groups are added to the person's.
    case merge
    /// Add the card as a new person beside the matching one. A UID match is merged anyway.
    case createNew
    /// Leave the person as it is and import nothing from the card.
    case skip
}

/// How ``AddressBook/importVCards(from:source:options:decide:)`` treats matches and bad cards.
///
/// ```swift
/// var options = VCardImportOptions()
/// options.onMatch = .createNew
/// options.skipInvalid = true
/// options.strict = true
/// ```
public struct VCardImportOptions: Sendable, Hashable {
    /// What to do with a card that matches a person; ``VCardMatchPolicy/merge`` by default.
    ///
    /// A card matched by UID is merged unless this is ``VCardMatchPolicy/skip``.
    public var onMatch: VCardMatchPolicy = .merge
    /// Whether a malformed card is left out and listed in ``VCardImportReport/invalidCards``
    /// instead of failing the whole import; `false` by default.
    public var skipInvalid = false
    /// Whether any problem in the input refuses it (`true`): a line without `:`, a card without
    /// `END:VCARD`, text not valid in its charset… fail the import with
    /// ``PlainContactsError/Code/malformedVCard`` naming the file and line, and nothing is written.
    /// `false` by default: the reader recovers from such problems as lenient readers do, and
    /// reports one warning per recovery in ``VCardImportReport/warnings``.
    public var strict = false

    /// Creates options; by default matches are merged and problems are recovered from.
    public init(onMatch: VCardMatchPolicy = .merge, skipInvalid: Bool = false, strict: Bool = false) {
        self.onMatch = onMatch
        self.skipInvalid = skipInvalid
        self.strict = strict
    }
}
