/// What one vCard becomes on import: a person, or a group of people.
///
/// ```swift
/// switch try VCardImporter.map(card, source: "export.vcf") {
/// case .person(let imported): try book.add(imported.person)
/// case .group(let group): print(group.name, group.memberUIDs.count)
/// }
/// ```
enum ImportedCard {
    /// An individual or organization card.
    case person(ImportedPerson)
    /// A group card (vCard 4 `KIND:group`, or Apple's `X-ADDRESSBOOKSERVER-KIND:group`).
    case group(ImportedGroup)
}

/// A person read from a vCard, not yet in any address book.
struct ImportedPerson {
    /// The person with the card's values; the UID and unmapped lines are already stored in its
    /// record fields (see ``VCardRecordFields``).
    var person: Person
    /// The card's `UID`, if any.
    var uid: String?
    /// The card's `CATEGORIES`, in order, without duplicates or empty names.
    var groupNames: [String]
    /// The 1-based line of the card's `BEGIN:VCARD`.
    var line: Int
    /// What the mapping recovered from (lenient mapping only), each a warning naming its line.
    var warnings: [InterchangeError] = []
}

/// A group read from a group vCard.
struct ImportedGroup {
    /// The group's name, from `FN`, else from `N`.
    var name: String
    /// The card's `UID`, if any.
    var uid: String?
    /// The UIDs of the members as written, such as `urn:uuid:…` (`MEMBER` or
    /// `X-ADDRESSBOOKSERVER-MEMBER`).
    var memberUIDs: [String]
    /// The card's `X-IMPORTED-FIELD` lines as written: what an import of another format kept
    /// of a list (see ``KeptField``), stored with the group.
    var keptLines: [String] = []
    /// The 1-based line of the card's `BEGIN:VCARD`.
    var line: Int
    /// What the mapping recovered from (lenient mapping only), each a warning naming its line.
    var warnings: [InterchangeError] = []
}
