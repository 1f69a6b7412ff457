import FoundationEssentials
import PlainContacts

/// A WebDAV `207 Multi-Status` body (RFC 4918 section 13), as `PROPFIND` and the CardDAV and
/// sync reports answer: one response per resource, with the properties found and the status of
/// those that were not, and the collection's new `sync-token` for a `sync-collection` report.
///
/// The body is read with external entities off and refused whole when it declares a document
/// type: a server's answer never makes the client read a file or expand entities.
///
/// ```swift
/// let answer = try WebDAVMultistatus.parse(body, url: "https://dav.example.com/books/me/")
/// for response in answer.responses {
///     print(response.href, response.property(.dav("getetag"))?.text ?? "-")
/// }
/// ```
struct WebDAVMultistatus: Hashable, Sendable {
    /// One `response` element: a resource and what the server says of it.
    struct Response: Hashable, Sendable {
        /// The resource's `href`, as written (percent-encoded, maybe relative).
        var href: String
        /// The response's own status, for a resource reported without properties (a member
        /// removed since the sync token, `404`), else `nil`.
        var status: Int?
        /// The properties found (a `propstat` with a 2xx status), by name.
        var properties: [WebDAVElement.Name: WebDAVElement]
        /// The status of each property asked for and not found.
        var failedProperties: [WebDAVElement.Name: Int]

        /// A property found, or `nil`.
        func property(_ name: WebDAVElement.Name) -> WebDAVElement? {
            properties[name]
        }
    }

    /// The responses, in the order written.
    var responses: [Response]
    /// The collection's new sync token (RFC 6578), for a `sync-collection` answer.
    var syncToken: String?

    /// The deepest nesting of elements read: far more than any WebDAV answer needs, little
    /// enough that a hostile body cannot exhaust the stack.
    static let maximumDepth = 64

    /// Reads a multistatus body.
    ///
    /// - Throws: `SyncError.Code.malformedResponse` naming `url` when the body is not well
    ///   formed XML, declares a document type, nests deeper than ``maximumDepth``, is not a
    ///   `DAV: multistatus`, or has a response without an `href`.
    static func parse(_ data: Data, url: String) throws -> WebDAVMultistatus {
        let root: WebDAVElement
        do {
            root = try WebDAVXML.parse(data, maximumDepth: maximumDepth)
        } catch {
            throw SyncError(.malformedResponse, "the answer cannot be read: \(error.message)", path: url)
        }
        guard root.name == .dav("multistatus") else {
            throw SyncError(.malformedResponse, "the answer is not a DAV multistatus (it is \(root.name.local))", path: url)
        }
        var responses: [Response] = []
        for element in root.children where element.name == .dav("response") {
            guard let href = element.child(.dav("href"))?.text.trimmingWhitespaceAndNewlines, !href.isEmpty else {
                throw SyncError(.malformedResponse, "a response of the multistatus has no href", path: url)
            }
            var response = Response(
                href: href, status: element.child(.dav("status")).flatMap { statusCode($0.text) }, properties: [:],
                failedProperties: [:])
            for propstat in element.children where propstat.name == .dav("propstat") {
                let status = propstat.child(.dav("status")).flatMap { statusCode($0.text) } ?? 200
                for property in propstat.child(.dav("prop"))?.children ?? [] {
                    if (200..<300).contains(status) {
                        response.properties[property.name] = property
                    } else {
                        response.failedProperties[property.name] = status
                    }
                }
            }
            responses.append(response)
        }
        let token = root.child(.dav("sync-token"))?.text.trimmingWhitespaceAndNewlines
        return WebDAVMultistatus(responses: responses, syncToken: token.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The code of an HTTP status line such as `HTTP/1.1 404 Not Found`.
    static func statusCode(_ line: String) -> Int? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        guard words.count >= 2, words[0].hasPrefix("HTTP/") else { return nil }
        return Int(words[1])
    }
}
