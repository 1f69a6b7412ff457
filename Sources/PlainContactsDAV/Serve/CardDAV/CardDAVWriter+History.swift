#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts

/// The web pages' writes that bring back what the history holds (an earlier version of a
/// person, a removed person) and that merge two people: each one save under the writer's lock,
/// reported to `afterWrite` as made on the web pages, the cards brought up to date for the
/// CardDAV clients.
extension CardDAVWriter {
    /// Gives the person whose file has `key` the values and photo of an earlier version of
    /// their file (`data`, read from the history at `path`, with the files of the same commit
    /// that go with it, `files`), reported as `restore NAME`
    /// (``AddressBook/restorePerson(_:toVersion:path:files:)``).
    ///
    /// - Parameter etag: the ETag of the person's card when the page was shown; when the card's
    ///   is another now, nothing is changed and ``EditConflict`` is thrown.
    /// - Throws: ``EditConflict``; a 404 failure when there is no such person; the errors of
    ///   reading the version and of the save.
    func restore(
        personWithKey key: RecordKey, ifMatch etag: String?, toVersion data: Data, path: String, files: [String: Data] = [:], client: Client
    ) throws {
        try changePerson(withKey: key, ifMatch: etag, client: client) { book, person in
            try book.restorePerson(person, toVersion: data, path: path, files: files)
            return "restore \(person.compositeName ?? "a person without a name")"
        }
    }

    /// Adds back a removed person from the last version of their file (`data`, read from the
    /// history at `path`), with the photo and the groups still in the book that the files of
    /// the same commit (`files`) give them, in one save, reported as `restore NAME`
    /// (``AddressBook/restorePerson(_:toVersion:path:files:)``).
    ///
    /// - Returns: the key of the person's file, their old one unless another record took it.
    /// - Throws: the errors of reading the version and of the save.
    func restoreRemoved(fromVersion data: Data, path: String, files: [String: Data] = [:], client: Client) throws -> RecordKey {
        try book.withLock { open in
            var name = ""
            let (record, files) = try saving(in: &open) { book in
                try noting(nil, in: book) {
                    let person = try book.restorePerson(nil, toVersion: data, path: path, files: files)
                    try book.save()
                    name = person.compositeName ?? "a person without a name"
                    guard let key = person.key else { throw CardDAVFailure(status: 500) }
                    return CardDAVEntry.Record(kind: .person, key: key)
                }
            }
            report("restore \(name)", record, files, client, isWeb: true)
            _ = try collection.record(CardDAVCollection.Written(record: record))
            return record.key
        }
    }

    /// Merges the person whose file has `duplicateKey` into the one whose file has `survivorKey`,
    /// keeping for each property of `choices` the value chosen
    /// (``AddressBook/mergePerson(_:into:choosing:)``), reported as `merge NAME into NAME`.
    ///
    /// - Parameter etags: the ETags of the two cards when the page was shown, by key; when
    ///   either card's is another now, nothing is changed and ``EditConflict`` is thrown.
    /// - Throws: ``EditConflict``; a 404 failure when either person is gone; the errors of the
    ///   merge and of the save.
    func merge(
        personWithKey duplicateKey: RecordKey, into survivorKey: RecordKey, ifMatch etags: [RecordKey: String],
        choosing choices: [PropertyID: PersonMergeChoice], client: Client
    ) throws {
        let survivorRecord = CardDAVEntry.Record(kind: .person, key: survivorKey)
        let duplicateRecord = CardDAVEntry.Record(kind: .person, key: duplicateKey)
        try book.withLock { open in
            let entries = try collection.listing().entries.values
            for record in [survivorRecord, duplicateRecord] {
                guard let current = entries.first(where: { $0.record == record }) else { throw CardDAVFailure(status: 404) }
                if let etag = etags[record.key], current.etag != etag { throw EditConflict(currentETag: current.etag) }
            }
            var said = ""
            var files: [String] = []
            try saving(in: &open) { book in
                guard let survivor = try book.person(forKey: survivorKey), let duplicate = try book.person(forKey: duplicateKey) else {
                    throw CardDAVFailure(status: 404)
                }
                said = "merge \(duplicate.compositeName ?? "a person without a name") into \(survivor.compositeName ?? "a person without a name")"
                guard afterWrite != nil else {
                    try book.mergePerson(duplicate, into: survivor, choosing: choices)
                    return try book.save()
                }
                let touched = [survivorRecord, duplicateRecord].map { CardDAVTouchedFiles(layout: layout, before: $0, in: book) }
                try book.mergePerson(duplicate, into: survivor, choosing: choices)
                try book.save()
                files = Set(touched[0].changed(after: survivorRecord, in: book) + touched[1].changed(after: duplicateRecord, in: book)).sorted()
            }
            report(said, survivorRecord, files, client, isWeb: true)
            _ = try collection.record(CardDAVCollection.Written(record: duplicateRecord))
            _ = try collection.record(CardDAVCollection.Written(record: survivorRecord))
        }
    }
}
