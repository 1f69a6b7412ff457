import FoundationEssentials
import PlainContactsSystem

/// One line of a contacts list with what places it in the list and what a name search
/// matches it on: what a list kept between changes needs to take one person's new line
/// without listing everyone again.
///
/// Entries come from ``AddressBook/listingEntries()`` (everyone, in the book's order) and
/// ``read(key:layout:ordering:format:)`` (one person, from their file as it is now). A list
/// kept sorted by ``precedes(_:)`` and filtered by ``matches(_:)`` gives the same lines, in
/// the same order, as ``AddressBook/listing(sortedBy:)`` and
/// ``AddressBook/listing(matchingName:)``: ``KeptPeopleList`` is such a list, and what other
/// libraries use.
///
/// ```swift
/// var entries = book.listingEntries()
/// if let changed = try PersonListingEntry.read(key: key, layout: layout, ordering: .lastName, format: .firstNameFirst) {
///     entries.removeAll { $0.key == key }
///     let at = entries.firstIndex { changed.precedes($0) } ?? entries.endIndex
///     entries.insert(changed, at: at)
/// }
/// let query = PersonListingEntry.Query("bel")
/// let found = entries.filter { $0.matches(query) }.map(\.line)
/// ```
struct PersonListingEntry: Sendable {
    /// The words of a name search, worked out once for many entries.
    struct Query: Sendable {
        let words: [String]
        let bytes: [[UInt8]]

        /// The query words of `text` (see ``AddressBook/listing(matchingName:)``).
        init(_ text: String) {
            words = NameSearch.queryWords(text)
            bytes = words.map { Array($0.utf8) }
        }

        /// Whether the text has no words: such a query matches nobody.
        var isEmpty: Bool { words.isEmpty }
    }

    /// What a name search is matched against: the person's summary, or their names.
    enum Names: Sendable {
        case summary(PersonSummary)
        case parts(NameParts)
    }

    /// The line a list shows.
    let line: PersonListing
    /// The key of the person's file; `nil` for a person not saved yet.
    let key: RecordKey?
    /// Whether the person's file names a saved image; `nil` when not known (the line came
    /// from the index, which does not say).
    let namesImage: Bool?
    let sortKey: SortKey
    let names: Names

    init(line: PersonListing, key: RecordKey?, namesImage: Bool?, sortKey: SortKey, names: Names) {
        self.line = line
        self.key = key
        self.namesImage = namesImage
        self.sortKey = sortKey
        self.names = names
    }

    /// Whether this entry comes before `other` in a list: by sort key, then record ID (people
    /// not saved yet last), then file key.
    func precedes(_ other: PersonListingEntry) -> Bool {
        if sortKey != other.sortKey { return sortKey < other.sortKey }
        if orderID != other.orderID { return orderID < other.orderID }
        return (key?.rawValue ?? "").utf8.lexicographicallyPrecedes((other.key?.rawValue ?? "").utf8)
    }

    /// The record ID as the order compares it: people not saved yet last.
    var orderID: Int32 {
        line.recordID.isValid ? line.recordID.rawValue : Int32.max
    }

    /// Whether the person's names match a search (the rule of ``AddressBook/listing(matchingName:)``).
    func matches(_ query: Query) -> Bool {
        switch names {
        case .summary(let summary): !query.isEmpty && summary.matches(queryWords: query.bytes)
        case .parts(let parts): NameSearch.matches(queryWords: query.words, searchWords: NameSearch.searchWords(parts))
        }
    }

    /// The entry of the saved person whose file has `key`, read from the file as it is now,
    /// for a list in `ordering` with names in `format`; `nil` when there is no such file.
    ///
    /// The line's record ID is the one the file holds: a book whose people share IDs gives
    /// some of them others (see ``AddressBook/listingEntries()``), which the caller must
    /// check for.
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` and the reading errors of a person file.
    static func read(
        key: RecordKey, layout: StoreLayout, ordering: SortOrdering, format: CompositeNameFormat
    ) throws -> PersonListingEntry? {
        guard let file = try StoreReader(layout: layout).readPerson(key: key) else { return nil }
        let path = layout.personFile(key).path
        guard let signature = FileSignature.of(path) else { return nil }
        let summary = PersonSummary(key: key, signature: signature, decoded: file.decoded)
        var namesImage = false
        if case .stored(let name) = file.decoded.state.image {
            namesImage = FileManager.default.fileExists(atPath: layout.peopleFolder.appending(path: name).path)
        }
        return PersonListingEntry(summary: summary, id: file.decoded.id, ordering: ordering, format: format, namesImage: namesImage)
    }

    /// The entry of a person unchanged since their summary was taken.
    init(summary: PersonSummary, id: RecordID, ordering: SortOrdering, format: CompositeNameFormat, namesImage: Bool?) {
        let line = PersonListing(
            recordID: id, compositeName: CompositeName.make(summary.parts, format: format),
            firstPhone: summary.firstPhone, firstEmail: summary.firstEmail)
        self.init(line: line, key: summary.key, namesImage: namesImage, sortKey: summary.sortKey(ordering), names: .summary(summary))
    }
}
