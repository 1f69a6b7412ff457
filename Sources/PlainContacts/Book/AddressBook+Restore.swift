import FoundationEssentials

/// Bringing back an earlier version of a person, or a removed person, from the bytes a version
/// of their record file had (read from the store's Git history by the caller): each a change
/// the next save writes, never a rewrite of the history.
extension AddressBook {
    /// The person an earlier version of a record file holds, in no book: what a history page
    /// shows of a version.
    ///
    /// ```swift
    /// let katie = try AddressBook.person(inVersion: data, path: "people/katie-bell-9dw42k.json")
    /// katie.compositeName   // "Katie Bell"
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` or ``ContactsError/Code/conflictMarkers``
    ///   when `data` is not a readable person record.
    package static func person(inVersion data: Data, path: String) throws -> Person {
        let decoded = try PersonRecordCoder.decode(data, path: path)
        var state = decoded.state
        // The version's image file is not read from the history.
        state.image = .none
        return Person(state: state, key: RecordKey(rawValue: Self.key(ofPath: path)), recordID: decoded.id)
    }

    /// Gives `person` back the values an earlier version of their record file holds; takes
    /// effect on the next save.
    ///
    /// The record keeps its file, record ID and creation date; its properties become the
    /// version's, with the version's multi-value identifiers (the record's counter never goes
    /// back, so no identifier retired since is given out again), and its unknown keys. The
    /// photo stays as it is now, and so do the keys of people merged into it.
    ///
    /// ```swift
    /// try book.restore(katie, toVersion: data, path: "people/katie-bell-9dw42k.json")
    /// try book.save()
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` or ``ContactsError/Code/conflictMarkers``
    ///   when `data` is not a readable person record; ``ContactsError/Code/recordInAnotherBook``
    ///   when the person is not in this book; ``ContactsError/Code/operationNotPermittedByUser``
    ///   when the book may not be changed.
    package func restore(_ person: Person, toVersion data: Data, path: String) throws {
        try checkWritable()
        guard person.owner === self else {
            throw ContactsError(.recordInAnotherBook, "the person is not in this address book")
        }
        let version = try PersonRecordCoder.decode(data, path: path).state
        var state = person.state
        for property in PropertyID.personProperties where !property.isReadOnly {
            state.values[property] = version.values[property]
        }
        state.nextValueIdentifier = max(state.nextValueIdentifier, version.nextValueIdentifier)
        state.unknownFields = version.unknownFields
        person.state = state
    }

    /// Adds back a removed person from the last version of their record file; the next save
    /// writes them under their old file key and record ID when no record has taken them since
    /// (else under new ones), so that the file's history goes on. Their photo and their groups
    /// are not brought back.
    ///
    /// ```swift
    /// let katie = try book.restoreRemovedPerson(fromVersion: data, path: "people/katie-bell-9dw42k.json")
    /// try book.save()
    /// ```
    ///
    /// - Returns: The person added.
    /// - Throws: ``ContactsError/Code/malformedFile`` or ``ContactsError/Code/conflictMarkers``
    ///   when `data` is not a readable person record;
    ///   ``ContactsError/Code/operationNotPermittedByUser`` when the book may not be changed.
    package func restoreRemovedPerson(fromVersion data: Data, path: String) throws -> Person {
        let decoded = try PersonRecordCoder.decode(data, path: path)
        var state = decoded.state
        state.image = .none
        let person = Person(state: state)
        let key = RecordKey(rawValue: Self.key(ofPath: path))
        let placement = RecordPlacement(uid: key?.rawValue ?? path, carriedKey: key, carriedID: decoded.id)
        try add(person, placement: placement)
        return person
    }

    /// The key a record file's path names: its name without `.json`.
    private static func key(ofPath path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.hasSuffix(".json") ? String(name.dropLast(5)) : name
    }
}
