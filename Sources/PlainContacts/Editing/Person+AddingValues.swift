/// Adding one value to a person's list without making a second entry of a value they have:
/// `contacts set --phone`, and any program that adds what it was given.
extension Person {
    /// Adds `value` to the multi-value text property `property` (phones, emails, URLs,
    /// related names), unless the person has that value there already, under any label.
    ///
    /// Values are compared as the store's merges compare them: phone numbers by their digits
    /// (`+1 555 0100` is `+15550100`), email addresses without surrounding space and case,
    /// anything else exactly. The new entry gets a new identifier and comes last.
    ///
    /// ```swift
    /// if try !person.addValue("+1 555 0199", label: .mobile, to: .phones) {
    ///     print("already there")
    /// }
    /// ```
    ///
    /// - Returns: Whether the value was added.
    /// - Throws: ``ContactsError/Code/propertyTypeMismatch`` when `property` is not a
    ///   multi-value text property; ``ContactsError/Code/identifiersExhausted`` when the
    ///   record has handed out all its identifiers.
    @discardableResult
    public func addValue(_ value: String, label: Label? = nil, to property: PropertyID) throws -> Bool {
        var list = MultiValue<String>()
        switch self.value(for: property) {
        case .multiString(let stored)?: list = stored
        case nil: break
        default:
            throw ContactsError(.propertyTypeMismatch, "'\(property.key)' does not take a list of text values")
        }
        let same = EntryEquivalence.sameValue(for: property)
        guard !list.values.contains(where: { same($0, value) }) else { return false }
        list.add(value, label: label)
        try setValue(.multiString(list), for: property)
        return true
    }

    /// Adds `address` to the person's addresses unless they have the same address already,
    /// under any label.
    ///
    /// - Returns: Whether the address was added.
    /// - Throws: ``ContactsError/Code/identifiersExhausted`` when the record has handed out all
    ///   its identifiers.
    @discardableResult
    public func addAddress(_ address: PostalAddress, label: Label? = nil) throws -> Bool {
        var list = addresses
        guard !list.values.contains(address) else { return false }
        list.add(address, label: label)
        try setValue(.multiAddress(list), for: .addresses)
        return true
    }
}
