import PlainContacts

/// The name of an account of `contacts serve`, such as `kim` or `kim@example.org`, checked
/// against the naming rules.
///
/// A name has 1 to 64 ASCII letters, digits, `.`, `_`, `-`, `@` and `+`, and starts with a
/// letter or a digit:
/// - no `:`, because HTTP Basic authentication (RFC 7617) splits `user:password` at the first
///   colon, so a name with one could never sign in;
/// - no control character, space or other invisible character, which would reach terminals
///   and logs;
/// - no `/` or `%`, because a client puts the name in the URLs it asks for;
/// - nothing outside ASCII: clients disagree on how they encode such a name in the header
///   (UTF-8 or Latin-1, composed or decomposed accents), so it would sign in from some and not
///   from others;
/// - no leading `.`, `-` or `@`, so that a name is neither `..` nor an option.
///
/// Names are case-sensitive: `Kim` and `kim` are two accounts.
///
/// ```swift
/// let name = try ServerUserName("kim@example.org")
/// print(name)  // kim@example.org
/// try ServerUserName("kim:x")  // throws .invalidValue
/// ```
package struct ServerUserName: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The longest accepted name, in characters: longer than any real login, short enough for
    /// messages and URLs.
    package static let maximumLength = 64

    /// The name as written.
    package let rawValue: String

    /// Checks `text` against the naming rules and wraps it.
    ///
    /// ```swift
    /// let name = try ServerUserName("kim")
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/invalidValue`` saying which rule `text` breaks.
    package init(_ text: String) throws(ContactsError) {
        if let problem = ServerUserName.problem(with: text) {
            throw ContactsError(.invalidValue, problem)
        }
        rawValue = text
    }

    /// Whether `text` follows the naming rules.
    ///
    /// ```swift
    /// ServerUserName.isValid("kim")  // true
    /// ServerUserName.isValid("..")   // false
    /// ```
    static func isValid(_ text: String) -> Bool {
        problem(with: text) == nil
    }

    /// Why `text` is not a valid name, as a sentence that never quotes it (it may be a
    /// password typed in the wrong place), or `nil` when it is valid.
    private static func problem(with text: String) -> String? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first else { return "a user name must not be empty" }
        if bytes.contains(UInt8(ascii: ":")) {
            return "a user name must not contain ':', which separates the name from the password in HTTP Basic authentication"
        }
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            return "a user name must not contain control characters"
        }
        guard bytes.count <= maximumLength, bytes.allSatisfy(isAllowed) else {
            return "a user name has 1 to \(maximumLength) ASCII letters, digits, '.', '_', '-', '@' and '+'"
        }
        guard isLetterOrDigit(first) else { return "a user name must start with a letter or a digit" }
        return nil
    }

    /// Whether `byte` may appear in a name.
    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "@"), UInt8(ascii: "+"): true
        default: isLetterOrDigit(byte)
        }
    }

    /// Whether `byte` is an ASCII letter or digit.
    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            false
        }
    }

    /// The name as written.
    package var description: String { rawValue }

    /// Byte order, as the accounts are listed.
    package static func < (left: ServerUserName, right: ServerUserName) -> Bool {
        left.rawValue.utf8.lexicographicallyPrecedes(right.rawValue.utf8)
    }
}
