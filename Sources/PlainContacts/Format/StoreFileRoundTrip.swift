import FoundationEssentials

/// A store file read and written again, as the store itself would: what the fuzzers of
/// damaged files check, that whatever the store accepts it can also write back and read.
///
/// ```swift
/// let data = try Data(contentsOf: storeURL.appending(path: "people/ada-lovelace-8f2k1c.json"))
/// if let failure = try StoreFileRoundTrip.reread(data, as: .person, path: "people/ada-lovelace-8f2k1c.json") {
///     print("the store cannot read back what it wrote: \(failure)")
/// }
/// ```
package enum StoreFileRoundTrip {
    /// The kinds of file a store keeps for its records and settings.
    package enum Kind: Sendable, CaseIterable {
        /// A person's record file, `people/<key>.json`.
        case person
        /// A group's record file, `groups/<key>.json`.
        case group
        /// A group's membership file, `groups/<key>.members`.
        case members
        /// The store's manifest, `store.json`.
        case manifest
    }

    /// The manifest of a new store, as `contacts init` writes it.
    static var newManifest: Data { Manifest().data }

    /// A person read from the bytes of a record file, not in any book.
    ///
    /// ```swift
    /// let person = try StoreFileRoundTrip.person(fromRecordFile: data, path: "people/ada-lovelace-8f2k1c.json")
    /// print(person.firstName ?? "")
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` or ``ContactsError/Code/conflictMarkers``.
    package static func person(fromRecordFile data: Data, path: String) throws -> Person {
        Person(state: try PersonRecordCoder.decode(data, path: path).state)
    }

    /// The bytes of the record file a save writes for a person with record ID `id` holding
    /// `state`: what ``person(fromRecordFile:path:)`` reads back.
    ///
    /// ```swift
    /// let data = StoreFileRoundTrip.recordFile(id: person.recordID, state: person.state)
    /// let again = try StoreFileRoundTrip.person(fromRecordFile: data, path: "people/ada-lovelace-8f2k1c.json")
    /// ```
    package static func recordFile(id: RecordID, state: PersonState) -> Data {
        PersonRecordCoder.encode(id: id, state: state)
    }

    /// Reads `data` as a file of `kind` (`path` names it in errors); when it reads, writes what
    /// was read (a person after `edit` has changed it) and reads those bytes back.
    ///
    /// ```swift
    /// let failure = try StoreFileRoundTrip.reread(data, as: .person, path: path) { person in
    ///     person.nickname = "Ada"
    /// }
    /// ```
    ///
    /// - Returns: `nil` when the bytes written read back, else the error reading them: a file
    ///   the store writes but cannot read.
    /// - Throws: the error of the first read, for a file the store refuses
    ///   (``ContactsError/Code/malformedFile``, ``ContactsError/Code/conflictMarkers``,
    ///   ``ContactsError/Code/unsupportedFormatVersion``).
    package static func reread(
        _ data: Data, as kind: Kind, path: String, editing edit: (Person) -> Void = { _ in }
    ) throws -> (any Error)? {
        let written: Data
        let read: (Data) throws -> Void
        switch kind {
        case .person:
            let decoded = try PersonRecordCoder.decode(data, path: path)
            let person = Person(state: decoded.state)
            edit(person)
            written = PersonRecordCoder.encode(id: decoded.id, state: person.state)
            read = { _ = try PersonRecordCoder.decode($0, path: path) }
        case .group:
            let decoded = try GroupRecordCoder.decode(data, path: path)
            written = GroupRecordCoder.encode(id: decoded.id, state: decoded.state)
            read = { _ = try GroupRecordCoder.decode($0, path: path) }
        case .members:
            written = MembershipFile.encode(try MembershipFile.decode(data, path: path))
            read = { _ = try MembershipFile.decode($0, path: path) }
        case .manifest:
            written = try Manifest(data: data, path: path).data
            read = { _ = try Manifest(data: $0, path: path) }
        }
        do {
            try read(written)
            return nil
        } catch {
            return error
        }
    }
}
