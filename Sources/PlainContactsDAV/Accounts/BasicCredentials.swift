import FoundationEssentials

/// The user and password of an HTTP Basic `Authorization` header (RFC 7617).
///
/// The header value is `Basic <base64 of "user:password">`. The scheme is case-insensitive,
/// spaces and tabs around and between the two parts are tolerated, the user name ends at the
/// first colon (so a password may contain colons, a user name cannot), and both are UTF-8 (the
/// `charset="UTF-8"` the challenge announces).
///
/// ```swift
/// let credentials = BasicCredentials(authorizationHeader: "Basic YWRhOnMzY3JldDp4")
/// credentials?.user      // "ada"
/// credentials?.password  // "s3cret:x"
/// ```
struct BasicCredentials: Sendable, Equatable, CustomStringConvertible {
    /// The longest base64 token accepted, in bytes: room for a 64-character user name and a
    /// password of some 3,000 bytes, while a header of megabytes is refused before decoding.
    static let maximumEncodedCount = 4_096

    /// The user name as sent; not yet checked against ``ServerUserName``'s rules.
    let user: String
    /// The password as sent.
    let password: String

    /// Wraps a user and password.
    ///
    /// ```swift
    /// BasicCredentials(user: "ada", password: "s3cret")
    /// ```
    init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// Reads an `Authorization` header value, or returns `nil` when it is not Basic
    /// authentication, the token is not valid padded base64 or longer than
    /// ``maximumEncodedCount``, the decoded bytes are not UTF-8, there is no colon, or the
    /// user name is empty.
    ///
    /// ```swift
    /// BasicCredentials(authorizationHeader: "basic  YWRhOnMzY3JldA== ")?.user  // "ada"
    /// BasicCredentials(authorizationHeader: "Bearer abc")                      // nil
    /// ```
    init?(authorizationHeader: String) {
        let parts = authorizationHeader.utf8.split(whereSeparator: Self.isSpaceOrTab)
        guard parts.count == 2,
            String(decoding: parts[0], as: UTF8.self).lowercased() == "basic",
            parts[1].count <= Self.maximumEncodedCount,
            let decoded = Data(base64Encoded: Data(parts[1])),
            let text = String(validating: decoded, as: UTF8.self),
            let colon = text.firstIndex(of: ":")
        else {
            return nil
        }
        let user = String(text[..<colon])
        guard !user.isEmpty else { return nil }
        self.init(user: user, password: String(text[text.index(after: colon)...]))
    }

    /// Whether `byte` is a space or a horizontal tab (HTTP's optional whitespace).
    private static func isSpaceOrTab(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// A fixed text: neither the user name nor the password reaches a log.
    ///
    /// ```swift
    /// "\(credentials)"  // "Basic credentials (redacted)"
    /// ```
    var description: String { "Basic credentials (redacted)" }
}
