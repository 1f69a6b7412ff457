/// Which name part people are sorted by first.
///
/// The AddressBook equivalent is `ABPersonSortOrdering` (`kABPersonSortByFirstName`,
/// `kABPersonSortByLastName`).
///
/// It encodes as its raw value, so a settings file reads `"lastName"`:
///
/// ```swift
/// let ordering = SortOrdering(rawValue: "lastName")  // .lastName
/// ```
public enum SortOrdering: String, Sendable, Codable, CaseIterable {
    /// Sort by first name, then by last name (`kABPersonSortByFirstName`).
    case firstName
    /// Sort by last name, then by first name (`kABPersonSortByLastName`).
    case lastName
}
