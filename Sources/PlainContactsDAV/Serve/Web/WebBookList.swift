import PlainContacts
import PlainContactsSystem

/// A book's whole people list as the web pages keep it: every person's line in the book's sort
/// ordering, with what places it in the list and what a search matches it on, the book's
/// groups with their members, and the people with a photo; made once from the book, then
/// caught up with each change by making again only the lines of the people it touched.
///
/// A search or a group's list is filtered from the whole list (``read(words:group:)``), which
/// gives the same people in the same order as ``AddressBook/listing(matchingName:)`` and a
/// group's members would. A change the list cannot take alone (a group changed, people who
/// share record IDs, a file that cannot be read, a change of most of the book) is answered
/// with `nil` by ``caughtUp(with:token:layout:)``, and the list is made again from the book.
///
/// ```swift
/// var list = try writer.withBook { book in WebBookList(book: book, token: token, settings: settings) }
/// let (now, records) = try collection.token(withRecordsChangedSince: list.token)
/// if let records, let caughtUp = try list.caughtUp(with: records, token: now, layout: layout) { list = caughtUp }
/// let read = list.read(words: "bel", group: nil)
/// ```
struct WebBookList: Sendable {
    /// The collection's token the list was made or caught up at.
    var token: CardDAVSyncToken
    /// The signature of the book's `store.json` when the list was made: another sort order
    /// or name format makes the list again.
    let settings: FileSignature?
    /// Every person's entry, in the book's order.
    private(set) var entries: [PersonListingEntry]
    /// The book's groups, in the book's order, with their names.
    let groups: [(id: RecordID, name: String)]
    /// The keys of each group's members, by the group's record ID.
    let members: [RecordID: Set<RecordKey>]
    /// The people who have a saved image.
    private(set) var withPhotos: Set<RecordID>
    /// The book's sort ordering and name format, which changed people's lines are made in.
    let ordering: SortOrdering
    let format: CompositeNameFormat
    /// Whether one person's line can be made from their file alone: not when the book gives
    /// people who share a record ID others (see ``AddressBook/listsRenumberedPeople``).
    let canCatchUp: Bool

    /// How many people the list holds.
    var count: Int { entries.count }

    /// The list of `book` as it is now, named `token`.
    init(book: AddressBook, token: CardDAVSyncToken, settings: FileSignature?) {
        self.token = token
        self.settings = settings
        entries = book.listingEntries()
        let all = book.allGroups()
        groups = all.map { (id: $0.recordID, name: $0.name ?? "(no name)") }
        var members: [RecordID: Set<RecordKey>] = [:]
        for group in all { members[group.recordID] = group.key.map(book.memberKeys(ofGroupWithKey:)) ?? [] }
        self.members = members
        withPhotos = book.recordIDsWithSavedImages()
        ordering = book.sortOrdering
        format = book.compositeNameFormat
        canCatchUp = !book.listsRenumberedPeople
    }

    /// The list with the people of `records` (the records changed since ``token``) made again
    /// from their files, each moved to its place, named `token`; `nil` when the list must be
    /// made again from the book (see the type's description).
    ///
    /// - Throws: the reading errors of a changed person's file.
    func caughtUp(with records: [CardDAVEntry.Record], token: CardDAVSyncToken, layout: StoreLayout) throws -> WebBookList? {
        guard canCatchUp else { return nil }
        var keys = Set<RecordKey>()
        for record in records {
            guard record.kind == .person else { return nil }
            keys.insert(record.key)
        }
        guard keys.count <= max(64, entries.count / 4) else { return nil }
        let changed = Array(keys)
        let (ordering, format) = (self.ordering, self.format)
        let read = Parallel.map(changed.count, minimumChunk: 32) { index in
            Result { try PersonListingEntry.read(key: changed[index], layout: layout, ordering: ordering, format: format) }
        }
        let fresh = try read.compactMap { try $0.get() }.sorted { $0.precedes($1) }
        let freshIDs = Set(fresh.map(\.line.recordID))
        guard freshIDs.count == fresh.count else { return nil }
        var list = self
        list.token = token
        list.entries = []
        list.entries.reserveCapacity(entries.count + fresh.count)
        var next = fresh.startIndex
        for entry in entries {
            if let key = entry.key, keys.contains(key) {
                list.withPhotos.remove(entry.line.recordID)
                continue
            }
            // Two people now share an ID: the book gives one of them another.
            guard !freshIDs.contains(entry.line.recordID) else { return nil }
            while next < fresh.endIndex, fresh[next].precedes(entry) {
                list.entries.append(fresh[next])
                next += 1
            }
            list.entries.append(entry)
        }
        list.entries.append(contentsOf: fresh[next...])
        for entry in fresh where entry.namesImage == true { list.withPhotos.insert(entry.line.recordID) }
        return list
    }

    /// What a list page asks for: the people whose names match `words` (everyone when it has
    /// only spaces), of the group with the record ID `group` when the book has it.
    func read(words: String, group: RecordID?) -> WebListingCache.Read {
        let chosen = group.flatMap { members[$0] == nil ? nil : $0 }
        let inGroup = chosen.flatMap { members[$0] }
        let query = words.contains(where: { !$0.isWhitespace }) ? PersonListingEntry.Query(words) : nil
        var rows: [PersonListing] = []
        if query == nil, inGroup == nil {
            rows = entries.map(\.line)
        } else {
            for entry in entries {
                if let query, !entry.matches(query) { continue }
                if let inGroup, !(entry.key.map(inGroup.contains) ?? false) { continue }
                rows.append(entry.line)
            }
        }
        return WebListingCache.Read(rows: rows, groups: groups, chosen: chosen, withPhotos: withPhotos)
    }
}
