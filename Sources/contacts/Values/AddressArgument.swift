import PlainContacts

/// A postal address typed as `[LABEL:]STREET;CITY;STATE;ZIP;COUNTRY`; trailing parts may be
/// left out and empty parts are absent: `home:1 Main St;Springfield;;62701`.
enum AddressArgument {
    /// Parses an address.
    ///
    /// - Throws: a usage error for more than five parts or an empty address.
    static func parse(_ text: String) throws(CLIError) -> (label: Label?, address: PostalAddress) {
        let labeled = LabeledValue(parsing: text)
        let parts = labeled.value.split(separator: ";", omittingEmptySubsequences: false).map { part -> String? in
            let trimmed = String(part).trimmingWhitespace
            return trimmed.isEmpty ? nil : trimmed
        }
        guard parts.count <= 5 else {
            throw CLIError.usage("--address takes at most five parts: STREET;CITY;STATE;ZIP;COUNTRY")
        }
        func part(_ index: Int) -> String? { index < parts.count ? parts[index] : nil }
        let address = PostalAddress(street: part(0), city: part(1), state: part(2), zip: part(3), country: part(4))
        guard !address.isEmpty else { throw CLIError.usage("--address needs at least one part") }
        return (labeled.label, address)
    }
}
