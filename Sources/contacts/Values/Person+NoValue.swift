import PlainContacts

extension Person {
    /// Whether the person holds no value yet: no property set and the kind a person's (an
    /// organization is a value given), as `contacts add` and `contacts new` check before
    /// saving anything.
    var holdsNoValue: Bool {
        PropertyID.personProperties.allSatisfy { property in
            property == .kind ? kind == .person : value(for: property) == nil
        }
    }
}
