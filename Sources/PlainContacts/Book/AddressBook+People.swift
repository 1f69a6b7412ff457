/// Adding, removing and finding people.
extension AddressBook {
    /// The number of people, counting unsaved additions and removals (`ABAddressBookGetPersonCount`).
    public var personCount: Int { savedPersonCount - people.removed.count + people.added.count }

    /// Every person, in no particular order (`ABAddressBookCopyArrayOfAllPeople`).
    ///
    /// Reads every person not read yet; a file that cannot be read is left out and reported by
    /// ``lastLoadError`` (call ``validate()`` first to get such errors thrown).
    public func allPeople() -> [Person] {
        var result: [Person] = []
        let keys = catalogKeys
        readAhead(keys)
        for key in keys {
            do {
                if let person = try materialize(key) { result.append(person) }
            } catch let error as ContactsError {
                loadError = error
            } catch {}
        }
        return result + people.added
    }

    /// Every person in a sort ordering, the book's own by default
    /// (`ABAddressBookCopyArrayOfAllPeopleInSourceWithSortOrdering`).
    public func allPeople(sortedBy ordering: SortOrdering? = nil) -> [Person] {
        sorted(allPeople(), by: ordering ?? sortOrdering)
    }

    /// The saved person with a record ID, or `nil` (`ABAddressBookGetPersonWithRecordID`).
    ///
    /// A person whose file cannot be read is `nil` too, with the error in ``lastLoadError``:
    /// check it before taking `nil` for "no such person".
    public func person(withID id: RecordID) -> Person? {
        for attempt in 0..<2 {
            if let key = key(forID: id) {
                do {
                    if let person = try materialize(key), person.recordID == id { return person }
                } catch let error as ContactsError {
                    loadError = error
                } catch {}
            }
            // The index pointed at a file that no longer holds this ID: check every file.
            guard attempt == 0, catalog == nil else { return nil }
            ensureCatalogQuietly()
        }
        return nil
    }

    /// Adds a person to the book (`ABAddressBookAddRecord`); the next save writes it and gives
    /// it a record ID. Adding a person already in this book does nothing.
    ///
    /// - Throws: ``ContactsError/Code/recordInAnotherBook`` when the person belongs to another
    ///   book.
    public func add(_ person: Person) throws {
        try checkWritable()
        if let owner = person.owner, owner !== self {
            throw ContactsError(.recordInAnotherBook, "the person belongs to another address book; copy its values instead")
        }
        if case .restored(let key) = people.add(person, to: self) {
            memberships.personRestored(key)
        }
    }

    /// Adds a person made from an account's card; the save places its file and record ID as
    /// `placement` says, alike on every clone that makes it from the same card.
    ///
    /// - Throws: as ``add(_:)``.
    func add(_ person: Person, placement: RecordPlacement) throws {
        try checkWritable()
        if let owner = person.owner, owner !== self {
            throw ContactsError(.recordInAnotherBook, "the person belongs to another address book; copy its values instead")
        }
        _ = people.add(person, to: self, placement: placement)
    }

    /// Removes a person (`ABAddressBookRemoveRecord`); the next save deletes the file and the
    /// person's group memberships.
    ///
    /// - Throws: ``ContactsError/Code/recordInAnotherBook`` when the person is not in this book.
    public func remove(_ person: Person) throws {
        try checkWritable()
        guard person.owner === self else {
            throw ContactsError(.recordInAnotherBook, "the person is not in this address book")
        }
        if case .removed(let key) = people.remove(person) {
            memberships.personRemoved(key)
        }
    }

    /// The people whose names match a query, in the book's sort ordering
    /// (`ABAddressBookCopyPeopleWithName`).
    ///
    /// Every word of the query must begin some word of the person's prefix, first, middle or
    /// last name, suffix, phonetic names, nickname or organization; case, diacritics and
    /// character width are ignored. An empty query matches nobody. A match whose file cannot
    /// be read is left out and reported by ``lastLoadError``.
    ///
    /// ```swift
    /// let matches = book.people(matchingName: "ka be")   // Katie Bell
    /// ```
    public func people(matchingName query: String) -> [Person] {
        let words = NameSearch.queryWords(query)
        guard !words.isEmpty else { return [] }
        var matching: [Person] = []
        let keys = matchingKeys(words)
        readAhead(keys)
        for key in keys {
            do {
                if let person = try materialize(key) { matching.append(person) }
            } catch let error as ContactsError {
                loadError = error
            } catch {}
        }
        matching += people.added.filter { person in
            NameSearch.matches(queryWords: words, searchWords: NameSearch.searchWords(person.state.nameParts))
        }
        return sorted(matching, by: sortOrdering)
    }

    /// The keys of saved people whose names match query words: people changed since they
    /// were read are matched on their current (unsaved) names, the others on their summaries.
    func matchingKeys(_ words: [String]) -> [RecordKey] {
        ensureCatalogQuietly()
        var keys: [RecordKey] = []
        let queryBytes = words.map { Array($0.utf8) }
        for (key, person) in people.byKey {
            let matches = unchangedSummary(of: key).map { $0.matches(queryWords: queryBytes) }
                ?? NameSearch.matches(queryWords: words, searchWords: NameSearch.searchWords(person.state.nameParts))
            if matches { keys.append(key) }
        }
        for (key, summary) in catalog ?? [:] where people.byKey[key] == nil && !people.isRemoved(key) {
            if summary.matches(queryWords: queryBytes) { keys.append(key) }
        }
        return keys
    }

    /// The catalog's summary of a saved person who has not been changed since they were read
    /// or saved, whose names, search words and sort keys are then the summary's: what a search
    /// or a sort reads instead of working them out again from the names. `nil` for a person
    /// changed since, or with no summary.
    func unchangedSummary(of key: RecordKey) -> PersonSummary? {
        guard !people.touched.contains(key) else { return nil }
        return catalog?[key]
    }

    /// People sorted by name (`ABPersonComparePeopleByName` applied to an array).
    ///
    /// Phonetic names sort before written ones when present, organizations by their name,
    /// people without any name last; ties are broken by record ID, then file key, so the order
    /// is the same on every run.
    public func sorted(_ people: [Person], by ordering: SortOrdering) -> [Person] {
        let keyed = people.map { (person: $0, key: sortKey(of: $0, ordering: ordering)) }
        return keyed.sorted { a, b in
            if a.key != b.key { return a.key < b.key }
            return AddressBook.tieBreak(a.person, b.person)
        }.map(\.person)
    }

    /// A person's sort key in an ordering: the one their summary stores when they are
    /// unchanged since read (working it out from the names folds each of them again).
    private func sortKey(of person: Person, ordering: SortOrdering) -> SortKey {
        if person.owner === self, let key = person.key, PersonSummary.sortKeyOrderings.contains(ordering),
            let summary = unchangedSummary(of: key)
        {
            return summary.sortKey(ordering)
        }
        return SortKey(person.state.nameParts, ordering: ordering)
    }

    /// Whether `a` sorts before `b` by name (`ABPersonComparePeopleByName`).
    public static func comparePeopleByName(_ a: Person, _ b: Person, ordering: SortOrdering) -> Bool {
        let aKey = SortKey(a.state.nameParts, ordering: ordering)
        let bKey = SortKey(b.state.nameParts, ordering: ordering)
        if aKey != bKey { return aKey < bKey }
        return tieBreak(a, b)
    }

    static func tieBreak(_ a: Person, _ b: Person) -> Bool {
        // Unsaved people (invalid ID) come after saved ones.
        let aID = a.recordID.isValid ? a.recordID.rawValue : Int32.max
        let bID = b.recordID.isValid ? b.recordID.rawValue : Int32.max
        if aID != bID { return aID < bID }
        return (a.key?.rawValue ?? "").utf8.lexicographicallyPrecedes((b.key?.rawValue ?? "").utf8)
    }
}
