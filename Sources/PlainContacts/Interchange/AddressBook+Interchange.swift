import FoundationEssentials

extension AddressBook {
    /// Imports contacts from a file in any format ``ContactFileFormat`` names, and saves them.
    ///
    /// A vCard is imported as ``importVCards(from:source:options:decide:)`` does. A CSV, LDIF,
    /// abook or mutt alias file is first turned into cards, then imported the same way (one
    /// save, matching by UID or name, groups created); warnings and errors name `source` and
    /// the line of the original file. A column or attribute the model has no place for stays
    /// with the person as an `X-IMPORTED-FIELD` line, which export writes back.
    ///
    /// ```swift
    /// let report = try book.importContacts(from: data, source: "google.csv")   // format found from the content
    /// let other = try book.importContacts(from: aliases, source: "aliases", format: .mutt)
    /// ```
    ///
    /// - Parameters:
    ///   - data: The file's bytes: UTF-8, UTF-16 with a byte order mark, or (with a warning)
    ///     Windows-1252, Shift_JIS and the other charsets the importer recognises.
    ///   - source: The name of the input (a file name) used in warnings and errors.
    ///   - format: The format; `nil` to find it from the content, with `source` as a hint (a
    ///     file that says nothing is read as vCard).
    ///   - options: What to do with matches and malformed input; with
    ///     ``VCardImportOptions/strict`` the first problem refuses the whole input.
    ///   - decide: Asked about each contact that matches a person.
    /// - Throws: ``PlainContactsError/Code/malformedInput`` naming `source` and the line when the
    ///   file holds no contact, or (strict) needs a recovery; the
    ///   errors of ``importVCards(from:source:options:decide:)``.
    public func importContacts(
        from data: Data, source: String, format: ContactFileFormat? = nil,
        options: VCardImportOptions = VCardImportOptions(), decide: ((VCardMatch) throws -> VCardMatchDecision)? = nil
    ) throws -> VCardImportReport {
        // When nothing tells, the vCard reader names the first line it cannot read.
        let format = format ?? ContactFileFormat.detect(data, fileName: source) ?? .vcard
        guard format != .vcard else {
            return try importVCards(from: data, source: source, options: options, decide: decide)
        }
        let converted = try ContactConverter.convert(Array(data), source: source, format: format, strict: options.strict)
        // A match names the line of the original file, as warnings do.
        let relocatedDecide = decide.map { decide in
            { (match: VCardMatch) throws -> VCardMatchDecision in
                try decide(match.located(source: match.source, line: converted.sourceLine(ofLine: match.line)))
            }
        }
        do {
            var report = try importVCards(
                from: Data(converted.vCardText), source: source, options: options, decide: relocatedDecide)
            report.warnings = converted.warnings + report.warnings.map(converted.relocated)
            report.invalidCards = report.invalidCards.map(converted.relocated)
            report.formatsRead = ["\(source): \(converted.formatRead)"]
            return report
        } catch let error as InterchangeError {
            throw converted.relocated(error)
        }
    }

    /// Imports several inputs (files, standard input), each in its own format, in one save.
    ///
    /// Each input is read on its own first, as an import of it alone would read it: a card in
    /// another format is turned into a vCard as ``importContacts(from:source:format:options:decide:)``
    /// does, and a malformed card is reported with the input's name, its line and message
    /// (and, without ``VCardImportOptions/skipInvalid``, before anything is imported). The
    /// inputs are then imported together: one save, matching across inputs as within one.
    /// Warnings, errors, invalid cards and the matches given to `decide` name the input and the
    /// line of the original file. An input that ends inside a card loses that card, never the
    /// next input's first one; read leniently (not ``VCardImportOptions/strict``), the card is
    /// ended for it, with a warning.
    ///
    /// ```swift
    /// let report = try book.importContacts(from: [
    ///     ContactInput(name: "phone.vcf", data: phone), ContactInput(name: "google.csv", data: google),
    /// ])
    /// ```
    ///
    /// - Parameters:
    ///   - inputs: The inputs, imported in this order.
    ///   - format: The format of every input; `nil` to find each one's from its content, with
    ///     its name as a hint.
    ///   - options: What to do with matches and malformed input.
    ///   - decide: Asked about each contact that matches a person.
    /// - Throws: the errors of ``importContacts(from:source:format:options:decide:)``, naming
    ///   the input and its line.
    public func importContacts(
        from inputs: [ContactInput], format: ContactFileFormat? = nil,
        options: VCardImportOptions = VCardImportOptions(), decide: ((VCardMatch) throws -> VCardMatchDecision)? = nil
    ) throws -> VCardImportReport {
        var conversionWarnings: [InterchangeError] = []
        var formatsRead: [String] = []
        let texts = try inputs.map { input in
            let format = format ?? ContactFileFormat.detect(input.data, fileName: input.name) ?? .vcard
            guard format != .vcard else { return JoinedContactInputs.Input(name: input.name, data: input.data) }
            let converted = try ContactConverter.convert(
                Array(input.data), source: input.name, format: format, strict: options.strict)
            conversionWarnings += converted.warnings
            formatsRead.append("\(input.name): \(converted.formatRead)")
            return JoinedContactInputs.Input(name: input.name, data: Data(converted.vCardText), sourceLines: converted.sourceLines)
        }
        let joined = try JoinedContactInputs(texts, skipInvalid: options.skipInvalid, strict: options.strict)
        // A match names the input and its line, as warnings do.
        let relocatedDecide = decide.map { decide in
            { (match: VCardMatch) throws -> VCardMatchDecision in
                let location = joined.location(ofLine: match.line)
                return try decide(match.located(source: location?.name ?? match.source, line: location?.line ?? match.line))
            }
        }
        do {
            var report = try importVCards(from: joined.data, source: joined.source, options: options, decide: relocatedDecide)
            report.warnings = conversionWarnings + joined.warnings + report.warnings.map(joined.relocated)
            // The inputs' own reading found the malformed cards, with their names and lines.
            report.invalidCards = joined.invalidCards
            report.formatsRead = formatsRead
            return report
        } catch let error as InterchangeError {
            throw joined.relocated(error)
        } catch let error as ContactsError {
            throw joined.relocated(error)
        }
    }
}

/// The CSV layouts ``AddressBook/exportCSV(_:layout:)`` writes.
public enum CSVLayoutName: String, Sendable, CaseIterable {
    /// Google Contacts' current layout, which Google, Outlook.com and iCloud import.
    case google
    /// Outlook's layout with English headers, which Outlook and Outlook.com import.
    case outlook
}

extension AddressBook {
    /// People as CSV in Google's or Outlook's layout, with their groups; importing the text
    /// into another store gives the same people for every field the layout carries.
    ///
    /// ```swift
    /// let text = try book.exportCSV(book.allPeople(sortedBy: nil), layout: .google)
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/recordInAnotherBook`` for a person of another book.
    public func exportCSV(_ people: [Person], layout: CSVLayoutName = .google) throws -> String {
        try requireOwnPeople(people)
        let byMember = groupNamesByMember()
        let groupNames: (Person) -> [String] = { person in person.key.flatMap { byMember[$0] } ?? [] }
        switch layout {
        case .google: return GoogleCSVExporter.csv(for: people, groupNames: groupNames)
        case .outlook: return OutlookCSVExporter.csv(for: people, groupNames: groupNames)
        }
    }
}
