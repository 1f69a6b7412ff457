import FoundationEssentials

/// Importing and exporting vCards.
///
/// Cards map to people property by property (`N`, `TEL`, `ADR`, Apple's item labels…); every
/// property the model has no place for is kept with the person, in the record's `"vcard"`
/// field, and written back on export; a mapped value whose line says more than export would
/// write keeps that line in `"vcardOrigin"`; and the card's `UID` is kept in the record's
/// `"uid"` field, so a card survives an import and export round trip and a re-import updates
/// the person it created. A group created from a group card keeps its UID under the group
/// record's `"uid"` key.
extension AddressBook {
    /// Imports the vCards (2.1, 3.0 or 4.0) in `data` and saves them.
    ///
    /// Each person card is added as a new person, unless it matches a person already in the
    /// book: by UID (the person imported from a card with the same `UID`, or exported with it),
    /// or else by the same normalized first and last name (name hash). A UID match is merged
    /// (see ``VCardMatchPolicy/merge``) unless ``VCardImportOptions/onMatch`` is
    /// ``VCardMatchPolicy/skip``; a name match follows ``VCardImportOptions/onMatch``. When
    /// `decide` is given, it is asked about every match instead. Name matches look only at
    /// people who were in the book before the import; UID matches also at people added by
    /// earlier cards of the same import.
    ///
    /// What breaks a card's syntax or encoding (missing `END:VCARD`, lines without `:`, odd
    /// line ends, bad quoted-printable or base64, an unknown charset, a nameless group card…) is
    /// recovered from, each recovery a warning in ``VCardImportReport/warnings`` naming the line;
    /// with ``VCardImportOptions/strict`` it refuses the whole input instead. Input that holds
    /// no card at all is refused either way.
    ///
    /// `CATEGORIES` become group memberships; a group with the exact name is created when the
    /// book has none. Group cards (`KIND:group`, Apple's `X-ADDRESSBOOKSERVER-KIND:group`)
    /// become groups whose members are the people with the listed UIDs.
    ///
    /// The import is all or nothing: the book must have no unsaved changes, every card is read
    /// first, then one save writes the people and groups and a second one the memberships.
    /// When anything fails before or in the first save, nothing is written and the book is as
    /// before. When only the second save fails, the report's
    /// ``VCardImportReport/membershipError`` says so.
    ///
    /// ```swift
    /// let report = try book.importVCards(from: data, source: "export.vcf",
    ///                                    options: VCardImportOptions(onMatch: .createNew))
    /// print("\(report.added.count) people added")
    /// ```
    ///
    /// - Parameters:
    ///   - data: The vCard text, UTF-8 (old files in other charsets as their `CHARSET` says).
    ///   - source: The name of the input (a file name) used in errors.
    ///   - options: What to do with matches and malformed cards.
    ///   - decide: Asked about each card that matches a person; throwing from it stops the import
    ///     and writes nothing.
    /// - Returns: What was added, updated, skipped and created.
    /// - Throws: ``ContactsError/Code/invalidValue`` when the book has unsaved changes;
    ///   ``PlainContactsError/Code/malformedVCard`` (with `path` and `line`) for input without a
    ///   card, or with ``VCardImportOptions/strict`` for a malformed card (unless
    ///   ``VCardImportOptions/skipInvalid`` is set, which skips it); ``ContactsError/Code/busy``,
    ///   ``ContactsError/Code/io`` and the other errors of ``save()``; whatever `decide` throws.
    public func importVCards(
        from data: Data, source: String, options: VCardImportOptions = VCardImportOptions(),
        decide: ((VCardMatch) throws -> VCardMatchDecision)? = nil
    ) throws -> VCardImportReport {
        var reader = VCardStreamReader(data: data, source: source)
        return try VCardBookImport(book: self, source: source, options: options, decide: decide).run(&reader)
    }

    /// Imports the vCards of a file and saves them, reading the file in chunks so that the text
    /// of all cards is never in memory at once.
    ///
    /// Everything else is as ``importVCards(from:source:options:decide:)`` describes; errors
    /// name the file's path.
    ///
    /// ```swift
    /// let report = try book.importVCards(contentsOf: URL(filePath: "contacts.vcf"))
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/io`` when the file cannot be read, and the errors of
    ///   ``importVCards(from:source:options:decide:)``.
    public func importVCards(
        contentsOf url: URL, options: VCardImportOptions = VCardImportOptions(),
        decide: ((VCardMatch) throws -> VCardMatchDecision)? = nil
    ) throws -> VCardImportReport {
        guard !hasUnsavedChanges else {
            throw ContactsError(
                .invalidValue, "the address book has unsaved changes; save or revert before importing", path: url.path)
        }
        var reader = try VCardStreamReader(contentsOf: url)
        return try VCardBookImport(book: self, source: url.path, options: options, decide: decide).run(&reader)
    }
}
