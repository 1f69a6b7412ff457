import Foundation

/// An address book collection found on a server by ``CardDAVDiscovery``.
///
/// ```swift
/// for book in try discovery.addressBooks(at: serverURL) {
///     print(book.displayName ?? "-", book.url)
/// }
/// ```
package struct DiscoveredAddressBook: Hashable, Sendable {
    /// The collection's URL, to give ``CardDAVAddressBook/init(url:credentials:)``.
    package var url: URL
    /// The collection's `displayname`, or `nil` when it has none.
    package var displayName: String?

    /// Creates a found address book.
    init(url: URL, displayName: String?) {
        self.url = url
        self.displayName = displayName
    }
}
