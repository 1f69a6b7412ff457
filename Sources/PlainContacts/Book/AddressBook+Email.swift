import PlainContactsSystem

/// Email addresses for a mail client's address query, found from the index instead of every
/// person's file.
extension AddressBook {
    /// The email addresses that match a query, best matches first: what a mail client asks
    /// for when completing a recipient (mutt's `query_command`, aerc's `address-book-cmd`).
    ///
    /// An address matches when every word of the query begins a word of its person's names
    /// (prefix, first, middle and last name, suffix, phonetic names, nickname, organization),
    /// as ``people(matchingName:)`` requires, or appears anywhere in the address; case,
    /// diacritics and character width are ignored on both sides. A query without any word
    /// (empty, or only punctuation) lists every address. "nn" finds `ann@example.com` but not
    /// Ann's other addresses: it begins no word of her names.
    ///
    /// The order: first the addresses whose person's names hold every query word as a whole
    /// word, or that begin with the query; then those whose person's names have words that
    /// the query's words begin; then those found only by the address. Within each, people
    /// come in the book's sort ordering, and one person's addresses in their stored order.
    ///
    /// ```swift
    /// for email in book.emailAddresses(matching: "ann") {
    ///     print(email.address, email.compositeName ?? "", separator: "\t")
    /// }
    /// ```
    ///
    /// Saved people are answered from their summaries in the index, so no person's file is
    /// read; people read or added since the book was opened are matched as they now are. While
    /// nothing changed behind the store's back, the summaries are matched in the index's bytes
    /// and only those with a matching address are decoded. A file that cannot be read is kept
    /// in ``lastLoadError``; call ``validate()`` first to have it thrown instead.
    public func emailAddresses(matching query: String) -> [EmailAddressListing] {
        ensureCheckedQuietly()
        let query = EmailSearch.Query(query)
        var matches = EmailMatches(query: query, ordering: sortOrdering)
        // People changed since read are matched as they now are; everyone else, read or not,
        // by their summary, which says the same of them.
        for (key, person) in people.byKey where unchangedSummary(of: key) == nil {
            matches.add(person, key: key.rawValue)
        }
        let everySummary = people.byKey.isEmpty && people.removed.isEmpty
        /// Whether a saved person's summary answers for them.
        func answersFor(_ key: RecordKey) -> Bool {
            everySummary || (!people.isRemoved(key) && (people.byKey[key] == nil || unchangedSummary(of: key) != nil))
        }
        /// Keeps the matching addresses of a saved person whose summary answers for them.
        func add(_ summary: PersonSummary, key: RecordKey) {
            guard answersFor(key) else { return }
            matches.add(
                summary, id: renumbered.isEmpty ? summary.id : renumbered[key] ?? summary.id, format: compositeNameFormat)
        }
        if let checked {
            // Confirmed as it is: the summaries are matched in place on every core, and only
            // those with a matching address are decoded.
            let matching = checked.summaries {
                var matcher = AddressMatcher(query: query)
                return { matcher.matches($0) }
            }
            for summary in matching { add(summary, key: summary.key) }
        } else if let catalog {
            // The summaries are matched on every core too, and kept in the catalog's order.
            let summaries = Array(catalog.values)
            let matching = Parallel.mapChunks(summaries.count, minimumChunk: 2048) { range in
                var matcher = AddressMatcher(query: query)
                return range.filter { summaries[$0].withBytes { matcher.matches($0) } }
            }
            for position in matching.joined() { add(summaries[position], key: summaries[position].key) }
        }
        for person in people.added {
            matches.add(person, key: "")
        }
        return matches.ordered()
    }
}

/// Which addresses of one person match a query, and how well.
private struct AddressMatcher {
    let query: EmailSearch.Query
    /// How the query's words meet the person's names.
    private var names: [EmailSearch.WordMatch] = []
    /// The matching addresses: their rank and place.
    private(set) var found: [(rank: EmailSearch.Rank, position: Int)] = []

    init(query: EmailSearch.Query) {
        self.query = query
    }

    /// Whether a summary has a matching address, compared in the index's bytes (only the
    /// addresses kept become strings); they are left in ``found``.
    mutating func matches(_ summary: SummaryBytes) -> Bool {
        found.removeAll(keepingCapacity: true)
        guard summary.emailCount > 0 else { return false }
        summary.wordMatches(query, into: &names)
        summary.forEachEmailAddress { position, address in
            if let rank = EmailSearch.rank(query, names: names, address: address) { found.append((rank, position)) }
        }
        return !found.isEmpty
    }

    /// Whether a person, as the book now has them, has a matching address; they are left in
    /// ``found``.
    mutating func matches(_ emails: [(label: String?, address: String)], names parts: NameParts) -> Bool {
        names = EmailSearch.wordMatches(query, searchWords: query.isEmpty ? [] : NameSearch.searchWords(parts))
        found = emails.enumerated().compactMap { position, email in
            EmailSearch.rank(query, names: names, address: email.address).map { ($0, position) }
        }
        return !found.isEmpty
    }
}

/// The addresses an address query keeps, gathered person by person, then put in order.
private struct EmailMatches {
    let ordering: SortOrdering
    private var matcher: AddressMatcher
    // Addresses refer to their person by position in `persons`: sorting 10,000 people once
    // and the addresses by numbers costs far less than moving rows that hold strings.
    private var persons: [PersonPlace] = []
    private var rows: [(rank: EmailSearch.Rank, person: Int, position: Int)] = []
    private var listings: [EmailAddressListing] = []

    init(query: EmailSearch.Query, ordering: SortOrdering) {
        self.ordering = ordering
        matcher = AddressMatcher(query: query)
    }

    /// Keeps the matching addresses of a saved person's summary.
    mutating func add(_ summary: PersonSummary, id: RecordID, format: CompositeNameFormat) {
        guard summary.withBytes({ matcher.matches($0) }) else { return }
        keep(
            summary.emails, id: id, key: summary.key.rawValue, sortKey: summary.sortKey(ordering),
            compositeName: CompositeName.make(summary.parts, format: format))
    }

    /// Keeps the matching addresses of a person as the book now has them.
    mutating func add(_ person: Person, key: String) {
        let emails = person.emails.map { (label: $0.label?.rawValue, address: $0.value) }
        let parts = person.state.nameParts
        guard !emails.isEmpty, matcher.matches(emails, names: parts) else { return }
        keep(
            emails, id: person.recordID, key: key, sortKey: SortKey(parts, ordering: ordering),
            compositeName: person.compositeName)
    }

    /// Keeps the addresses the matcher found of one person.
    private mutating func keep(
        _ emails: [(label: String?, address: String)], id: RecordID, key: String, sortKey: SortKey, compositeName: String?
    ) {
        let person = persons.count
        persons.append(PersonPlace(sortKey: sortKey, id: id, key: key))
        for (rank, position) in matcher.found where position < emails.count {
            let email = emails[position]
            rows.append((rank, person, position))
            listings.append(EmailAddressListing(
                address: email.address, label: email.label.map(Label.init(rawValue:)), recordID: id,
                compositeName: compositeName))
        }
    }

    /// The kept addresses, best matches first, then in the sort ordering of their people.
    func ordered() -> [EmailAddressListing] {
        var place = [Int](repeating: 0, count: persons.count)
        let order = persons.withUnsafeBufferPointer { persons in persons.indices.sorted { persons[$0] < persons[$1] } }
        for (order, person) in order.enumerated() {
            place[person] = order
        }
        return rows.indices.sorted { a, b in
            (rows[a].rank, place[rows[a].person], rows[a].position) < (rows[b].rank, place[rows[b].person], rows[b].position)
        }.map { listings[$0] }
    }
}

/// Where a person's addresses go in the order: by sort key, then record ID and key, as
/// ``AddressBook/listing(sortedBy:)`` orders people.
private struct PersonPlace {
    var sortKey: SortKey
    var id: RecordID
    var key: String

    static func < (a: PersonPlace, b: PersonPlace) -> Bool {
        if a.sortKey < b.sortKey { return true }
        if b.sortKey < a.sortKey { return false }
        let aID = a.id.isValid ? a.id.rawValue : Int32.max
        let bID = b.id.isValid ? b.id.rawValue : Int32.max
        if aID != bID { return aID < bID }
        return a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
    }
}
