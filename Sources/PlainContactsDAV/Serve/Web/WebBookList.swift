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
/// with `nil` by ``caughtUp(with:present:token:layout:)``, and the list is made again from the book.
///
/// The list is kept between runs of the server in the server's private folder
/// (``WebBookListFile``), with its token: a server started again reads it and catches it up
/// with the changes the collection finds at start, instead of sorting everyone again.
///
/// ```swift
/// var list = try writer.withBook { book in WebBookList(book: book, token: token, settings: settings) }
/// let (now, records, present) = try collection.token(withRecordsChangedSince: list.token)
/// if let records, let caughtUp = try list.caughtUp(with: records, present: present, token: now, layout: layout) {
///     list = caughtUp
/// }
/// let read = list.read(words: "bel", group: nil)
/// ```
struct WebBookList: Sendable {
    /// The collection's token the list was made or caught up at.
    var token: CardDAVSyncToken
    /// The signature of the book's `store.json` when the list was made: another sort order
    /// or name format makes the list again.
    let settings: FileSignature?
    /// Every person's line, in the book's order, with the people who have a photo.
    private(set) var people: KeptPeopleList
    /// The book's groups, in the book's order, with their names.
    let groups: [(id: RecordID, name: String)]
    /// The keys of each group's members, by the group's record ID.
    let members: [RecordID: Set<RecordKey>]

    /// How many people the list holds.
    var count: Int { people.count }

    /// The list of `book` as it is now, named `token`.
    init(book: AddressBook, token: CardDAVSyncToken, settings: FileSignature?) {
        let all = book.allGroups()
        var members: [RecordID: Set<RecordKey>] = [:]
        for group in all { members[group.recordID] = group.key.map(book.memberKeys(ofGroupWithKey:)) ?? [] }
        self.init(
            token: token, settings: settings, people: KeptPeopleList(book: book),
            groups: all.map { (id: $0.recordID, name: $0.name ?? "(no name)") }, members: members)
    }

    /// A list of these parts: what ``WebBookListFile`` read.
    init(
        token: CardDAVSyncToken, settings: FileSignature?, people: KeptPeopleList, groups: [(id: RecordID, name: String)],
        members: [RecordID: Set<RecordKey>]
    ) {
        self.token = token
        self.settings = settings
        self.people = people
        self.groups = groups
        self.members = members
    }

    /// The list with the people of `records` (the records changed since ``token``) made again
    /// from their files, each moved to its place, and without the people not in `present`
    /// when it is given (the keys of everyone, when the collection cannot name the people
    /// removed since ``token``), named `token`; `nil` when the list must be made again from
    /// the book (see the type's description).
    ///
    /// - Throws: the reading errors of a changed person's file.
    func caughtUp(
        with records: [CardDAVEntry.Record], present: Set<RecordKey>? = nil, token: CardDAVSyncToken, layout: StoreLayout
    ) throws -> WebBookList? {
        var keys = Set<RecordKey>()
        for record in records {
            guard record.kind == .person else { return nil }
            keys.insert(record.key)
        }
        guard let people = try people.caughtUp(withChangedPeople: keys, present: present, layout: layout) else { return nil }
        var list = self
        list.token = token
        list.people = people
        return list
    }

    /// What a list page asks for: the people whose names match `words` (everyone when it has
    /// only spaces), of the group with the record ID `group` when the book has it.
    func read(words: String, group: RecordID?) -> WebListingCache.Read {
        let chosen = group.flatMap { members[$0] == nil ? nil : $0 }
        let rows = people.lines(matchingName: words, among: chosen.flatMap { members[$0] })
        return WebListingCache.Read(rows: rows, groups: groups, chosen: chosen, withPhotos: people.withPhotos)
    }
}
