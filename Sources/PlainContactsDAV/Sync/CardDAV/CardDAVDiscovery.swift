import Foundation
import PlainContacts

/// Finds the address books of an account from any URL a person may give: an address book
/// collection, a principal, an address book home set or the server's root (RFC 6352 section 7,
/// RFC 6764 `/.well-known/carddav`, RFC 5397 `current-user-principal`).
///
/// The URL is asked for its `resourcetype` first (an address book: done); else its
/// `current-user-principal`, falling back to `/.well-known/carddav` and then to the root; then
/// the principal's `addressbook-home-set`, whose members that are address books are listed.
///
/// ```swift
/// let discovery = CardDAVDiscovery(credentials: RemoteCredentials(user: "me", password: secret))
/// let books = try discovery.addressBooks(at: URL(string: "https://dav.example.com/")!)
/// ```
package struct CardDAVDiscovery: Sendable {
    /// Sends the requests.
    let client: HTTPClient

    /// A discovery over the network.
    package init(credentials: RemoteCredentials?) {
        client = HTTPClient(transport: CurlTransport.standard(), credentials: credentials)
    }

    /// A discovery over a given client.
    init(client: HTTPClient) {
        self.client = client
    }

    /// The address books reachable from `url`, sorted by URL.
    ///
    /// - Throws: `SyncError.Code.notFound` when no address book is found;
    ///   ``ContactsError/Code/invalidValue`` for a URL that is not `http` or `https`;
    ///   `SyncError.Code.authenticationFailed`, `SyncError.Code.serverUnavailable` or
    ///   `SyncError.Code.malformedResponse`.
    package func addressBooks(at url: URL) throws -> [DiscoveredAddressBook] {
        let start = try CardDAVAddressBook.collectionURL(url)
        let first = try properties(of: start)
        if let first {
            if Self.isAddressBook(first.response) {
                return [DiscoveredAddressBook(url: first.url, displayName: Self.displayName(first.response))]
            }
            if let home = Self.href(.cardDAV("addressbook-home-set"), in: first) {
                return try addressBooks(inHome: home)
            }
        }
        for candidate in [start, Self.path("/.well-known/carddav", on: start), Self.path("/", on: start)] {
            guard let candidate, let found = candidate == start ? first : try properties(of: candidate),
                let principal = Self.href(.dav("current-user-principal"), in: found),
                let home = try properties(of: principal).flatMap({ Self.href(.cardDAV("addressbook-home-set"), in: $0) })
            else { continue }
            return try addressBooks(inHome: home)
        }
        throw SyncError(.notFound, "no CardDAV address book was found from this URL", path: HTTPClient.describe(url))
    }

    /// The properties discovery reads.
    static let discoveryProperties: [WebDAVElement.Name] = [
        .dav("resourcetype"), .dav("displayname"), .dav("current-user-principal"), .cardDAV("addressbook-home-set"),
    ]

    /// A resource's discovery properties (`Depth: 0`), with the URL that answered after
    /// redirects, or `nil` when the server has no WebDAV resource there.
    func properties(of url: URL) throws -> (response: WebDAVMultistatus.Response, url: URL)? {
        let response = try client.send(
            HTTPRequest(
                method: "PROPFIND", url: url,
                headers: ["Depth": "0", "Content-Type": WebDAVRequestBody.contentType],
                body: WebDAVRequestBody.propfind(Self.discoveryProperties)))
        guard response.status == 207 else { return nil }
        let answer = try WebDAVMultistatus.parse(response.body, url: HTTPClient.describe(response.url))
        guard let first = answer.responses.first else { return nil }
        return (first, response.url)
    }

    /// The members of a home set that are address books.
    func addressBooks(inHome home: URL) throws -> [DiscoveredAddressBook] {
        let collection = try CardDAVAddressBook.collectionURL(home)
        let response = try client.send(
            HTTPRequest(
                method: "PROPFIND", url: collection,
                headers: ["Depth": "1", "Content-Type": WebDAVRequestBody.contentType],
                body: WebDAVRequestBody.propfind([.dav("resourcetype"), .dav("displayname")])))
        guard response.status == 207 else {
            throw SyncError(.malformedResponse, "the address book home answered HTTP \(response.status)",
                path: HTTPClient.describe(response.url))
        }
        let answer = try WebDAVMultistatus.parse(response.body, url: HTTPClient.describe(response.url))
        var books: [DiscoveredAddressBook] = []
        for member in answer.responses where Self.isAddressBook(member) {
            let path = try CardDAVHref.canonicalPath(member.href, in: response.url)
            guard let url = CardDAVHref.url(ofPath: path, in: response.url) else { continue }
            books.append(DiscoveredAddressBook(url: url, displayName: Self.displayName(member)))
        }
        guard !books.isEmpty else {
            throw SyncError(.notFound, "the address book home holds no address book", path: HTTPClient.describe(home))
        }
        return books.sorted { $0.url.absoluteString < $1.url.absoluteString }
    }

    /// Whether a resource's `resourcetype` has CardDAV's `addressbook`.
    static func isAddressBook(_ response: WebDAVMultistatus.Response) -> Bool {
        response.property(.dav("resourcetype"))?.child(.cardDAV("addressbook")) != nil
    }

    /// A resource's non-empty `displayname`.
    static func displayName(_ response: WebDAVMultistatus.Response) -> String? {
        let name = response.property(.dav("displayname"))?.text.trimmingWhitespaceAndNewlines
        return name?.isEmpty == false ? name : nil
    }

    /// The URL of the `href` inside a property, resolved against the URL that answered, on the
    /// same server only.
    static func href(_ property: WebDAVElement.Name, in found: (response: WebDAVMultistatus.Response, url: URL)) -> URL? {
        guard let href = found.response.property(property)?.child(.dav("href"))?.text,
            let path = try? CardDAVHref.canonicalPath(href, in: found.url)
        else { return nil }
        return CardDAVHref.url(ofPath: path, in: found.url)
    }

    /// An absolute path on the server of `url`.
    static func path(_ path: String, on url: URL) -> URL? {
        CardDAVHref.url(ofPath: path, in: url)
    }
}
