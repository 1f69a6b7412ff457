/// The vCard version of exported cards.
///
/// ```swift
/// let text = try book.exportVCards(book.allPeople(), version: .v4)
/// VCardVersion(rawValue: "3.0")   // .v3
/// ```
public enum VCardVersion: String, Sendable, CaseIterable {
    /// vCard 3.0 (RFC 2426), what phones and macOS Contacts exchange; the default.
    case v3 = "3.0"
    /// vCard 4.0 (RFC 6350).
    case v4 = "4.0"
}
