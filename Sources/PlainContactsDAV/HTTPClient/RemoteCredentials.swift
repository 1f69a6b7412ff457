import Foundation

/// A user name and password for a server, sent with HTTP Basic authentication.
///
/// The password never appears in a description, a debug description, a mirror or an error:
/// printing credentials shows the user name only.
///
/// ```swift
/// let credentials = RemoteCredentials(user: "me", password: secret)
/// print(credentials)   // me (password hidden)
/// ```
package struct RemoteCredentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The user name.
    package var user: String
    /// The password; kept in memory only.
    package var password: String

    /// Creates credentials.
    package init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// The user name and a note that the password is hidden.
    package var description: String { "\(user) (password hidden)" }
    /// The same as ``description``.
    package var debugDescription: String { description }
    /// The user name only, for `dump` and debuggers.
    package var customMirror: Mirror { Mirror(self, children: ["user": user]) }

    /// The value of an `Authorization` header for these credentials.
    package var basicAuthorization: String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }
}
