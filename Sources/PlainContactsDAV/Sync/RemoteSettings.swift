import FoundationEssentials
import PlainContacts
import PlainContactsSystem

/// How to reach one remote: a server address book (a CardDAV collection) the store syncs
/// with, as kept in the store's device-local `.contacts/remotes.json` (see
/// ``RemoteSettingsFile``).
///
/// The password is never part of the settings: it comes from ``passwordCommand``, the
/// environment or a prompt each time a sync needs it.
///
/// ```swift
/// let remote = RemoteSettings(
///     name: try RemoteName("fastmail"),
///     url: try RemoteSettings.collectionURL(from: "https://carddav.fastmail.com/dav/addressbooks/user/kim@fastmail.com/Default/"),
///     user: "kim@fastmail.com",
///     passwordCommand: "pass show fastmail")
/// ```
package struct RemoteSettings: Sendable, Equatable {
    /// The remote's name in this store.
    package var name: RemoteName
    /// The address book collection's URL: `http` or `https`, with a host, without a user or
    /// password in it.
    package var url: URL
    /// The user name to authenticate with; `nil` when the server asks for none.
    package var user: String?
    /// A shell command whose output's first line is the password, such as `pass show dav`.
    package var passwordCommand: String?
    /// Keys of the remote's entry that this version does not know, kept when the file is
    /// rewritten; a sync may keep its own settings here.
    var unknownFields: [String: JSONValue] = [:]

    /// Creates the settings of a remote.
    package init(name: RemoteName, url: URL, user: String? = nil, passwordCommand: String? = nil) {
        self.name = name
        self.url = url
        self.user = user
        self.passwordCommand = passwordCommand
    }

    /// Whether a password sent to this remote would travel in clear: an `http` URL whose host
    /// is not the loopback interface (`localhost`, `127.0.0.0/8`, `::1`).
    package var sendsPasswordInClear: Bool {
        url.scheme?.lowercased() == "http" && !RemoteSettings.isLoopback(host: url.host(percentEncoded: false) ?? "")
    }

    /// Checks the URL of an address book collection: it must parse, use `http` or `https`,
    /// name a host, and hold no user or password (those belong in the settings and the password
    /// source, not in a URL that is shown and stored).
    ///
    /// ```swift
    /// let url = try RemoteSettings.collectionURL(from: "http://127.0.0.1:5232/kim/contacts/")
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/invalidValue`` naming what is wrong.
    package static func collectionURL(from text: String) throws(ContactsError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw ContactsError(.invalidValue, "a remote's URL must be an absolute http or https URL")
        }
        guard scheme == "http" || scheme == "https" else {
            throw ContactsError(.invalidValue, "a remote's URL must start with https:// or http://")
        }
        guard let host = url.host(percentEncoded: false), !host.isEmpty else {
            throw ContactsError(.invalidValue, "a remote's URL must name a host")
        }
        guard url.user(percentEncoded: false) == nil, url.password(percentEncoded: false) == nil else {
            throw ContactsError(
                .invalidValue,
                "a remote's URL must not hold a user or password; give the user with --user and the password "
                    + "with --password-command")
        }
        return url
    }

    /// Whether `host` (as a URL names it, with or without IPv6 brackets) is the loopback
    /// interface.
    static func isLoopback(host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "localhost" || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
