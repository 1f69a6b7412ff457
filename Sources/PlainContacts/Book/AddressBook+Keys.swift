import FoundationEssentials
import PlainContactsSystem

/// Records by file key: what the CardDAV client and server ask of a book, since a card on a
/// server names its record by the key it carries, never by a record ID.
///
/// ```swift
/// for key in book.personKeys.sorted() {
///     guard let person = try book.person(forKey: key) else { continue }
///     print(key, person.compositeName ?? "")
/// }
/// ```
extension AddressBook {
    /// The file key of every saved person not removed since, read from the store's catalog.
    package var personKeys: [RecordKey] {
        catalogKeys
    }

    /// The person with a file key, reading its file on first use; `nil` when there is none or it
    /// was removed from this book.
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` or ``ContactsError/Code/conflictMarkers``
    ///   when the person's file cannot be read.
    package func person(forKey key: RecordKey) throws -> Person? {
        try materialize(key)
    }

    /// The person with a file key, for a caller that cannot stop at a damaged file: one that
    /// cannot be read gives `nil` and is kept in ``lastLoadError``.
    package func readablePerson(forKey key: RecordKey) -> Person? {
        materializeQuietly(key)
    }

    /// The saved group with a file key; `nil` when there is none or it was removed.
    package func group(forKey key: RecordKey) -> Group? {
        groups.byKey[key]
    }

    /// The file keys of a saved group's members as this book has them (unsaved additions and
    /// removals included); empty for a group without members or without a file.
    package func memberKeys(ofGroupWithKey key: RecordKey) -> Set<RecordKey> {
        memberships.members(of: key) ?? []
    }

    /// The fingerprint of a person's file as this book last read or saved it: the version a
    /// sync compares with the file's bytes; `nil` when the person was not read from a file.
    func savedFingerprint(ofPersonWithKey key: RecordKey) -> Fingerprint? {
        people.saved[key]?.fingerprint
    }

    /// The fingerprint of a person's file as this book last read or saved it, while the person
    /// still holds what that file holds (same record ID and contents); `nil` otherwise.
    func savedFingerprint(of person: Person) -> Fingerprint? {
        guard let key = person.key, let saved = people.saved[key], saved.id == person.recordID, saved.state == person.state else {
            return nil
        }
        return saved.fingerprint
    }

    /// The fingerprint of a person's record file: of the bytes this book last read or saved
    /// while the person still holds them (``savedFingerprint(of:)``), else of the bytes a save
    /// would write now. A sync that recorded file fingerprints compares it with the one it
    /// recorded.
    ///
    /// ```swift
    /// let changed = book.recordFileFingerprint(of: person) != recorded
    /// ```
    package func recordFileFingerprint(of person: Person) -> Fingerprint {
        savedFingerprint(of: person) ?? Fingerprint(PersonRecordCoder.encode(id: person.recordID, state: person.state))
    }

    /// The signature of a person's file as the catalog's look at every file found it (see
    /// ``personKeys``, which makes the catalog): `nil` before that, or for a key it does not
    /// hold. A sync compares it with the one it recorded, without a `stat` of its own.
    func fileSignature(ofPersonWithKey key: RecordKey) -> FileSignature? {
        catalog?[key]?.signature
    }

    /// Where a person's file is (or would be), for messages that name it.
    func personFilePath(forKey key: RecordKey) -> String {
        layout.personFile(key).path(percentEncoded: false)
    }

    /// What this book knows of a person's record file, without reading or looking at it:
    /// where it is (or would be); its signature as the catalog found it
    /// (``fileSignature(ofPersonWithKey:)``); and the fingerprint of the version this book last
    /// read or saved (``savedFingerprint(ofPersonWithKey:)``), `nil` when it read none. A sync
    /// compares the signature with the one it recorded; a server compares the fingerprint with
    /// the file's bytes.
    ///
    /// ```swift
    /// let file = book.recordFile(ofPersonWithKey: key)
    /// let unchanged = file.signature == recorded
    /// ```
    package func recordFile(
        ofPersonWithKey key: RecordKey
    ) -> (path: String, signature: FileSignature?, savedFingerprint: Fingerprint?) {
        (personFilePath(forKey: key), fileSignature(ofPersonWithKey: key), savedFingerprint(ofPersonWithKey: key))
    }
}
