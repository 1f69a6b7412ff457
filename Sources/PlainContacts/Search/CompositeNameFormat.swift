/// The order in which the parts of a person's composite name are written.
///
/// The AddressBook equivalent is `ABPersonCompositeNameFormat`
/// (`kABPersonCompositeNameFormatFirstNameFirst`, `kABPersonCompositeNameFormatLastNameFirst`).
/// Names written in Chinese, Japanese or Korean script are always written last name first,
/// whatever the format.
///
/// It encodes as its raw value, so a settings file reads `"lastNameFirst"`:
///
/// ```swift
/// let format = CompositeNameFormat(rawValue: "lastNameFirst")  // .lastNameFirst
/// ```
public enum CompositeNameFormat: String, Sendable, Codable, CaseIterable {
    /// Prefix, first, middle, last, suffix: "Dr. Katie Anne Bell Jr.".
    case firstNameFirst
    /// Prefix, last, first, middle, suffix: "Dr. Bell Katie Anne Jr.".
    case lastNameFirst
}
