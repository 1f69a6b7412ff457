import PlainContacts

/// Finds the people a command names by record ID, or by name where the command allows it.
///
/// Errors name the ID but never echo a name: what the user typed may be someone's name.
enum PersonLookup {
    /// The record ID written in `text`.
    ///
    /// - Throws: a usage error when `text` is not a positive whole number.
    static func recordID(_ text: String) throws(CLIError) -> RecordID {
        guard let value = Int32(text), value > 0 else {
            throw CLIError.usage("a person is named by its record ID, a positive whole number (find it with `contacts search`)")
        }
        return RecordID(value)
    }

    /// The person with the record ID written in `text`.
    ///
    /// - Throws: a usage error for a malformed ID; exit status 66 when no person has it; the
    ///   reading error when the person's file cannot be read.
    static func person(id text: String, in book: AddressBook) throws(CLIError) -> Person {
        let id = try recordID(text)
        guard let person = book.person(withID: id) else {
            try checkReads(book)
            throw CLIError.noInput("no person has ID \(id)")
        }
        return person
    }

    /// Throws the reading error the book met while collecting people: a person left out
    /// because their file cannot be read must never look absent.
    static func checkReads(_ book: AddressBook) throws(CLIError) {
        if let error = book.lastLoadError { throw CLIError.library(error) }
    }

    /// The people with the record IDs written in `texts`, all or nothing.
    ///
    /// - Throws: a usage error for a malformed ID; exit status 66 naming the first missing ID.
    static func people(ids texts: [String], in book: AddressBook) throws(CLIError) -> [Person] {
        var people: [Person] = []
        for text in texts {
            let person = try person(id: text, in: book)
            if !people.contains(where: { $0 === person }) { people.append(person) }
        }
        return people
    }

    /// The person named by `text`: a record ID when it is a number, else the one person whose
    /// name matches (the library's name search).
    ///
    /// - Throws: exit status 66 when nobody matches; a usage error listing the candidates (ID
    ///   and composite name, which the user asked to see) when several people match.
    static func person(idOrName text: String, in book: AddressBook) throws(CLIError) -> Person {
        if let value = Int32(text), value > 0 {
            return try person(id: text, in: book)
        }
        let matches = book.people(matchingName: text)
        switch matches.count {
        case 0:
            try checkReads(book)
            throw CLIError.noInput("nobody's name matches; try `contacts search` with fewer words")
        case 1:
            return matches[0]
        default:
            throw CLIError(
                status: .usage,
                message: "\(matches.count) people match; be more specific or use an ID:",
                details: matches.map { "  \($0.recordID)\t\($0.compositeName ?? "")" })
        }
    }
}
