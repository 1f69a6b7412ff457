/// Which people a list keeps, by their email addresses, phone numbers and organization:
/// `contacts list --email --phone --org`. A person passes when every filter given matches.
///
/// ```swift
/// let filter = PersonFilter(phone: "555 0100", organization: "acme")
/// let found = book.allPeople().filter(filter.matches)
/// ```
public struct PersonFilter: Sendable {
    /// Some email address contains this text, ignoring case.
    public var email: String?
    /// Some phone number's digits contain these digits; other characters are ignored on both
    /// sides, so `5550100` finds `+1 (555) 0100`. Empty when the text given had no digit.
    public var phoneDigits: String?
    /// The organization contains this text, ignoring case, diacritics and character width.
    public var organization: String?

    /// A filter for people with an email address containing `email`, a phone number
    /// containing the digits of `phone` (in any script) and an organization containing
    /// `organization`; a filter not given keeps everyone.
    public init(email: String? = nil, phone: String? = nil, organization: String? = nil) {
        self.email = email?.lowercased()
        self.phoneDigits = phone.map { EntryEquivalence.digits(of: $0) }
        self.organization = organization.map(NameNormalizer.normalize)
    }

    /// Whether `person` passes every filter given.
    public func matches(_ person: Person) -> Bool {
        if let email, !person.emails.values.contains(where: { $0.lowercased().contains(email) }) {
            return false
        }
        if let phoneDigits, !person.phones.values.contains(where: { EntryEquivalence.digits(of: $0).contains(phoneDigits) }) {
            return false
        }
        if let organization {
            guard let name = person.organization, NameNormalizer.normalize(name).contains(organization) else { return false }
        }
        return true
    }
}
