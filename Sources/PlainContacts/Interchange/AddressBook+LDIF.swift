import FoundationEssentials

/// Exporting LDIF.
///
/// LDIF (RFC 2849) is what Thunderbird, and through it many other mail clients, import and
/// export; importing it goes through ``ContactConverter`` like the other formats.
extension AddressBook {
    /// The LDIF text of people, as Thunderbird imports it (see ``LDIFExporter``): a
    /// `mozillaAbPersonAlpha` record per person, then a `groupOfNames` record for each group
    /// that holds any of them, listing those of them it holds. Fields kept from an earlier LDIF
    /// import, a person's or a list's (its `description`), are written back as their attributes.
    ///
    /// ```swift
    /// let text = try book.exportLDIF(book.allPeople(sortedBy: .lastNameFirst))
    /// try Data(text.utf8).write(to: URL(filePath: "contacts.ldif"))
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/recordInAnotherBook`` for a person of another book;
    ///   ``ContactsError/Code/io`` when a saved image cannot be read.
    public func exportLDIF(_ people: [Person]) throws -> String {
        let groupNames = groupNamesByMember()
        try requireOwnPeople(people)
        var entries: [LDIFExporter.Entry] = []
        entries.reserveCapacity(people.count)
        for person in people {
            let names = person.key.flatMap { groupNames[$0] } ?? []
            entries.append(LDIFExporter.Entry(person: person, groupNames: names, imageData: try person.imageData()))
        }
        var keptFields: [String: [KeptField]] = [:]
        for group in allGroups() {
            guard let name = group.name, keptFields[name] == nil else { continue }
            let fields = KeptField.fields(of: group, format: LDIFContactReader.format)
            if !fields.isEmpty { keptFields[name] = fields }
        }
        return LDIFExporter.ldif(entries, keptFields: keptFields)
    }
}
