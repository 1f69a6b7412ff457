/// Adding, removing and finding groups, and group membership.
extension AddressBook {
    /// The number of groups (`ABAddressBookGetGroupCount`).
    public var groupCount: Int { groups.byKey.count + groups.added.count }

    /// Every group, sorted by name then record ID (`ABAddressBookCopyArrayOfAllGroups`).
    public func allGroups() -> [Group] {
        (Array(groups.byKey.values) + groups.added).sorted { a, b in
            let aName = NameNormalizer.normalize(a.name ?? "")
            let bName = NameNormalizer.normalize(b.name ?? "")
            if aName != bName { return aName.unicodeScalars.lexicographicallyPrecedes(bName.unicodeScalars) }
            return a.recordID.rawValue < b.recordID.rawValue
        }
    }

    /// The saved group with a record ID, or `nil` (`ABAddressBookGetGroupWithRecordID`).
    public func group(withID id: RecordID) -> Group? {
        groups.key(forID: id).flatMap { groups.byKey[$0] }
    }

    /// The groups whose name equals `name` exactly.
    public func groups(named name: String) -> [Group] {
        allGroups().filter { $0.name == name }
    }

    /// Adds a group to the book (`ABAddressBookAddRecord`); the next save writes it.
    ///
    /// - Throws: ``ContactsError/Code/recordInAnotherBook`` when the group belongs to another book.
    public func add(_ group: Group) throws {
        try checkWritable()
        if let owner = group.owner, owner !== self {
            throw ContactsError(.recordInAnotherBook, "the group belongs to another address book")
        }
        if case .restored(let key) = groups.add(group, to: self) {
            memberships.groupRestored(key, saved: groups.saved[key]?.members ?? [])
        }
    }

    /// Adds a group made from an account's card; the save places its file and record ID as
    /// `placement` says, alike on every clone that makes it from the same card.
    ///
    /// - Throws: as ``add(_:)``.
    func add(_ group: Group, placement: RecordPlacement) throws {
        try checkWritable()
        if let owner = group.owner, owner !== self {
            throw ContactsError(.recordInAnotherBook, "the group belongs to another address book")
        }
        _ = groups.add(group, to: self, placement: placement)
    }

    /// Removes a group (`ABAddressBookRemoveRecord`); its members stay in the book.
    ///
    /// - Throws: ``ContactsError/Code/recordInAnotherBook`` when the group is not in this book.
    public func remove(_ group: Group) throws {
        try checkWritable()
        guard group.owner === self else {
            throw ContactsError(.recordInAnotherBook, "the group is not in this address book")
        }
        if case .removed(let key) = groups.remove(group) {
            memberships.groupRemoved(key)
        }
    }

    /// The groups a person belongs to, sorted by name (`ABPersonCopyArrayOfAllGroups` in spirit).
    public func groups(containing person: Person) -> [Group] {
        guard let key = person.key else { return [] }
        return allGroups().filter { group in
            group.key.map { memberships.contains(key, in: $0) } ?? false
        }
    }

    func members(of group: Group) -> [Person] {
        guard let key = group.key, let members = memberships.members(of: key) else { return [] }
        let keys = Array(members)
        readAhead(keys)
        return keys.compactMap { materializeQuietly($0) }
    }

    func addMember(_ person: Person, to group: Group) throws {
        try checkWritable()
        guard let groupKey = group.key, groups.holds(group) else {
            throw ContactsError(.groupNotSaved, "save the group to this address book before adding members")
        }
        guard person.owner === self || person.owner == nil else {
            throw ContactsError(.recordInAnotherBook, "the person belongs to another address book")
        }
        guard let personKey = person.key, people.holds(person), person.recordID.isValid else {
            throw ContactsError(
                .personNotSaved,
                "save the person before adding it to a group: add the person, save, add it to the group, save")
        }
        memberships.insert(personKey, into: groupKey)
    }

    func removeMember(_ person: Person, from group: Group) {
        guard let groupKey = group.key, let personKey = person.key else { return }
        memberships.remove(personKey, from: groupKey)
    }
}
