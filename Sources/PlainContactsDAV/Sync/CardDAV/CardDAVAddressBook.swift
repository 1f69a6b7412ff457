import Foundation
import PlainContacts

/// An address book collection on a CardDAV server (RFC 6352), read and written as a sync needs:
/// the ``RemoteAddressBook`` a `contacts sync` talks to.
///
/// Each request kind lives in its own file: `PROPFIND`s in `CardDAVAddressBook+Propfind.swift`,
/// the `sync-collection` report, the `addressbook-multiget` report, `PUT` and `DELETE`.
///
/// ```swift
/// let book = try CardDAVAddressBook(
///     url: URL(string: "https://dav.example.com/user/contacts/")!,
///     credentials: RemoteCredentials(user: "me", password: secret))
/// let cards = try book.listCards()
/// ```
package struct CardDAVAddressBook: RemoteAddressBook, Sendable {
    /// The collection's URL, its path ending in `/`.
    let collectionURL: URL
    /// The collection's canonical absolute path (see ``CardDAVHref``).
    let collectionPath: String
    /// Sends the requests.
    let client: HTTPClient

    /// An address book at a collection URL, over the network.
    ///
    /// - Throws: ``ContactsError/Code/invalidValue`` when the URL is not `http` or `https`.
    package init(url: URL, credentials: RemoteCredentials?) throws {
        try self.init(url: url, client: HTTPClient(transport: CurlTransport.standard(), credentials: credentials))
    }

    /// An address book at a collection URL, over a given client.
    ///
    /// - Throws: ``ContactsError/Code/invalidValue`` when the URL is not `http` or `https`.
    init(url: URL, client: HTTPClient) throws {
        collectionURL = try Self.collectionURL(url)
        collectionPath = try CardDAVHref.canonicalPath(collectionURL.absoluteString, in: collectionURL)
        self.client = client
    }

    package var url: String { HTTPClient.describe(collectionURL) }

    /// The seconds during which a request to the server was in flight, so far.
    package var serverSeconds: Double { client.waited.seconds }

    /// A collection URL as given, checked, its path ending in `/`.
    static func collectionURL(_ url: URL) throws -> URL {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        else {
            throw ContactsError(.invalidValue, "an address book URL must be an http or https URL", path: HTTPClient.describe(url))
        }
        if !components.percentEncodedPath.hasSuffix("/") { components.percentEncodedPath += "/" }
        components.query = nil
        components.fragment = nil
        guard let collection = components.url else {
            throw ContactsError(.invalidValue, "the address book URL is not valid", path: HTTPClient.describe(url))
        }
        return collection
    }

    /// The full URL of a canonical href.
    func url(ofHref href: String) throws -> URL {
        guard let url = CardDAVHref.url(ofPath: try CardDAVHref.canonicalPath(href, in: collectionURL), in: collectionURL)
        else {
            throw ContactsError(.invalidValue, "a card's href is not a path", path: self.url)
        }
        return url
    }

    /// Sends a WebDAV request with an XML body and reads its `207 Multi-Status` answer.
    ///
    /// - Throws: the errors of ``HTTPClient/send(_:handling:)``, and the error of
    ///   ``unexpectedStatus(_:)`` for any answer but `207`.
    func multistatus(_ method: String, _ url: URL, depth: String, body: Data) throws -> WebDAVMultistatus {
        let response = try client.send(webDAVRequest(method, url, depth: depth, body: body))
        guard response.status == 207 else { throw unexpectedStatus(response) }
        return try WebDAVMultistatus.parse(response.body, url: HTTPClient.describe(response.url))
    }

    /// A WebDAV request with an XML body and a `Depth`.
    func webDAVRequest(_ method: String, _ url: URL, depth: String, body: Data) -> HTTPRequest {
        HTTPRequest(
            method: method, url: url, headers: ["Depth": depth, "Content-Type": WebDAVRequestBody.contentType], body: body)
    }

    /// The error for an answer a request did not expect: `404` is a missing resource, `412` a
    /// failed condition, anything else a malformed answer.
    func unexpectedStatus(_ response: HTTPResponse) -> SyncError {
        let path = HTTPClient.describe(response.url)
        switch response.status {
        case 404, 410:
            return SyncError(.notFound, "the server has nothing at this URL (HTTP \(response.status))", path: path)
        case 412:
            return SyncError(.preconditionFailed, "the card changed on the server (HTTP 412)", path: path)
        default:
            return SyncError(.malformedResponse, "the server answered HTTP \(response.status)", path: path)
        }
    }

    /// The canonical href of a response, and whether it is the collection itself.
    func member(_ response: WebDAVMultistatus.Response) throws -> (href: String, isCollection: Bool) {
        let href = try CardDAVHref.canonicalPath(response.href, in: collectionURL)
        return (href, href == collectionPath || href + "/" == collectionPath)
    }

    /// A response's ETag, required.
    func etag(of response: WebDAVMultistatus.Response, href: String) throws -> String {
        guard let etag = response.property(.dav("getetag"))?.text.trimmingWhitespaceAndNewlines, !etag.isEmpty else {
            throw SyncError(.malformedResponse, "the server gave no ETag for \(href)", path: url)
        }
        return etag
    }
}
