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

    private func listing(sortedBy ordering: SortOrdering?, keeping words: [String]?) -> [PersonListing] {
        ensureCatalogQuietly()
        let ordering = ordering ?? sortOrdering
        let queryBytes = words?.map { Array($0.utf8) }
        func keeps(_ person: Person) -> Bool {
            guard let words else { return true }
            return NameSearch.matches(queryWords: words, searchWords: NameSearch.searchWords(person.state.nameParts))
        }
        var rows: [(sortKey: SortKey, id: RecordID, key: String, listing: PersonListing)] = []
        rows.reserveCapacity(personCount)
        // People changed since read are listed from their names; everyone else, read or not,
        // from their summary, which says the same of them.
        for (key, person) in people.byKey where unchangedSummary(of: key) == nil && keeps(person) {
            rows.append((SortKey(person.state.nameParts, ordering: ordering), person.recordID, key.rawValue, listing(of: person)))
        }
        let everySummary = people.touched.isEmpty && people.removed.isEmpty
        for (key, summary) in catalog ?? [:] where everySummary || (!people.touched.contains(key) && !people.isRemoved(key)) {
            if let queryBytes, !summary.matches(queryWords: queryBytes) { continue }
            let id = renumbered.isEmpty ? summary.id : renumbered[key] ?? summary.id
            let line = PersonListing(
                recordID: id, compositeName: CompositeName.make(summary.parts, format: compositeNameFormat),
                firstPhone: summary.firstPhone, firstEmail: summary.firstEmail)
            rows.append((summary.sortKey(ordering), id, key.rawValue, line))
        }
        for person in people.added where keeps(person) {
            rows.append((SortKey(person.state.nameParts, ordering: ordering), .invalid, "", listing(of: person)))
        }
        rows.sort { a, b in
            if a.sortKey != b.sortKey { return a.sortKey < b.sortKey }
            let aID = a.id.isValid ? a.id.rawValue : Int32.max
            let bID = b.id.isValid ? b.id.rawValue : Int32.max
            if aID != bID { return aID < bID }
            return a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
        }
        return rows.map(\.listing)
    }

    /// The record IDs of the saved people who have a saved image, found from the image files
    /// beside the record files (each named after its record's key) without reading people's
    /// files: what a list view shows a thumbnail for.
    ///
    /// ```swift
    /// let withPhotos = book.recordIDsWithSavedImages()
    /// for line in book.listing() where withPhotos.contains(line.recordID) { … }
    /// ```
    package func recordIDsWithSavedImages() -> Set<RecordID> {
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
