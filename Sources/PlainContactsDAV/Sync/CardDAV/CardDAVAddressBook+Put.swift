import Foundation

extension CardDAVAddressBook {
    /// The `Content-Type` of an uploaded card.
    static let cardContentType = "text/vcard; charset=utf-8"

    /// Creates a card named `name` (percent-encoded into the collection's path), only if no card
    /// has that name (`PUT` with `If-None-Match: *`).
    ///
    /// - Returns: the card's href and ETag, read back with a `PROPFIND` when the answer has none.
    /// - Throws: `SyncError.Code.preconditionFailed` when a card of that name exists,
    ///   `SyncError.Code.authenticationFailed`, `SyncError.Code.serverUnavailable` or
    ///   `SyncError.Code.malformedResponse`.
    package func createCard(named name: String, data: Data) throws -> RemoteCardVersion {
        let href = collectionPath + CardDAVHref.encode(segment: name)
        return try put(href: href, data: data, condition: ("If-None-Match", "*"))
    }

    /// Replaces a card, only if it is still at `etag` (`PUT` with `If-Match`).
    ///
    /// - Throws: `SyncError.Code.preconditionFailed` when the card changed or was removed on
    ///   the server, and the errors of ``createCard(named:data:)``.
    package func updateCard(at href: String, data: Data, etag: String) throws -> RemoteCardVersion {
        try put(href: try CardDAVHref.canonicalPath(href, in: collectionURL), data: data, condition: ("If-Match", etag))
    }

    /// One conditional `PUT`.
    func put(href: String, data: Data, condition: (name: String, value: String)) throws -> RemoteCardVersion {
        let request = HTTPRequest(
            method: "PUT", url: try url(ofHref: href),
            headers: ["Content-Type": Self.cardContentType, condition.name: condition.value], body: data)
        let response = try client.send(request)
        guard (200..<300).contains(response.status) else { throw unexpectedStatus(response) }
        if let etag = response.header("ETag")?.trimmingWhitespaceAndNewlines, !etag.isEmpty {
            return RemoteCardVersion(href: href, etag: etag)
        }
        return RemoteCardVersion(href: href, etag: try readETag(of: href))
    }
}
