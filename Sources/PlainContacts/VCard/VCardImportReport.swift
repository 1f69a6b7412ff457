/// What an import did.
///
/// ```swift
/// let report = try book.importVCards(contentsOf: url)
/// print("\(report.added.count) added, \(report.updated.count) updated, \(report.skipped.count) skipped")
/// for error in report.invalidCards { print(error) }
/// for warning in report.warnings { print(warning) }
/// ```
public struct VCardImportReport: Sendable {
    /// The record IDs of the people added, in the order of their cards.
    public var added: [RecordID]
    /// The record IDs of people already in the book that cards were merged into, each once.
    public var updated: [RecordID]
    /// The record IDs of people that cards matched and that were left alone, each once.
    public var skipped: [RecordID]
    /// The malformed cards left out (only with ``VCardImportOptions/skipInvalid``), each an
    /// error with code ``PlainContactsError/Code/malformedVCard``, the file and the line.
    public var invalidCards: [InterchangeError]
    /// What the import recovered from or left out, each with the file and the line:
    /// a property whose text value was longer than 64 KiB, left out of its card (code
    /// ``ContactsError/Code/invalidValue``; the rest of the card is imported), and each problem
    /// the reader recovered from, saying what was done (code
    /// ``PlainContactsError/Code/malformedVCard``; none with ``VCardImportOptions/strict``).
    public var warnings: [InterchangeError]
    /// The names of the groups the import created, in the order they were first needed.
    public var groupsCreated: [String]
    /// The error of the second save, which writes group memberships, when it failed; the people
    /// and groups were saved by then, and the memberships stay as unsaved changes of the book.
    public var membershipError: ContactsError?
    /// How each input in a format other than vCard was read, as `source: format`, the layout
    /// in brackets when the content told it: `old.csv: csv (Thunderbird's columns without a
    /// header row)`.
    public var formatsRead: [String] = []

    /// Creates a report.
    public init(
        added: [RecordID] = [], updated: [RecordID] = [], skipped: [RecordID] = [],
        invalidCards: [InterchangeError] = [], warnings: [InterchangeError] = [], groupsCreated: [String] = [],
        membershipError: ContactsError? = nil
    ) {
        self.added = added
        self.updated = updated
        self.skipped = skipped
        self.invalidCards = invalidCards
        self.warnings = warnings
        self.groupsCreated = groupsCreated
        self.membershipError = membershipError
    }
}
