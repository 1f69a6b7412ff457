import FoundationEssentials

/// Whose value of a property a merge of two people keeps, one choice per property, for
/// ``AddressBook/mergePerson(_:into:choosing:)``: what a program that shows two duplicates side
/// by side lets its user pick.
///
/// ```swift
/// try book.mergePerson(katieAgain, into: katie, choosing: [.jobTitle: .duplicate, .phones: .both])
/// ```
public enum PersonMergeChoice: String, Sendable, Hashable, CaseIterable {
    /// The value of the person who survives the merge (none when they have none).
    case survivor
    /// The value of the duplicate merged into them (none when it has none).
    case duplicate
    /// What ``AddressBook/mergePerson(_:into:)`` keeps: the survivor's single value, or the
    /// duplicate's when they have none; the entries of both for a multi-value.
    case both
}

/// Merging two people with one choice per property that differs: what the duplicates page of
/// `contacts serve` offers.
extension AddressBook {
    /// The properties whose values differ between two people, in
    /// ``PropertyID/personProperties`` order; multi-values are compared by their labels and
    /// values, not their identifiers. The kind and the read-only properties are left out.
    ///
    /// ```swift
    /// AddressBook.differingProperties(katie, katieAgain)   // [.phones, .jobTitle]
    /// ```
    static func differingProperties(_ first: Person, _ second: Person) -> [PropertyID] {
        PropertyID.personProperties.filter { property in
            guard !property.isReadOnly, property != .kind else { return false }
            let texts = (PersonChangeWords.texts(of: first.state.values[property]), PersonChangeWords.texts(of: second.state.values[property]))
            return !texts.0.elementsEqual(texts.1) { $0.label == $1.label && $0.text == $1.text }
        }
    }

    /// Two people side by side, as a merge of the duplicate into the survivor offers them: each
    /// property a merge may choose a value of (the kind and the read-only properties left out),
    /// in ``PropertyID/personProperties`` order, with each person's values as lines of text (an
    /// entry's label before its text, as `contacts log` shows them) and whether the two differ
    /// (``differingProperties(_:_:)``). What the duplicates page of `contacts serve` shows.
    ///
    /// ```swift
    /// for row in AddressBook.mergeComparison(katie, katieAgain) where row.differs {
    ///     print(row.property.localizedName, row.survivor, row.duplicate)   // phone ["mobile: +1 555 0100"] ["work: +1 555 0199"]
    /// }
    /// ```
    package static func mergeComparison(_ survivor: Person, _ duplicate: Person)
        -> [(property: PropertyID, survivor: [String], duplicate: [String], differs: Bool)]
    {
        let differing = Set(differingProperties(survivor, duplicate))
        func lines(_ person: Person, _ property: PropertyID) -> [String] {
            PersonChangeWords.texts(of: person.state.values[property]).map { ($0.label.map { "\($0): " } ?? "") + $0.text }
        }
        return PropertyID.personProperties.filter { !$0.isReadOnly && $0 != .kind }.map { property in
            (property, lines(survivor, property), lines(duplicate, property), differing.contains(property))
        }
    }

    /// Merges a duplicate into the person who survives it as ``mergePerson(_:into:)`` does,
    /// then keeps for each property of `choices` the value chosen; takes effect on the next
    /// save.
    ///
    /// A multi-value keeps, of the entries the merge united, those equal to one of the chosen
    /// person's (so the survivor's keep their identifiers); choosing a person who has no value
    /// removes the property.
    ///
    /// ```swift
    /// try book.mergePerson(katieAgain, into: katie, choosing: [.jobTitle: .duplicate, .phones: .survivor])
    /// try book.save()
    /// ```
    ///
    /// Choices for the kind and the read-only properties (the dates the store maintains) are
    /// ignored: the survivor keeps its own.
    ///
    /// - Throws: as ``mergePerson(_:into:)``: ``ContactsError/Code/personNotSaved`` when either
    ///   person is not a saved person of this book; ``ContactsError/Code/recordInAnotherBook``
    ///   when either belongs to another book; ``ContactsError/Code/invalidValue`` when both are
    ///   the same person; ``ContactsError/Code/io`` when the duplicate's image cannot be read;
    ///   ``ContactsError/Code/identifiersExhausted`` when the survivor has no multi-value
    ///   identifier left for a value it takes; ``ContactsError/Code/operationNotPermittedByUser``
    ///   when the book may not be changed.
    public func mergePerson(_ duplicate: Person, into survivor: Person, choosing choices: [PropertyID: PersonMergeChoice]) throws {
        let values = (survivor: survivor.state.values, duplicate: duplicate.state.values)
        try mergePerson(duplicate, into: survivor)
        var state = survivor.state
        for (property, choice) in choices where !property.isReadOnly && property != .kind {
            let chosen: PropertyValue?
            switch choice {
            case .both: continue
            case .survivor: chosen = values.survivor[property]
            case .duplicate: chosen = values.duplicate[property]
            }
            state.values[property] = Self.kept(state.values[property], like: chosen, property: property)
        }
        survivor.state = state
    }

    /// The entries of `united` equal to one of `chosen`'s, or `chosen` itself for a single value.
    private static func kept(_ united: PropertyValue?, like chosen: PropertyValue?, property: PropertyID) -> PropertyValue? {
        guard let chosen else { return nil }
        func filter<Value>(_ all: MultiValue<Value>, _ wanted: MultiValue<Value>, _ same: (Value, Value) -> Bool) -> MultiValue<Value>? {
            let entries = all.entries.filter { entry in wanted.values.contains { same($0, entry.value) } }
            return entries.isEmpty ? nil : MultiValue(entries: entries, nextIdentifier: all.nextIdentifier)
        }
        switch (united, chosen) {
        case (.multiString(let all)?, .multiString(let wanted)):
            return filter(all, wanted, EntryEquivalence.sameValue(for: property)).map(PropertyValue.multiString)
        case (.multiDate(let all)?, .multiDate(let wanted)): return filter(all, wanted, ==).map(PropertyValue.multiDate)
        case (.multiAddress(let all)?, .multiAddress(let wanted)): return filter(all, wanted, ==).map(PropertyValue.multiAddress)
        case (.multiInstantMessage(let all)?, .multiInstantMessage(let wanted)):
            return filter(all, wanted, ==).map(PropertyValue.multiInstantMessage)
        case (.multiSocialProfile(let all)?, .multiSocialProfile(let wanted)):
            return filter(all, wanted, ==).map(PropertyValue.multiSocialProfile)
        default: return chosen
        }
    }
}
