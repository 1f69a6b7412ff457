extension AddressBook {
    /// Checks that every one of `people` belongs to this book (or to none), as every export
    /// requires.
    ///
    /// - Throws: ``ContactsError/Code/recordInAnotherBook`` for a person of another book.
    func requireOwnPeople(_ people: [Person]) throws {
        for person in people {
            if let owner = person.owner, owner !== self {
                throw ContactsError(.recordInAnotherBook, "the person belongs to another address book")
            }
        }
    }

    /// The names of the groups each saved person belongs to, by the person's record key, in
    /// the order of ``allGroups()``: built once for an export instead of asked per person.
    func groupNamesByMember() -> [RecordKey: [String]] {
        var groupNames: [RecordKey: [String]] = [:]
        for group in allGroups() {
            guard let name = group.name, let key = group.key, let members = memberships.members(of: key) else { continue }
            for member in members { groupNames[member, default: []].append(name) }
        }
        return groupNames
    }
}
