import PlainContacts

/// The `list` filters: `--email TEXT`, `--phone DIGITS`, `--org TEXT`. A person passes when
/// every given filter matches.
struct PersonFilter {
    /// Some email address contains this text, ignoring case.
    var email: String?
    /// Some phone number's digits contain these digits; other characters are ignored on both
    /// sides, so `5550100` finds `+1 (555) 0100`.
    var phoneDigits: String?
    /// The organization contains this text, ignoring case and diacritics.
    var organization: String?

    /// Reads the filters of `list`.
    ///
    /// - Throws: a usage error for `--phone` without digits.
    init(_ arguments: ParsedArguments<ListCommand.Options>) throws(CLIError) {
        email = arguments[\.email].map { $0.lowercased() }
        organization = arguments[\.org].map(NameNormalizer.normalize)
        if let phone = arguments[\.phone] {
            let digits = PersonFilter.digits(phone)
            guard !digits.isEmpty else { throw CLIError.usage("--phone needs some digits to look for") }
            phoneDigits = digits
        }
    }

    func matches(_ person: Person) -> Bool {
        if let email, !person.emails.values.contains(where: { $0.lowercased().contains(email) }) {
            return false
        }
        if let phoneDigits, !person.phones.values.contains(where: { PersonFilter.digits($0).contains(phoneDigits) }) {
            return false
        }
        if let organization {
            guard let name = person.organization, NameNormalizer.normalize(name).contains(organization) else { return false }
        }
        return true
    }

    /// The decimal digits of `text`, in any script, as ASCII digits.
    static func digits(_ text: String) -> String {
        String(text.unicodeScalars.compactMap { scalar -> Character? in
            guard scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue else { return nil }
            return Character(String(Int(value)))
        })
    }
}
