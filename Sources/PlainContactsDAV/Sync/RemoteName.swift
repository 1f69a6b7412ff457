import PlainContacts

/// The name a store gives one of its remotes (a server address book it syncs with), such as
/// `fastmail` or `icloud.home`.
///
/// A name is 1 to 64 ASCII letters, digits, `.`, `_` and `-`, and starts with neither `.` nor
/// `-`: it names a folder of the remote's sync status (`.contacts/sync/NAME/`) and is typed
/// on command lines, so it can be neither a path nor an option.
///
/// ```swift
/// let name = try RemoteName("fastmail")
/// print(name)   // fastmail
/// ```
package struct RemoteName: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The name as written.
    package let rawValue: String

    /// The longest name accepted, in bytes.
    static let maximumLength = 64

    /// Checks and wraps a name.
    ///
    /// - Throws: ``ContactsError/Code/invalidValue`` when `text` is not a valid name.
    package init(_ text: String) throws(ContactsError) {
        guard RemoteName.isValid(text) else {
            throw ContactsError(
                .invalidValue,
                "a remote's name must have 1 to \(RemoteName.maximumLength) letters (a-z, A-Z), digits, '.', '_' "
                    + "or '-', and must not start with '.' or '-'")
        }
        rawValue = text
    }

    /// Whether `text` is a valid name.
    static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, bytes.count <= maximumLength else { return false }
        guard first != UInt8(ascii: "."), first != UInt8(ascii: "-") else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }

    package var description: String { rawValue }

    /// Byte order, as remotes are listed.
    package static func < (left: RemoteName, right: RemoteName) -> Bool {
        left.rawValue.utf8.lexicographicallyPrecedes(right.rawValue.utf8)
    }
}
