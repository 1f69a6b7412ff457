/// Whether a person record stands for a person or an organization.
///
/// The AddressBook equivalent is `kABPersonKindProperty` with `kABPersonKindPerson` and
/// `kABPersonKindOrganization`.
public enum PersonKind: String, Sendable, Hashable, CaseIterable {
    /// A human being.
    case person
    /// A company or other organization; its composite name is the organization name.
    case organization
}
