import FoundationEssentials

/// Finding people entered twice, and merging them into one.
extension AddressBook {
    /// Groups of people who are probably the same person, entered twice or brought together
    /// by a merge of clones.
    ///
    /// Two people are linked when they share any of:
    /// - a name: both have a first and a last name and their name hashes are equal (case,
    ///   diacritics and width do not matter);
    /// - an organization name, for organizations (compared as names are);
    /// - a phone number: the last nine digits are equal, when both have at least seven digits;
    /// - an email address, compared without regard to case.
    ///
    /// Links chain (A shares a phone with B, B an email with C: one group), so the groups are
    /// disjoint. Each group is sorted by record ID, and the groups by their first member's ID;
    /// unsaved people come last.
    ///
    /// ```swift
    /// for group in book.likelyDuplicates() {
    ///     let survivor = group[0]
    ///     for duplicate in group.dropFirst() { try book.mergePerson(duplicate, into: survivor) }
    /// }
    /// try book.save()
    /// ```
    public func likelyDuplicates() -> [[Person]] {
        let everyone = allPeople().sorted(by: AddressBook.tieBreak)
        var parent = Array(everyone.indices)
        func root(_ index: Int) -> Int {
            var index = index
            while parent[index] != index {
                parent[index] = parent[parent[index]]
                index = parent[index]
            }
            return index
        }
        var firstWithKey: [String: Int] = [:]
        for (index, person) in everyone.enumerated() {
            for key in AddressBook.duplicateKeys(of: person.state) {
                guard let other = firstWithKey[key] else {
                    firstWithKey[key] = index
                    continue
                }
                let (a, b) = (root(index), root(other))
                if a != b { parent[max(a, b)] = min(a, b) }
            }
        }
        var groups: [Int: [Int]] = [:]
        for index in everyone.indices { groups[root(index), default: []].append(index) }
        return groups.values.filter { $0.count > 1 }
            .sorted { $0[0] < $1[0] }
            .map { $0.map { everyone[$0] } }
    }

    /// Merges a duplicate into the person who survives it, then removes the duplicate; takes
    /// effect on the next save.
    ///
    /// - The survivor keeps its own single values (names, organization, birthday, note…) and
    ///   takes the duplicate's where it has none. Its kind stays as it is.
    /// - Multi-values are united: a duplicate's value that the survivor already has (phones
    ///   compared by their digits, emails without regard to case, other values exactly) is
    ///   dropped; the others are appended with their labels and new identifiers of the survivor.
    /// - The survivor keeps its image, or takes the duplicate's if it has none.
    /// - The survivor joins every group the duplicate belonged to.
    /// - Unknown keys: the survivor's win; those it lacks come from the duplicate.
    /// - The survivor records the duplicate's file key (and the keys merged into the duplicate),
    ///   so that ``resolve(_:)`` re-identifies references to the duplicate as the survivor.
    ///
    /// ```swift
    /// try book.mergePerson(katieAgain, into: katie)
    /// try book.save()
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/personNotSaved`` when either person is not a saved person
    ///   of this book; ``ContactsError/Code/recordInAnotherBook`` when either belongs to another
    ///   book; ``ContactsError/Code/invalidValue`` when both are the same person;
    ///   ``ContactsError/Code/io`` when the duplicate's image cannot be read;
    ///   ``ContactsError/Code/identifiersExhausted`` when the survivor has no multi-value
    ///   identifier left for a value it takes;
    ///   ``ContactsError/Code/operationNotPermittedByUser`` when the book may not be changed.
    public func mergePerson(_ duplicate: Person, into survivor: Person) throws {
        try checkWritable()
        let survivorKey = try savedKey(of: survivor)
        let duplicateKey = try savedKey(of: duplicate)
        guard survivorKey != duplicateKey else {
            throw ContactsError(.invalidValue, "a person cannot be merged into itself")
        }
        var state = survivor.state
        let other = duplicate.state
        var counter = state.nextValueIdentifier
        for property in PropertyID.personProperties where !property.isReadOnly && property != .kind {
            guard let value = other.values[property] else { continue }
            state.values[property] = try AddressBook.united(state.values[property], value, property: property, counter: &counter)
        }
        state.nextValueIdentifier = counter
        if case .none = state.image {
            switch other.image {
            case .none: break
            case .pending(let data): state.image = .pending(data)
            case .stored: if let data = try duplicate.imageData() { state.image = .pending(data) }
            }
        }
        state.unknownFields.merge(other.unknownFields) { mine, _ in mine }
        state.mergedKeys = Array(Set(state.mergedKeys).union(other.mergedKeys).union([duplicateKey.rawValue])).sorted()

        survivor.state = state
        memberships.addToGroups(of: duplicateKey, survivorKey)
        try remove(duplicate)
    }

    /// The key of a saved person of this book.
    private func savedKey(of person: Person) throws -> RecordKey {
        if let owner = person.owner, owner !== self {
            throw ContactsError(.recordInAnotherBook, "the person belongs to another address book")
        }
        guard person.owner === self, let key = person.key, people.holds(person), person.recordID.isValid else {
            throw ContactsError(.personNotSaved, "only saved people of this address book can be merged; save first")
        }
        return key
    }

    /// The keys under which a person may meet its duplicates.
    static func duplicateKeys(of state: PersonState) -> [String] {
        var keys: [String] = []
        func present(_ property: PropertyID) -> String? {
            guard let text = state.string(property)?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
                return nil
            }
            return text
        }
        if present(.firstName) != nil, present(.lastName) != nil {
            keys.append("name:" + state.nameHash.rawValue)
        }
        if case .kind(.organization)? = state.values[.kind], let organization = present(.organization) {
            keys.append("organization:" + NameNormalizer.normalize(organization))
        }
        if case .multiString(let phones)? = state.values[.phones] {
            for phone in phones.values {
                let digits = EntryEquivalence.digits(of: phone)
                if digits.count >= 7 { keys.append("phone:" + String(digits.suffix(9))) }
            }
        }
        if case .multiString(let emails)? = state.values[.emails] {
            for email in emails.values {
                let folded = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
                if !folded.isEmpty { keys.append("email:" + folded) }
            }
        }
        return keys
    }

    /// The survivor's value of a property united with the duplicate's.
    private static func united(_ mine: PropertyValue?, _ theirs: PropertyValue, property: PropertyID, counter: inout Int32) throws -> PropertyValue {
        switch theirs {
        case .multiString(let values):
            var existing: MultiValue<String>?
            if case .multiString(let value)? = mine { existing = value }
            return .multiString(try united(existing, values, counter: &counter, same: EntryEquivalence.sameValue(for: property)))
        case .multiDate(let values):
            var existing: MultiValue<ContactDate>?
            if case .multiDate(let value)? = mine { existing = value }
            return .multiDate(try united(existing, values, counter: &counter, same: ==))
        case .multiAddress(let values):
            var existing: MultiValue<PostalAddress>?
            if case .multiAddress(let value)? = mine { existing = value }
            return .multiAddress(try united(existing, values, counter: &counter, same: ==))
        case .multiInstantMessage(let values):
            var existing: MultiValue<InstantMessage>?
            if case .multiInstantMessage(let value)? = mine { existing = value }
            return .multiInstantMessage(try united(existing, values, counter: &counter, same: ==))
        case .multiSocialProfile(let values):
            var existing: MultiValue<SocialProfile>?
            if case .multiSocialProfile(let value)? = mine { existing = value }
            return .multiSocialProfile(try united(existing, values, counter: &counter, same: ==))
        case .string, .timestamp, .date, .kind:
            return mine ?? theirs
        }
    }

    /// The survivor's entries followed by the duplicate's entries it does not have yet, each
    /// with a new identifier of the survivor.
    private static func united<Value>(
        _ mine: MultiValue<Value>?, _ theirs: MultiValue<Value>, counter: inout Int32, same: (Value, Value) -> Bool
    ) throws -> MultiValue<Value> {
        var entries = mine?.entries ?? []
        var next = max(counter, mine?.nextIdentifier ?? 0, MultiValueIdentifier.successor(of: entries.map(\.identifier.rawValue).max() ?? -1))
        var jumps = true  // the survivor is saved: clones rarely pick the same identifiers
        for entry in theirs.entries where !entries.contains(where: { same($0.value, entry.value) }) {
            if jumps {
                next = MultiValueIdentifier.spreadStart(from: next)
                jumps = false
            }
            guard next <= MultiValueIdentifier.highest else { throw ContactsError.identifiersExhausted(path: nil) }
            entries.append(.init(
                identifier: MultiValueIdentifier(rawValue: next), label: entry.label, value: entry.value,
                unknownFields: entry.unknownFields))
            next += 1
        }
        counter = next
        return MultiValue(entries: entries, nextIdentifier: next)
    }
}
