import PlainContacts

/// The name of an address book that `contacts serve` serves: its segment in the book's URL
/// (`/<user>/<book>/`) and the name `contacts user` grants it by.
///
/// A name has 1 to ``maximumLength`` ASCII letters, digits, `-` and `_`, and starts with a
/// letter or a digit, so that it stands in a URL as it is. Names are case-sensitive. The store
/// the server runs in is the book ``home`` (`contacts`), the one address book of a server
/// without books of its own, under the URL it always had.
///
/// ```swift
/// let family = try ServedBookName("family")
/// ServedBookName.home.rawValue   // "contacts"
/// try ServedBookName("my book")  // throws .invalidValue
/// ```
package struct ServedBookName: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The longest name accepted, in bytes.
    package static let maximumLength = 64
    /// The book of the store the server runs in.
    package static let home = ServedBookName(checked: "contacts")

    /// The name as given.
    package let rawValue: String

    /// A name, checked.
    ///
    /// - Throws: ``ContactsError/Code/invalidValue`` saying which rule the text breaks.
    package init(_ text: String) throws(ContactsError) {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, bytes.count <= Self.maximumLength,
            bytes.allSatisfy({ Self.isLetterOrDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
        else {
            throw ContactsError(
                .invalidValue,
                "a book's name has 1 to \(Self.maximumLength) ASCII letters, digits, '-' and '_' (it is part of the book's URL)")
        }
        guard Self.isLetterOrDigit(first) else {
            throw ContactsError(.invalidValue, "a book's name must start with a letter or a digit")
        }
        rawValue = text
    }

    private init(checked text: String) {
        rawValue = text
    }

    package var description: String { rawValue }

    package static func < (lhs: ServedBookName, rhs: ServedBookName) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: false
        }
    }
}

/// One address book a user of `contacts serve` may use, and how.
///
/// ```swift
/// let grant = ServerGrant(book: try ServedBookName("family"), access: .read)
/// ```
package struct ServerGrant: Hashable, Sendable {
    /// What a user may do with a book.
    package enum Access: String, Hashable, Sendable {
        /// Read the cards and follow their changes; every write is refused with 403.
        case read
        /// Read and change the cards.
        case readWrite = "read-write"
    }

    /// The book.
    package var book: ServedBookName
    /// What the user may do with it.
    package var access: Access

    package init(book: ServedBookName, access: Access) {
        self.book = book
        self.access = access
    }

    /// What a user without a list of books has: the store the server runs in, read and
    /// written, as every user had before books.
    package static let standard = [ServerGrant(book: .home, access: .readWrite)]
}
