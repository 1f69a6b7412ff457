extension Person {
    /// Sets the prefix, first, middle and last name and suffix from a name written as one line,
    /// as people type it and as a vCard's `FN` holds it; a part the line does not give is
    /// removed.
    ///
    /// "Lovelace, Ada" names the last name first; leading titles (Dr, Prof…) are the prefix
    /// and trailing ones (Jr, PhD…) the suffix; "Ludwig van Beethoven" keeps the particle
    /// with the last name; "山田 太郎" puts the family name first. The phonetic names, the
    /// nickname and the organization are left as they are.
    ///
    /// ```swift
    /// let person = Person()
    /// person.setName(written: "Dr. Ada Lovelace")
    /// person.prefix     // "Dr."
    /// person.lastName   // "Lovelace"
    /// ```
    public func setName(written text: String) {
        let name = FormattedName(text)
        prefix = name.prefix
        firstName = name.first
        middleName = name.middle
        lastName = name.last
        suffix = name.suffix
    }
}
