/// Long-term references and their re-identification.
extension AddressBook {
    /// A long-term reference to a saved person, or `nil` for a person never saved.
    public func reference(to person: Person) -> PersonReference? {
        guard person.owner === self, let key = person.key, person.recordID.isValid else { return nil }
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
    ///
    /// A person file that cannot be read is passed over and reported by ``lastLoadError``;
    /// check it before trusting an answer other than ``ReferenceResolution/found(_:)``.
    public func resolve(_ reference: PersonReference) -> ReferenceResolution {
        if let person = person(withID: reference.recordID),
            person.key?.rawValue == reference.key || person.state.nameHash == reference.nameHash
        {
            return .found(person)
        }
        if let key = RecordKey(rawValue: reference.key), let person = materializeQuietly(key) {
            return reidentified(person)
        }
        ensureCatalogQuietly()
        var merged: [RecordKey] = []
        var sameName: [RecordKey] = []
        for key in catalogKeys {
            if let person = people.byKey[key] {
                if person.state.mergedKeys.contains(reference.key) { merged.append(key) }
                if person.state.nameHash == reference.nameHash { sameName.append(key) }
            } else if let summary = catalog?[key] {
                if summary.mergedKeys.contains(reference.key) { merged.append(key) }
                if summary.nameHash == reference.nameHash { sameName.append(key) }
            }
        }
        if let key = merged.sorted().first, let person = materializeQuietly(key) {
            return reidentified(person)
        }
        let candidates = sorted(sameName.compactMap { materializeQuietly($0) }, by: sortOrdering)
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
