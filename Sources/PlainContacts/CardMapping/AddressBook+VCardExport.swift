import FoundationEssentials

/// Exporting vCards: people as the card mapping writes them, with their groups' names as
/// `CATEGORIES`, and groups whose members are not exported as group cards.
extension AddressBook {
    /// The vCards of people, one after another, with CRLF line ends, and then a group card for
    /// each of `groups` that none of the people belongs to.
    ///
    /// Each person's card carries the person's values, labels, image, group names
    /// (`CATEGORIES`), UID and the lines kept from an import. A person without a stored UID gets
    /// one derived from its record file, the same on every export. A group some of the people
    /// belong to travels in their `CATEGORIES`; any other group of `groups`, such as an empty
    /// one, is written as a group card (Apple's `X-ADDRESSBOOKSERVER-KIND:group` in 3.0,
    /// `KIND:group` in 4.0) with its name and UID, so that importing the export creates it too.
    ///
    /// ```swift
    /// let text = try book.exportVCards(book.allPeople(sortedBy: .lastNameFirst), groups: book.allGroups(), version: .v4)
    /// try Data(text.utf8).write(to: URL(filePath: "contacts.vcf"))
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/recordInAnotherBook`` for a person or group of another
    ///   book; ``ContactsError/Code/io`` when a saved image cannot be read.
    public func exportVCards(_ people: [Person], groups: [Group] = [], version: VCardVersion = .v3) throws -> String {
        let groupNames = groupNamesByMember()
        try requireOwnPeople(people)
        var cards: [VCard] = []
        cards.reserveCapacity(people.count)
        for person in people {
            let names = person.key.flatMap { groupNames[$0] } ?? []
            cards.append(
                VCardExporter.card(for: person, groupNames: names, imageData: try person.imageData(), version: version))
        }
        let exported = Set(people.compactMap(\.key))
        for group in groups {
            if let owner = group.owner, owner !== self {
                throw ContactsError(.recordInAnotherBook, "the group belongs to another address book")
            }
            let members = group.key.flatMap { memberships.members(of: $0) } ?? []
            guard members.isDisjoint(with: exported) else { continue }
            var card = GroupCard(group: group.state, key: group.key, memberUIDs: [])
            card.form = version == .v4 ? .rfc6350 : .apple
            cards.append(card.card())
        }
        return VCardWriter.serialize(cards)
    }
}
