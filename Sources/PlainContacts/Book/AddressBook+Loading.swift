import FoundationEssentials
import PlainContactsSystem

/// Reading people lazily: from the index by ID, or all of them through the catalog.
extension AddressBook {
    /// Replaces the book's records with freshly loaded ones.
    func install(_ loaded: StoreLoader.Loaded) {
        people.detachAll()
        groups.detachAll()
        memberships = MembershipTable()
        catalog = nil
        checked = nil
        freshlyRead = [:]
        renumbered = [:]
        loadError = nil
        index = loaded.index
        savedPersonCount = loaded.index?.count ?? 0
        if let scanned = loaded.catalog {
            installCatalog(scanned)
        }

        let groupIDs = DuplicateIDResolver.assign(
            loaded.groups.map { .init(key: $0.key, id: $0.id, created: $0.state.creationDate) })
        for file in loaded.groups {
            let id = groupIDs[file.key] ?? file.id
            let group = Group(key: file.key, recordID: id, state: file.state, owner: self)
            groups.load(
                group,
                snapshot: SavedGroup(
                    id: file.id, state: file.state, members: file.members, fingerprint: file.fingerprint,
                    membersFingerprint: file.membersFingerprint))
            memberships.setMembers(file.members, of: file.key)
        }
    }

    /// Takes a scanned catalog: IDs by key, duplicate IDs settled. A settled ID is written only
    /// with a change to that person, never by a save of someone else nor by `doctor --fix`.
    private func installCatalog(_ scanned: PersonCatalog) {
        catalog = scanned.summaries
        savedPersonCount = scanned.summaries.count
        for (key, file) in scanned.freshlyRead where people.byKey[key] == nil && !people.isRemoved(key) {
            freshlyRead[key] = file
        }
        let summaries = scanned.summaries
        renumbered = !scanned.mayShareIDs ? [:] : DuplicateIDResolver.assign(
            summaries.lazy.map { (key: $0.key, id: $0.value.id) },
            created: { key in summaries[key]?.created.map { Date(timeIntervalSince1970: Double($0)) } })
        var byID: [RecordID: RecordKey] = [:]
        byID.reserveCapacity(scanned.summaries.count)
        // The common case (nothing removed or renumbered) skips two lookups per person.
        if people.removed.isEmpty && renumbered.isEmpty {
            for (key, summary) in scanned.summaries { byID[summary.id] = key }
        } else {
            for (key, summary) in scanned.summaries where !people.isRemoved(key) {
                byID[renumbered[key] ?? summary.id] = key
            }
        }
        people.replaceKeysByID(byID)
    }

    /// Builds the catalog if it has not been built: from the index ``validate()`` confirmed,
    /// else by checking every person file.
    ///
    /// - Throws: reading errors of files that changed since the index was written.
    func ensureCatalog() throws {
        guard catalog == nil, !accessPending else { return }
        if let confirmed = checked {
            checked = nil
            if let scanned = PersonCatalog(confirmed: confirmed, recordedFolders: false) {
                installCatalog(scanned)
                return
            }
        }
        let scanned = try StoreSession(layout: layout, options: options).read {
            try PersonCatalog.scan(layout: layout, index: index, askingWatcher: true)
        }
        if scanned.rebuiltIndex { index = StoreIndex.load(layout) }
        installCatalog(scanned)
    }

    /// Checks every person file against the index if no catalog or confirmed index is at hand:
    /// keeps the index confirmed as it is in ``checked`` (nothing decoded), or installs the
    /// catalog of a scan when something changed.
    ///
    /// - Throws: reading errors of files that changed since the index was written.
    func ensureChecked() throws {
        guard catalog == nil, checked == nil, !accessPending else { return }
        let outcome = try StoreSession(layout: layout, options: options).read {
            try PersonCatalog.check(layout: layout, index: index, askingWatcher: true)
        }
        switch outcome {
        case .confirmed(let confirmed, let recordedFolders):
            if recordedFolders { index = StoreIndex.load(layout) }
            checked = confirmed
            savedPersonCount = confirmed.count
        case .scanned(let scanned):
            if scanned.rebuiltIndex { index = StoreIndex.load(layout) }
            installCatalog(scanned)
        }
    }

    /// ``ensureChecked()`` for an operation that cannot throw; a reading error is kept in
    /// ``lastLoadError`` and the operation goes on with the people it could read.
    func ensureCheckedQuietly() {
        do {
            try ensureChecked()
        } catch let error as ContactsError {
            loadError = error
        } catch {
            loadError = ContactsError(.io, "cannot read the store", path: layout.root.path)
        }
    }

    /// Builds the catalog for an operation that cannot throw; a reading error is kept in
    /// ``lastLoadError`` and the operation goes on with the people it could read.
    func ensureCatalogQuietly() {
        do {
            try ensureCatalog()
        } catch let error as ContactsError {
            loadError = error
        } catch {
            loadError = ContactsError(.io, "cannot read the store", path: layout.root.path)
        }
    }

    /// The reading error met by the last operation that could not report it (such as
    /// ``allPeople()`` finding a file that was damaged after the book was opened), or `nil`.
    public var lastLoadError: ContactsError? { loadError }

    /// Checks every person file now, so that ``allPeople()``, ``people(matchingName:)`` and the
    /// other operations over all people have nothing left to read that could fail.
    ///
    /// - Throws: ``ContactsError/Code/malformedFile`` or ``ContactsError/Code/conflictMarkers``
    ///   naming the first damaged file.
    public func validate() throws {
        try ensureChecked()
    }

    /// The live person with a key, reading its file on first use; `nil` when there is none.
    func materialize(_ key: RecordKey) throws -> Person? {
        if let person = people.byKey[key] { return person }
        if people.isRemoved(key) { return nil }
        let file: StoreReader.PersonFile
        if let cached = freshlyRead.removeValue(forKey: key) {
            file = cached
        } else if let read = try StoreReader(layout: layout).readPerson(key: key) {
            file = read
        } else {
            return nil
        }
        let id = renumbered[key] ?? file.decoded.id
        let person = Person(key: key, recordID: id, state: file.decoded.state, owner: self)
        people.load(person, snapshot: SavedPerson(id: file.decoded.id, state: file.decoded.state, fingerprint: file.fingerprint))
        return person
    }

    /// Reads the files of the people among `keys` not read yet, on all cores, into
    /// ``freshlyRead``, so that materializing many people one by one costs a dictionary look-up
    /// each instead of a read and a decode. A file that cannot be read is left for
    /// ``materialize(_:)`` to read again and report.
    ///
    /// Below `minimum` unread people it reads nothing: a few files are not worth the threads.
    func readAhead(_ keys: [RecordKey], minimum: Int = 64) {
        let unread = keys.filter { people.byKey[$0] == nil && freshlyRead[$0] == nil && !people.isRemoved($0) }
        guard unread.count >= minimum else { return }
        let reader = StoreReader(layout: layout)
        let files = Parallel.map(unread.count, minimumChunk: 32) { position in
            try? reader.readPerson(key: unread[position])
        }
        freshlyRead.reserveCapacity(freshlyRead.count + files.count)
        for case let file? in files { freshlyRead[file.key] = file }
    }

    /// The live person with a key, for an operation that cannot throw: a file that cannot be
    /// read is kept in ``lastLoadError`` (never taken for a missing person) and gives `nil`.
    func materializeQuietly(_ key: RecordKey) -> Person? {
        do {
            return try materialize(key)
        } catch let error as ContactsError {
            loadError = error
        } catch {
            loadError = ContactsError(.io, "cannot read a person file", path: layout.personFile(key).path)
        }
        return nil
    }

    /// Every saved key of a person, from the catalog: the catalog's keys in the catalog's
    /// order, then those of people read but not in it, leaving out the removed ones.
    ///
    /// The order matters to the callers that read every person into ``people``: a dictionary
    /// filled in the order of another hash table that has the same seed clusters its keys,
    /// and every insertion and look-up then walks the cluster. Swift seeds each table with
    /// its storage's address, so a set made here and freed on return could pass its address,
    /// and with it its order, on to the table the people are read into (a long-running
    /// process listing a book again and again did, and each person cost a dozen times more
    /// to insert and find). The catalog stays alive while the people are read, so no table
    /// can share its seed.
    var catalogKeys: [RecordKey] {
        ensureCatalogQuietly()
        var keys: [RecordKey] = []
        keys.reserveCapacity((catalog?.count ?? 0) + people.byKey.count)
        if let catalog {
            for key in catalog.keys where !people.isRemoved(key) { keys.append(key) }
        }
        for key in people.byKey.keys where catalog?[key] == nil && !people.isRemoved(key) {
            keys.append(key)
        }
        return keys
    }

    /// The key of the saved person with an ID: from the catalog, or from the index while the
    /// folders are as it last saw them.
    func key(forID id: RecordID) -> RecordKey? {
        if let key = people.key(forID: id) { return key }
        if catalog != nil { return nil }
        if let opened = index, opened.extent < .idTable {
            // Read the ID table on the first lookup. The index may have moved on since the book
            // opened; that is harmless (the person's file is read and its ID checked) unless it
            // now has duplicate IDs, which only the full check settles.
            index = StoreIndex.load(layout, including: .idTable).flatMap { $0.hasDuplicateIDs ? nil : $0 }
        }
        return index?.key(forID: id)
    }
}
