import FoundationEssentials

/// How ``AddressBook/applyCard(_:to:merging:placement:)`` puts a card's values into a person
/// the book already has.
///
/// ```swift
/// try book.applyCard(card, to: person, merging: .cardWins(datedByCard: false))
/// ```
package enum CardMerging {
    /// The store's version is the base: what the card says wins, and what it cannot carry
    /// (multi-value identifiers, merged record keys, fields the card has no line for) is kept.
    /// `datedByCard` takes the card's `REV` as the record's modification date, so that every
    /// clone taking the same card writes the same bytes.
    case cardWins(datedByCard: Bool)
    /// A three-way merge against `base`, the version both sides last had (`nil` for versions
    /// met for the first time), property by property, `prefer` settling conflicts. Without a
    /// base, `history` (the record file's earlier versions, newest first) may hold a version
    /// equal to the card: it is then the base, so that what only the store changed since is
    /// kept.
    case threeWay(base: PersonState?, prefer: MergePreference?, history: ((RecordKey) -> [Data])? = nil)
    /// An import's merge (``VCardMerge``): the card's single values replace the person's, its
    /// multi-values and kept lines are united with the person's.
    case unite
}

/// What ``AddressBook/applyCard(_:to:merging:placement:)`` did.
package struct AppliedCard {
    /// What became of the person.
    package enum Change: Equatable, Sendable {
        /// The card is a new person of the book.
        case added
        /// The person took the card's values.
        case changed
        /// The person already held what the card says.
        case unchanged
        /// The merge left these properties in conflict; the person was not changed.
        case conflicted([String])
    }

    /// The person the card was applied to, or the one it became.
    package let person: Person
    package let change: Change
    /// The card in the store's terms: its multi-value entries numbered after the store's, its
    /// image the store's when it is the same picture. The card itself for an added person or
    /// an import's merge.
    let card: PersonState

    /// Whether the person says what the card says (in the store's terms): a card made from the
    /// person would tell the card's sender nothing new.
    package var saysCard: Bool {
        CardMerge.sameContent(person.state, card)
    }
}

extension AddressBook {
    /// Applies a person's card to the book: a new person when `person` is `nil`, else the
    /// card merged into `person` as `merging` says. Nothing is written until ``save()``;
    /// ``saveCard(_:to:merging:)`` applies and saves. Every path that takes a card into the
    /// store (the server's `PUT`, the sync, an import) goes through here.
    ///
    /// ```swift
    /// let applied = try book.applyCard(card, to: book.person(forKey: key), merging: .cardWins(datedByCard: false))
    /// try book.save()
    /// ```
    ///
    /// - Parameter placement: where a new person goes (a key it carried, its UID).
    /// - Throws: the errors of ``add(_:)-3nb2c`` for a new person; reading the person's image to
    ///   compare it with the card's; ``ContactsError/Code/identifiersExhausted`` for an import.
    package func applyCard(
        _ card: PersonState, to person: Person?, merging: CardMerging, placement: RecordPlacement? = nil
    ) throws -> AppliedCard {
        guard let person else {
            let person = Person(state: card)
            if let placement { try add(person, placement: placement) } else { try add(person) }
            return AppliedCard(person: person, change: .added, card: card)
        }
        switch merging {
        case .unite:
            let before = person.state
            try VCardMerge.merge(Person(state: card), into: person)
            return AppliedCard(person: person, change: person.state == before ? .unchanged : .changed, card: card)
        case .cardWins(let datedByCard):
            var outcome = try merge(card, into: person, base: person.state, prefer: .remote)
            if datedByCard, let revision = card.values[.modificationDate] {
                outcome.merged.values[.modificationDate] = revision
            }
            return take(outcome, into: person)
        case .threeWay(let base, let prefer, let history):
            var outcome = try merge(card, into: person, base: base, prefer: prefer)
            if base == nil, let history, !outcome.conflicts.isEmpty || !CardMerge.sameContent(outcome.merged, person.state),
                let earlier = earlierVersion(of: person, equalTo: outcome.theirs, in: history)
            {
                outcome = try merge(card, into: person, base: earlier, prefer: prefer)
            }
            return take(outcome, into: person)
        }
    }

    /// Applies a person's card as ``applyCard(_:to:merging:placement:)`` does and saves the
    /// book: what one client's write of one card does.
    ///
    /// ```swift
    /// let applied = try book.saveCard(card, to: nil, merging: .cardWins(datedByCard: false))
    /// print(applied.person.recordID)
    /// ```
    ///
    /// - Throws: the errors of ``applyCard(_:to:merging:placement:)`` and of ``save()``.
    @discardableResult
    package func saveCard(_ card: PersonState, to person: Person?, merging: CardMerging) throws -> AppliedCard {
        let applied = try applyCard(card, to: person, merging: merging)
        try save()
        return applied
    }

    /// The card merged with the person's version against `base`.
    private func merge(_ card: PersonState, into person: Person, base: PersonState?, prefer: MergePreference?) throws
        -> CardMerge.Outcome
    {
        try CardMerge.merge(
            base: base, ours: person.state, theirs: card, prefer: prefer, key: person.key, image: person.imageData)
    }

    private func take(_ outcome: CardMerge.Outcome, into person: Person) -> AppliedCard {
        guard outcome.conflicts.isEmpty else {
            return AppliedCard(person: person, change: .conflicted(outcome.conflicts), card: outcome.theirs)
        }
        guard !CardMerge.sameContent(outcome.merged, person.state) else {
            return AppliedCard(person: person, change: .unchanged, card: outcome.theirs)
        }
        person.state = outcome.merged
        return AppliedCard(person: person, change: .changed, card: outcome.theirs)
    }

    /// The newest earlier version of the person's record file whose content is the card's.
    private func earlierVersion(
        of person: Person, equalTo card: PersonState, in history: (RecordKey) -> [Data]
    ) -> PersonState? {
        guard let key = person.key else { return nil }
        let path = StoreLayout.personPath(key)
        for data in history(key) {
            guard var version = try? PersonRecordCoder.decode(data, path: path).state else { continue }
            if VCardRecordFields.uid(of: card) == nil { VCardRecordFields.removeDerivedUID(from: &version, key: key) }
            if CardMerge.sameContent(version, card) { return version }
        }
        return nil
    }
}
