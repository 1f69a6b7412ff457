/// The domain of errors of vCards and the other contact formats (CSV, LDIF, abook, mutt
/// aliases): reading them, and the warnings of an import that recovered.
public enum InterchangeDomain: ErrorDomain {}

/// An error or warning about a vCard or another contact file: see ``PlainContactsError``.
/// It names the file (or the card's source) and the line. Failures of the store under an
/// import stay ``ContactsError``s.
///
/// ```swift
/// do {
///     _ = try book.importVCards(from: url)
/// } catch let error as InterchangeError where error.code == .malformedVCard {
///     print("\(error.path ?? ""):\(error.line ?? 0): \(error.message)")
/// }
/// ```
public typealias InterchangeError = PlainContactsError<InterchangeDomain>

extension PlainContactsError.Code where Domain == InterchangeDomain {
    /// A vCard could not be read.
    public static let malformedVCard = Self(rawValue: "malformedVCard")
    /// A file in another contacts format (CSV, LDIF, abook, mutt aliases) could not be read,
    /// or, with a strict import, needed a recovery.
    public static let malformedInput = Self(rawValue: "malformedInput")
    /// A text value is longer than the reader takes (64 KiB; binary values such as photos may be
    /// longer): a warning, the property being left out and the rest of the card read.
    public static let oversizedValue = Self(rawValue: "oversizedValue")
}
