/// Long-term references and their re-identification.
extension AddressBook {
    /// A long-term reference to a saved person, or `nil` for a person never saved.
    public func reference(to person: Person) -> PersonReference? {
        guard person.book === self, let key = person.key, person.recordID.isValid else { return nil }
        return PersonReference(recordID: person.recordID, nameHash: person.state.nameHash, key: key.rawValue)
    }

    /// Finds the person a reference points to, re-identifying it when its record ID went stale.
    ///
    /// 1. The person with the referenced ID is the one when its file key or its name hash
    ///    matches: ``ReferenceResolution/found(_:)``.
    /// 2. Otherwise the person whose file key is the referenced key, or who absorbed that key in
    ///    a merge of duplicates, is the one: ``ReferenceResolution/reidentified(_:_:)``.
    /// 3. Otherwise people whose stored name hash equals the referenced hash: one is
    ///    ``ReferenceResolution/reidentified(_:_:)``, several are
    ///    ``ReferenceResolution/ambiguous(_:)``, none is ``ReferenceResolution/notFound``.
    public func resolve(_ reference: PersonReference) -> ReferenceResolution {
        if let person = person(withID: reference.recordID),
            person.key?.rawValue == reference.key || person.state.nameHash == reference.nameHash
        {
            return .found(person)
        }
        if let key = RecordKey(rawValue: reference.key), let person = people[key] {
            return reidentified(person)
        }
        if let person = people.values.first(where: { $0.state.mergedKeys.contains(reference.key) }) {
            return reidentified(person)
        }
        let candidates = sorted(people.values.filter { $0.state.nameHash == reference.nameHash }, by: sortOrdering)
        switch candidates.count {
        case 0: return .notFound
        case 1: return reidentified(candidates[0])
        default: return .ambiguous(candidates)
        }
    }

    private func reidentified(_ person: Person) -> ReferenceResolution {
        guard let fresh = reference(to: person) else { return .notFound }
        return .reidentified(person, fresh)
    }
}
