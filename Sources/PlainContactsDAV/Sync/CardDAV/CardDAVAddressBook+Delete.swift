import Foundation

extension CardDAVAddressBook {
    /// Removes a card, only if it is still at `etag` (`DELETE` with `If-Match`); a card already
    /// gone (`404`) is not an error.
    ///
    /// - Throws: `SyncError.Code.preconditionFailed` when the card changed on the server,
    ///   `SyncError.Code.authenticationFailed`, `SyncError.Code.serverUnavailable` or
    ///   `SyncError.Code.malformedResponse`.
    package func deleteCard(at href: String, etag: String) throws {
        let path = try CardDAVHref.canonicalPath(href, in: collectionURL)
        let response = try client.send(HTTPRequest(method: "DELETE", url: try url(ofHref: path), headers: ["If-Match": etag]))
        guard (200..<300).contains(response.status) || response.status == 404 || response.status == 410 else {
            throw unexpectedStatus(response)
        }
    }
}
