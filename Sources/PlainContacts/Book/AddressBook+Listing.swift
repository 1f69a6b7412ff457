import FoundationEssentials

/// Lists of people for list views, built from the index instead of every person's file.
extension AddressBook {
    /// Every person as a list line, in a sort ordering (the book's own by default): the same
    /// people, order and names as ``allPeople(sortedBy:)``, without reading people's files.
    ///
    /// ```swift
    /// for line in book.listing() { print(line.recordID, line.compositeName ?? "No Name") }
    /// ```
    public func listing(sortedBy ordering: SortOrdering? = nil) -> [PersonListing] {
        listing(sortedBy: ordering, keeping: nil)
    }

    /// The people whose names match a query, as list lines in the book's sort ordering: the
    /// same people and order as ``people(matchingName:)``, without reading people's files.
    public func listing(matchingName query: String) -> [PersonListing] {
        let words = NameSearch.queryWords(query)
        guard !words.isEmpty else { return [] }
        return listing(sortedBy: nil, keeping: words)
    }

    /// Every person's ``PersonListingEntry`` in the book's sort ordering: the lines of
    /// ``listing(sortedBy:)``, each with what places it in the list and what a search
    /// matches it on, for a list kept between changes.
    ///
    /// ```swift
    /// let entries = book.listingEntries()
    /// let query = PersonListingEntry.Query("bel")
    /// let found = entries.filter { $0.matches(query) }.map(\.line)   // book.listing(matchingName: "bel")
    /// ```
    func listingEntries() -> [PersonListingEntry] {
        listingEntries(sortedBy: nil, keeping: nil)
    }

    private func listing(sortedBy ordering: SortOrdering?, keeping words: [String]?) -> [PersonListing] {
        listingEntries(sortedBy: ordering, keeping: words).map(\.line)
    }

    private func listingEntries(sortedBy ordering: SortOrdering?, keeping words: [String]?) -> [PersonListingEntry] {
        ensureCatalogQuietly()
        let ordering = ordering ?? sortOrdering
        let format = compositeNameFormat
        let queryBytes = words?.map { Array($0.utf8) }
        func keeps(_ person: Person) -> Bool {
            guard let words else { return true }
            return NameSearch.matches(queryWords: words, searchWords: NameSearch.searchWords(person.state.nameParts))
        }
        var rows: [PersonListingEntry] = []
        rows.reserveCapacity(personCount)
        // People changed since read are listed from their names; everyone else, read or not,
        // from their summary, which says the same of them.
        for (key, person) in people.byKey where unchangedSummary(of: key) == nil && keeps(person) {
            rows.append(entry(of: person, key: key, ordering: ordering))
        }
        let everySummary = people.touched.isEmpty && people.removed.isEmpty
        for (key, summary) in catalog ?? [:] where everySummary || (!people.touched.contains(key) && !people.isRemoved(key)) {
            if let queryBytes, !summary.matches(queryWords: queryBytes) { continue }
            let id = renumbered.isEmpty ? summary.id : renumbered[key] ?? summary.id
            rows.append(PersonListingEntry(summary: summary, id: id, ordering: ordering, format: format, namesImage: nil))
        }
        for person in people.added where keeps(person) {
            rows.append(entry(of: person, key: nil, ordering: ordering))
        }
        // The sort keys and IDs are sorted with the entries' positions rather than the entries
        // themselves: moving an entry retains and releases each of its strings, and a sort
        // moves every entry many times (names are short enough to be kept inline).
        var order = rows.indices.map { (sortKey: rows[$0].sortKey, id: rows[$0].orderID, position: $0) }
        order.sort { a, b in
            if a.sortKey != b.sortKey { return a.sortKey < b.sortKey }
            if a.id != b.id { return a.id < b.id }
            return rows[a.position].precedes(rows[b.position])
        }
        return order.map { rows[$0.position] }
    }

    /// A person's entry from their names as they are in the book.
    private func entry(of person: Person, key: RecordKey?, ordering: SortOrdering) -> PersonListingEntry {
        var namesImage = false
        if case .stored = person.state.image { namesImage = true }
        return PersonListingEntry(
            line: listing(of: person), key: key, namesImage: namesImage, sortKey: SortKey(person.state.nameParts, ordering: ordering),
            names: .parts(person.state.nameParts))
    }

    /// Whether the book's people share record IDs, so that some are listed with others than
    /// their files hold: a list kept between changes cannot then take one person's new line
    /// from their file alone.
    var listsRenumberedPeople: Bool {
        !renumbered.isEmpty
    }

    /// The record IDs of the saved people who have a saved image, found from the image files
    /// beside the record files (each named after its record's key) without reading people's
    /// files: what a list view shows a thumbnail for.
    ///
    /// ```swift
    /// let withPhotos = book.recordIDsWithSavedImages()
    /// for line in book.listing() where withPhotos.contains(line.recordID) { … }
    /// ```
    func recordIDsWithSavedImages() -> Set<RecordID> {
        let folder = layout.peopleFolder.path(percentEncoded: false)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var ids = Set<RecordID>()
        for name in names where !name.hasPrefix(".") && !name.hasSuffix(".json") {
            guard let dot = name.lastIndex(of: "."), let key = RecordKey(rawValue: String(name[..<dot])) else { continue }
            if let person = people.byKey[key] {
                if case .stored = person.state.image { ids.insert(person.recordID) }
            } else if !people.isRemoved(key), let summary = catalog?[key] {
                ids.insert(renumbered[key] ?? summary.id)
            }
        }
        return ids
    }

    private func listing(of person: Person) -> PersonListing {
        PersonListing(
            recordID: person.recordID, compositeName: person.compositeName,
            firstPhone: person.phones.first?.value, firstEmail: person.emails.first?.value)
    }
}
