/// `REPORT` (RFC 3253 section 3.6): the CardDAV reports and `sync-collection`.
extension CardDAVService {
    /// Answers a report by its body's root element: `addressbook-multiget` and
    /// `addressbook-query` (RFC 6352 section 8; on the address book, or on one card to test that
    /// card), `sync-collection` (RFC 6578). Another report, or one on another resource,
    /// is 403 with `DAV:supported-report`; a body that is not well-formed XML, or asks for
    /// properties in a malformed way (see ``propertyRequest(in:required:)``), is 400.
    func report(
        _ request: HTTPServerRequest, resource: CardDAVURLSpace.Resource, space: CardDAVURLSpace, target: Target?
    ) throws -> HTTPServerResponse {
        guard let body = try Self.xmlBody(of: request) else { throw CardDAVFailure(status: 400, text: "the report has no body") }
        // Reports are of an address book or its cards only.
        guard let book = target?.book else { throw CardDAVFailure(status: 403, condition: "d:supported-report") }
        switch body.name {
        case .cardDAV("addressbook-multiget"):
            return try multiget(body, resource: resource, space: space, book: book)
        case .cardDAV("addressbook-query"):
            switch resource {
            case .collection: return try query(body, space: space, book: book)
            // A query on one card tests that card alone (RFC 6352 section 8.6).
            case .card(let name): return try query(body, space: space, book: book, card: name)
            default: throw CardDAVFailure(status: 403, condition: "d:supported-report")
            }
        case .dav("sync-collection"):
            guard resource == .collection else { throw CardDAVFailure(status: 403, condition: "d:supported-report") }
            return try syncCollection(body, space: space, book: book)
        default:
            throw CardDAVFailure(status: 403, condition: "d:supported-report")
        }
    }

    /// The number a report's `limit` asks for (`<limit><nresults>10</nresults></limit>`), in
    /// the given namespace; `nil` for none.
    ///
    /// - Throws: a 400 failure for a number that cannot be read.
    static func resultLimit(of body: WebDAVElement, namespace limitName: WebDAVElement.Name) throws -> Int? {
        guard let limit = body.child(limitName) else { return nil }
        let nresults = limit.children.first { $0.name.local == "nresults" }
        guard let text = nresults?.text.trimmingWhitespaceAndNewlines, let count = Int(text), count >= 0 else {
            throw CardDAVFailure(status: 400, text: "the report's limit is not a number of results")
        }
        return count
    }

    /// Writes the response that says a result was cut at the client's limit (RFC 5323's
    /// `DAV:number-of-matches-within-limits`, as RFC 6352 and RFC 6578 use it).
    static func writeTruncation(href: String, into xml: inout WebDAVXMLWriter) {
        xml.open("d:response")
        xml.href(href)
        xml.status(507)
        xml.append("<d:error><d:number-of-matches-within-limits/></d:error>")
        xml.close("d:response")
    }
}
