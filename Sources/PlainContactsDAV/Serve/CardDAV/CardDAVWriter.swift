#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import PlainContacts

/// Carries out the server's writes to one store, one at a time: a card put, a card deleted.
///
/// The writer keeps the store's ``AddressBook``, opened once (``CardDAVOpenBook``, which reads
/// the store again only when others changed it). Each write runs in one line, under the
/// writer's lock: the card as it is now (``CardDAVCollection/card(named:)``), its preconditions,
/// the checks that keep one UID per card and a card's kind, the book brought up to date, one save
/// through the store's card operations (``AddressBook``'s `saveCard` and `applyGroupCard`, under
/// the store's lock, as any `contacts` command), the report of the write to `afterWrite`, then
/// ``CardDAVCollection/record(_:)``, which brings the card up to date. The handlers parse the
/// request before and write the response after; nothing calls back into them. Reads that need
/// the book (the birthday calendar) take the same lock (``withBook(_:)``).
///
/// ```swift
/// let writer = CardDAVWriter(collection: collection, layout: layout, options: options, name: .home)
/// let put = try writer.put(sent, named: "k.vcf", preconditions: CardDAVPreconditions(request), client: client)
/// put.created   // true: answer 201
/// ```
final class CardDAVWriter: Sendable {
    /// Who asked for a write: what ``CardDAVWrite`` reports of the request.
    struct Client: Sendable, Hashable {
        /// The authenticated user, `nil` without users.
        var user: String?
        /// The client's `User-Agent`, if it sent one.
        var userAgent: String?
    }

    /// What a `PUT` did.
    struct Put: Sendable {
        /// Whether the card is new.
        var created: Bool
        /// The card's entry now.
        var entry: CardDAVEntry
        /// The bytes a `GET` now serves; `nil` when the record's files cannot be read now.
        var data: Data?
    }

    /// The UID of a card put is another card's, named here: a 409 with
    /// `CARDDAV:no-uid-conflict` naming it.
    struct UIDTaken: Error, Sendable, Hashable {
        /// The resource name of the card that has the UID.
        var name: String
    }

    /// The cards, told of each write.
    let collection: CardDAVCollection
    /// The store.
    let layout: StoreLayout
    /// The served book's name, which ``CardDAVWrite`` reports.
    private let bookName: ServedBookName
    /// Told of each write saved, while further writes wait.
    let afterWrite: (@Sendable (CardDAVWrite) -> Void)?
    /// The store's book; its lock serializes the writes.
    let book: Mutex<CardDAVOpenBook>

    /// A writer of the store at `layout`, served as the book `name`, whose cards are
    /// `collection`; the book is opened at the first write.
    init(
        collection: CardDAVCollection, layout: StoreLayout, options: AddressBookOptions, name: ServedBookName,
        afterWrite: (@Sendable (CardDAVWrite) -> Void)? = nil
    ) {
        self.collection = collection
        self.layout = layout
        book = Mutex(CardDAVOpenBook(layout: layout, options: options))
        bookName = name
        self.afterWrite = afterWrite
    }

    /// Creates or replaces the card at `name` with a card a client sent, on `preconditions`.
    ///
    /// A card of the other kind (a person's over a group's or back) is refused, and so is a UID
    /// another card has. Over an existing person the card wins property by property while what
    /// it cannot carry is kept (``CardMerging/cardWins(datedByCard:)``); a new record with the
    /// card's UID takes `name`.
    ///
    /// - Throws: a 412 failure when a precondition fails; a 403 failure for a card of the other
    ///   kind; ``UIDTaken`` when another card has the UID; the errors of the save and of
    ///   ``CardDAVCollection/record(_:)``.
    func put(
        _ sent: CardDAVSentCard, named name: String, preconditions: CardDAVPreconditions, client: Client
    ) throws -> Put {
        let card = sent.card
        let uid = card.matchKey
        return try book.withLock { open in
            let current = try collection.card(named: name)?.entry
            try preconditions.check(current: current)
            // A card of the other kind can never take this resource's place, whatever its UID.
            if let current, current.record.kind.rawValue != card.kind.rawValue {
                throw CardDAVFailure(status: 403, text: "a card cannot change from a person's to a group's or back; remove it first")
            }
            if let other = collection.name(ofUID: uid), other != name { throw UIDTaken(name: other) }
            collection.reserve(name, forUID: uid)
            defer { collection.release(uid: uid) }
            let (record, files) = try saving(in: &open) { book in
                try noting(current?.record, in: book) {
                    switch card {
                    case .person(let state, _, _): try save(state, over: current, in: book)
                    case .group(let groupCard, _): try save(groupCard, sent: sent.vCard, over: current, in: book)
                    }
                }
            }
            report("PUT", record, files, client)
            guard let recorded = try collection.record(CardDAVCollection.Written(record: record, sent: sent)) else {
                throw CardDAVFailure(status: 500)
            }
            return Put(created: current == nil, entry: recorded.entry, data: recorded.data)
        }
    }

    /// Removes the person or group of the card at `name`, on `preconditions`.
    ///
    /// - Throws: a 404 failure when there is no such card (or its record is gone); a 412 failure
    ///   when a precondition fails; the errors of the save and of ``CardDAVCollection/record(_:)``.
    func delete(named name: String, preconditions: CardDAVPreconditions, client: Client) throws {
        try book.withLock { open in
            guard let current = try collection.card(named: name)?.entry else { throw CardDAVFailure(status: 404) }
            try preconditions.check(current: current)
            let (record, files) = try saving(in: &open) { book in
                try noting(current.record, in: book) {
                    switch current.record.kind {
                    case .person:
                        guard let person = try book.person(forKey: current.record.key) else { throw CardDAVFailure(status: 404) }
                        try book.remove(person)
                    case .group:
                        guard let group = book.group(forKey: current.record.key) else { throw CardDAVFailure(status: 404) }
                        try book.remove(group)
                    }
                    try book.save()
                    return current.record
                }
            }
            report("DELETE", record, files, client)
            _ = try collection.record(CardDAVCollection.Written(record: current.record))
        }
    }

    /// The card of the person a web page showed is no longer the one it showed: someone
    /// changed the person meanwhile.
    struct EditConflict: Error, Sendable, Hashable {
        /// The ETag of the person's card now.
        var currentETag: String
    }

    /// Changes the person whose file has `key` with `change`, or (`key` `nil`) adds a person
    /// that `change` fills in, as the web pages do: under the writer's lock, one save of the
    /// store, reported to `afterWrite` as `summary` (such as `edit Katie Bell`) made on the web
    /// pages, and the person's card brought up to date for the CardDAV clients.
    ///
    /// - Parameter etag: the ETag of the person's card when the page was shown; when the card's
    ///   is another now, nothing is changed and ``EditConflict`` is thrown.
    /// - Returns: the key of the person's file.
    /// - Throws: ``EditConflict``; a 404 failure when there is no such person; what `change`
    ///   throws (the person is then unchanged); the errors of the save.
    func edit(
        personWithKey key: RecordKey?, ifMatch etag: String?, summary: @Sendable (Person) -> String, client: Client,
        _ change: @Sendable (Person) throws -> Void
    ) throws -> RecordKey {
        try book.withLock { open in
            var current: CardDAVEntry?
            if let key { current = try entry(ofPersonWithKey: key, ifMatch: etag) }
            var said = ""
            let (record, files) = try saving(in: &open) { book in
                try noting(current?.record, in: book) {
                    let person: Person
                    if let key {
                        guard let found = try book.person(forKey: key) else { throw CardDAVFailure(status: 404) }
                        person = found
                    } else {
                        person = Person()
                        try book.add(person)
                    }
                    try change(person)
                    try book.save()
                    said = summary(person)
                    guard let saved = person.key else { throw CardDAVFailure(status: 500) }
                    return CardDAVEntry.Record(kind: .person, key: saved)
                }
            }
            report(said, record, files, client, isWeb: true)
            _ = try collection.record(CardDAVCollection.Written(record: record))
            return record.key
        }
    }

    /// Removes the person whose file has `key`, as the web pages do, reported to `afterWrite` as
    /// `remove NAME` made on the web pages.
    ///
    /// - Parameter etag: the ETag of the person's card when the page was shown; when the card's
    ///   is another now, nothing is removed and ``EditConflict`` is thrown.
    /// - Throws: ``EditConflict``; a 404 failure when there is no such person; the errors of the
    ///   save.
    func remove(personWithKey key: RecordKey, ifMatch etag: String?, client: Client) throws {
        try changePerson(withKey: key, ifMatch: etag, client: client) { book, person in
            let name = person.compositeName ?? "a person without a name"
            try book.remove(person)
            return "remove \(name)"
        }
    }

    /// Changes the person whose file has `key` with `change`, which returns what is reported
    /// (such as `remove Katie Bell`), as the web pages do: under the writer's lock, one save,
    /// reported to `afterWrite` as made on the web pages, the card brought up to date.
    ///
    /// - Throws: ``EditConflict`` when the card's ETag is no longer `etag`; a 404 failure when
    ///   there is no such person; what `change` throws; the errors of the save.
    func changePerson(
        withKey key: RecordKey, ifMatch etag: String?, client: Client, _ change: @Sendable (AddressBook, Person) throws -> String
    ) throws {
        try book.withLock { open in
            let record = try entry(ofPersonWithKey: key, ifMatch: etag).record
            var said = ""
            let (_, files) = try saving(in: &open) { book in
                try noting(record, in: book) {
                    guard let person = try book.person(forKey: key) else { throw CardDAVFailure(status: 404) }
                    said = try change(book, person)
                    try book.save()
                    return record
                }
            }
            report(said, record, files, client, isWeb: true)
            _ = try collection.record(CardDAVCollection.Written(record: record))
        }
    }

    /// The card of the person whose file has `key`, as served now.
    ///
    /// - Throws: a 404 failure when there is none; ``EditConflict`` when `etag` is given and
    ///   the card's ETag is another now.
    private func entry(ofPersonWithKey key: RecordKey, ifMatch etag: String?) throws -> CardDAVEntry {
        let record = CardDAVEntry.Record(kind: .person, key: key)
        guard let found = try collection.listing().entries.values.first(where: { $0.record == record }) else {
            throw CardDAVFailure(status: 404)
        }
        if let etag, found.etag != etag { throw EditConflict(currentETag: found.etag) }
        return found
    }

    /// Changes the group whose file has `key` with `change`, or (`key` `nil`) adds the group
    /// `change` gives back, as the web pages do: create, rename, add or remove members, or
    /// remove the group (`change` gives `nil` after removing it). One save under the writer's
    /// lock, reported to `afterWrite` as `summary` made on the web pages; the group's card is
    /// brought up to date for the CardDAV clients.
    ///
    /// - Returns: the key of the group's file.
    /// - Throws: a 404 failure when there is no such group; what `change` throws (nothing is
    ///   then saved); the errors of the save.
    @discardableResult
    func changeGroup(
        withKey key: RecordKey?, summary: String, client: Client, _ change: @Sendable (Group?, AddressBook) throws -> Group?
    ) throws -> RecordKey {
        try book.withLock { open in
            let before = key.map { CardDAVEntry.Record(kind: .group, key: $0) }
            let (record, files) = try saving(in: &open) { book in
                try noting(before, in: book) {
                    var group: Group?
                    if let key {
                        guard let found = book.group(forKey: key) else { throw CardDAVFailure(status: 404) }
                        group = found
                    }
                    let changed = try change(group, book)
                    try book.save()
                    guard let saved = changed?.key ?? key else { throw CardDAVFailure(status: 500) }
                    return CardDAVEntry.Record(kind: .group, key: saved)
                }
            }
            report(summary, record, files, client, isWeb: true)
            _ = try collection.record(CardDAVCollection.Written(record: record))
            return record.key
        }
    }

    /// Imports a file of contacts (vCard, CSV, LDIF… as ``AddressBook/importContacts(from:source:format:options:decide:)``
    /// reads them, the operation of `contacts import`) as the web pages do: one save under the
    /// writer's lock, reported to `afterWrite` as `import 12 people from x.csv` made on the web
    /// pages, with every file the save changed. The cards change for the CardDAV clients as
    /// for any change of many records: the collection finds them when it is next brought up to
    /// date, which is done before this returns.
    ///
    /// - Parameter source: The file's name, which the report's warnings and the commit name.
    /// - Returns: the import's report.
    /// - Throws: the errors of the import (nothing is then saved); the errors of bringing the
    ///   collection up to date.
    func importContacts(_ data: Data, source: String, options: VCardImportOptions, client: Client) throws -> VCardImportReport {
        try book.withLock { open in
            var first: CardDAVEntry.Record?
            let (imported, files): (VCardImportReport, [String]) = try saving(in: &open) { book in
                let touched = afterWrite == nil ? nil : CardDAVTouchedFiles(layout: layout, everyFileOf: book)
                let imported = try book.importContacts(from: data, source: source, options: options)
                let people = imported.added + imported.updated
                if let key = people.lazy.compactMap({ book.person(withID: $0)?.key }).first {
                    first = CardDAVEntry.Record(kind: .person, key: key)
                }
                return (imported, touched?.changed(everyFileIn: book) ?? [])
            }
            if let first {
                let count = imported.added.count + imported.updated.count
                report("import \(count) \(count == 1 ? "person" : "people") from \(source)", first, files, client, isWeb: true)
            }
            _ = try collection.listing()
            return imported
        }
    }

    /// How many times the writer's book read the store: once when opened, then once each time
    /// others had changed it.
    var bookReads: Int {
        book.withLock { $0.reads }
    }

    /// Runs `body` with the store's book, brought up to date, between writes: what the birthday
    /// calendar reads.
    ///
    /// - Throws: what `body` throws; the errors of opening the store or reading it again.
    func withBook<Result: Sendable>(_ body: @Sendable (AddressBook) throws -> Result) throws -> Result {
        try book.withLock { open in try saving(in: &open, body) }
    }

    /// Runs `body` with the book brought up to date; when `body` fails, the book is read again
    /// before its next use, so that nothing it left half done is saved later.
    ///
    /// - Throws: what `body` throws; the errors of opening the store or reading it again.
    func saving<Result>(in open: inout CardDAVOpenBook, _ body: (AddressBook) throws -> Result) throws -> Result {
        let book = try open.current(after: collection.newsForBook())
        do {
            return try body(book)
        } catch {
            open.setAsideAfterFailure()
            throw error
        }
    }

    /// Runs `save`, which saves `record` (`nil` for a new record) and gives the record saved,
    /// and gives that record with the files the save changed (see ``CardDAVTouchedFiles``); none
    /// are looked for when no one is told of writes.
    func noting(
        _ record: CardDAVEntry.Record?, in book: AddressBook, _ save: () throws -> CardDAVEntry.Record
    ) throws -> (CardDAVEntry.Record, [String]) {
        guard afterWrite != nil else { return (try save(), []) }
        let files = CardDAVTouchedFiles(layout: layout, before: record, in: book)
        let saved = try save()
        return (saved, files.changed(after: saved, in: book))
    }

    /// Tells `afterWrite` of a write saved and the files it changed.
    func report(_ method: String, _ record: CardDAVEntry.Record, _ files: [String], _ client: Client, isWeb: Bool = false) {
        afterWrite?(
            CardDAVWrite(
                method: method, isWeb: isWeb, record: record, user: client.user, userAgent: client.userAgent, book: bookName,
                storeURL: layout.root, files: files))
    }

    /// Saves a person's card: over the person of the current card (the store's version is the
    /// base: what the card says wins, what it cannot carry is kept), or as a new person.
    private func save(_ theirs: PersonState, over current: CardDAVEntry?, in book: AddressBook) throws -> CardDAVEntry.Record {
        let person = try current.flatMap { try book.person(forKey: $0.record.key) }
        let applied = try book.saveCard(theirs, to: person, merging: .cardWins(datedByCard: false))
        guard let key = applied.person.key else { throw CardDAVFailure(status: 500) }
        return CardDAVEntry.Record(kind: .person, key: key)
    }

    /// Saves a group's card: over the group of the current card, or as a new group, keeping the
    /// card as `sent` (see ``GroupCard/keepSent(_:in:)``) so that it is read back as sent. A
    /// new group is saved before its members join it (a group must be saved to have members), so
    /// a new group with members takes two saves.
    private func save(_ card: GroupCard, sent: VCard, over current: CardDAVEntry?, in book: AddressBook) throws
        -> CardDAVEntry.Record
    {
        var group: Group?
        if let current {
            guard let existing = book.group(forKey: current.record.key) else { throw CardDAVFailure(status: 412) }
            group = existing
        } else {
            group = try book.applyGroupCard(card, to: nil, keepingSent: sent)
            try book.save()
        }
        let saved = try book.applyGroupCard(card, to: group, keepingSent: sent) { uid in self.collection.personKey(ofUID: uid) }
        try book.save()
        guard let key = saved.key else { throw CardDAVFailure(status: 500) }
        return CardDAVEntry.Record(kind: .group, key: key)
    }
}
