#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts

/// The CardDAV protocol of `contacts serve`: a request in, a response out, no sockets.
///
/// The store is served as one address book (groups are cards in it) under the URL space of
/// ``CardDAVURLSpace``. The service answers `OPTIONS`, `PROPFIND` (Depth 0 and 1), `PROPPATCH`
/// (every property refused: the store keeps none a client may set), `REPORT`
/// (`addressbook-multiget`, `addressbook-query`, `sync-collection`), `GET`, `HEAD`, `PUT` and
/// `DELETE`; anything else is 405 with `Allow`. Writes go through the store's vCard mapping and
/// its writer: one atomic save under the store's lock, as `contacts sync` applies a server's
/// card. Cards, ETags and change numbers come from ``CardDAVCollection``.
///
/// `respond(to:user:)` may be called from many threads at once. Authentication happens before
/// it: `user` is the authenticated name, or `nil` when the server has no users.
///
/// ```swift
/// let service = try CardDAVService(storeURL: storeURL)
/// let response = service.respond(
///     to: HTTPServerRequest(method: "PROPFIND", target: "/me/contacts/", headers: ["Depth": "1"]), user: nil)
/// response.status   // 207
/// ```
final class CardDAVService: Sendable {
    /// The largest card a `PUT` may send, in bytes: room for a photo, small enough that a card
    /// never costs the server much memory (`max-resource-size`).
    static let maximumCardSize = 8 << 20
    /// The deepest nesting of XML elements read from a request body: far more than any
    /// CardDAV request needs, little enough that a hostile body cannot exhaust the stack.
    static let maximumXMLDepth = 64
    /// The `Content-Type` of a card.
    static let cardContentType = "text/vcard; charset=utf-8"
    /// The address book's `displayname`.
    static let collectionDisplayName = "Contacts"
    /// The methods the server answers.
    static let allowedMethods = "OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, REPORT"
    /// The methods the birthday calendar answers.
    static let birthdayCalendarMethods = "OPTIONS, GET, HEAD"
    /// The `DAV` header: classes 1 and 3 of WebDAV, and CardDAV.
    static let davCompliance = "1, 3, addressbook"

    /// The store.
    let layout: StoreLayout
    /// How the store is opened for writes.
    let options: AddressBookOptions
    /// The cards.
    let collection: CardDAVCollection
    /// Called after each write the service saved to the store, while further writes wait: where
    /// `--commit` records the change in Git.
    let afterWrite: (@Sendable (CardDAVWrite) -> Void)?
    /// The lock that keeps other servers off the store while this service lives, when it was
    /// made `exclusive`.
    let serverLock: CardDAVServerLock?

    /// A service for the store in a folder.
    ///
    /// An `exclusive` service, what a server runs, takes the store's ``CardDAVServerLock``
    /// before it reads the state file and holds it for its whole life, so that no other server
    /// shares that file, and removes what an earlier server killed mid-write left beside it;
    /// the store's own lock, which the command line writes under, is not involved. A service that is not exclusive (several on one store, as tests run them)
    /// leaves it alone.
    ///
    /// ```swift
    /// let service = try CardDAVService(storeURL: storeURL, exclusive: true)
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/notAStore`` when the folder holds no store;
    ///   ``ContactsError/Code/busy`` when `exclusive` and another server serves the store; the
    ///   errors of creating the lock file and of removing a leftover temporary file.
    init(
        storeURL: URL, options: AddressBookOptions = AddressBookOptions(),
        afterWrite: (@Sendable (CardDAVWrite) -> Void)? = nil, exclusive: Bool = false,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        try AddressBook.requireStore(at: storeURL)
        layout = StoreLayout(root: storeURL)
        serverLock = exclusive ? try CardDAVServerLock(layout: layout) : nil
        if exclusive {
            // A server killed while it replaced its state file left the temporary file behind.
            try DurableFile.removeLeftovers(of: CardDAVStateFile.url(in: layout))
        }
        var options = options
        // Every write opens the book: only groups whose files changed are read again.
        if options.groupFileCache == nil { options.groupFileCache = GroupFileCache() }
        self.options = options
        self.afterWrite = afterWrite
        collection = CardDAVCollection(layout: layout, log: log)
    }

    /// The path of the address book a client is given, for a user (`nil` without users).
    static func collectionPath(user: String?) -> String {
        CardDAVURLSpace(user: user).collectionHref
    }

    /// Answers one request.
    func respond(to request: HTTPServerRequest, user: String?) -> HTTPServerResponse {
        do {
            return try handle(request, user: user)
        } catch let failure as CardDAVFailure {
            return failure.response
        } catch let error as ContactsError {
            return CardDAVFailure(error).response
        } catch {
            return CardDAVFailure(status: 500).response
        }
    }

    /// Answers one request, or throws the failure to answer with.
    private func handle(_ request: HTTPServerRequest, user: String?) throws -> HTTPServerResponse {
        if request.method == "OPTIONS" && request.target == "*" { return optionsResponse() }
        let space: CardDAVURLSpace
        let resource: CardDAVURLSpace.Resource
        do throws(CardDAVURLSpace.PathError) {
            space = try CardDAVURLSpace(request: request, user: user)
            resource = try space.resource(ofPath: request.path)
        } catch {
            throw CardDAVFailure(status: error == .malformed ? 400 : 404)
        }
        if resource == .birthdayCalendar { return try birthdayCalendar(request) }
        if resource == .wellKnown, request.method != "OPTIONS" {
            var response = HTTPServerResponse(status: 301)
            response.headers.append("Location", space.principalHref)
            return response
        }
        switch request.method {
        case "OPTIONS": return optionsResponse()
        case "PROPFIND": return try propfind(request, resource: resource, space: space)
        case "PROPPATCH": return try proppatch(request, resource: resource, space: space)
        case "REPORT": return try report(request, resource: resource, space: space)
        case "GET", "HEAD": return try get(request, resource: resource)
        case "PUT": return try put(request, resource: resource, space: space, user: user)
        case "DELETE": return try delete(request, resource: resource, user: user)
        default: throw CardDAVFailure(status: 405)
        }
    }

    /// The answer to a request that came without credentials to a server that requires them,
    /// when it needs none: `/.well-known/carddav` redirects to the context path, the root, as
    /// RFC 6764 section 5 has it (iOS and macOS ask there without credentials and expect the
    /// redirect; the root then asks for them). `nil` for every other request, which is 401.
    ///
    /// ```swift
    /// CardDAVService.unauthenticatedResponse(to: HTTPServerRequest(method: "GET", target: "/.well-known/carddav"))
    /// // 301, Location: /
    /// ```
    static func unauthenticatedResponse(to request: HTTPServerRequest) -> HTTPServerResponse? {
        guard request.method != "OPTIONS", let space = try? CardDAVURLSpace(request: request, user: nil),
            (try? space.resource(ofPath: request.path)) == .wellKnown
        else { return nil }
        var response = HTTPServerResponse(status: 301)
        response.headers.append("Location", space.rootHref)
        return response
    }

    /// The answer to `OPTIONS`: the WebDAV classes and the methods.
    private func optionsResponse() -> HTTPServerResponse {
        HTTPServerResponse(status: 200, headers: ["DAV": Self.davCompliance, "Allow": Self.allowedMethods])
    }

    // MARK: Request parts

    /// The request's `Depth`: 0, 1, or `nil` for infinity; `missing` when it has none.
    ///
    /// - Throws: a 400 failure for another value.
    static func depth(of request: HTTPServerRequest, missing: Int?) throws -> Int? {
        guard let value = request.header("Depth") else { return missing }
        switch HTTPSyntax.trimmed(value).lowercased() {
        case "0": return 0
        case "1": return 1
        case "infinity": return nil
        default: throw CardDAVFailure(status: 400)
        }
    }

    /// The request's XML body as a tree; `nil` for an empty body.
    ///
    /// - Throws: a 400 failure for a body that is not well-formed XML, declares a document type
    ///   (where entities would be defined) or nests too deep.
    static func xmlBody(of request: HTTPServerRequest) throws -> WebDAVElement? {
        guard request.body.contains(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) else { return nil }
        do {
            return try WebDAVXML.parse(request.body, maximumDepth: maximumXMLDepth)
        } catch {
            throw CardDAVFailure(status: 400, text: "the request cannot be read: \(error.message)")
        }
    }

    /// Checks `If-Match` and `If-None-Match` against a card's current ETag (`nil` when it does
    /// not exist), as RFC 9110 section 13 orders them.
    ///
    /// - Throws: a 412 failure when a condition fails; for `GET` and `HEAD`, a 304 failure when
    ///   `If-None-Match` names the current ETag.
    static func checkConditions(of request: HTTPServerRequest, current: CardDAVEntry?) throws {
        if let ifMatch = request.header("If-Match") {
            let tags = entityTags(ifMatch)
            let matches = current.map { entry in tags.contains("*") || tags.contains(entry.quotedETag) } ?? false
            guard matches else { throw CardDAVFailure(status: 412) }
        }
        if let ifNoneMatch = request.header("If-None-Match"), let current {
            let tags = entityTags(ifNoneMatch)
            let weakCurrent = "W/" + current.quotedETag
            if tags.contains("*") || tags.contains(current.quotedETag) || tags.contains(weakCurrent) {
                if request.method == "GET" || request.method == "HEAD" {
                    var failure = CardDAVFailure(status: 304)
                    failure.headers.append("ETag", current.quotedETag)
                    throw failure
                }
                throw CardDAVFailure(status: 412)
            }
        }
    }

    /// The entity tags of an `If-Match` or `If-None-Match` value, as written (`"abc"`,
    /// `W/"abc"`, `*`).
    private static func entityTags(_ value: String) -> [String] {
        value.split(separator: ",").map { HTTPSyntax.trimmed($0) }.filter { !$0.isEmpty }
    }

    /// A multistatus response.
    static func multistatus(_ xml: inout WebDAVXMLWriter) -> HTTPServerResponse {
        HTTPServerResponse(status: 207, headers: ["Content-Type": WebDAVXMLWriter.contentType], body: xml.finish())
    }
}

/// A write the service saved to the store, as ``CardDAVService/afterWrite`` is told of it.
struct CardDAVWrite: Sendable, Hashable {
    /// `PUT` or `DELETE`.
    var method: String
    /// The record written or removed.
    var record: CardDAVEntry.Record
    /// The authenticated user, `nil` without users.
    var user: String?
    /// The client's `User-Agent`, if it sent one.
    var userAgent: String?
}

/// A request the service answers with an error status: the status, an optional WebDAV
/// precondition or postcondition element (RFC 4918 section 16), and headers.
///
/// ```swift
/// throw CardDAVFailure(status: 403, condition: "d:propfind-finite-depth")
/// ```
struct CardDAVFailure: Error, Sendable {
    /// The status.
    var status: Int
    /// The condition element written in a `DAV:error` body, such as `d:valid-sync-token`.
    var condition: String?
    /// Markup inside the condition element (hrefs), already escaped.
    var conditionContent: String = ""
    /// Extra headers.
    var headers: HTTPHeaderFields = [:]
    /// A plain-text explanation, without personal data, for a body without a condition.
    var text: String?

    /// A failure with a status, and optionally a condition or a text.
    init(status: Int, condition: String? = nil, text: String? = nil) {
        self.status = status
        self.condition = condition
        self.text = text
        if status == 405 { headers.append("Allow", CardDAVService.allowedMethods) }
    }

    /// The failure of a store operation: its code decides the status.
    init(_ error: ContactsError) {
        switch error.code {
        case .busy:
            self.init(status: 503, text: "the store is busy; try again")
            headers.append("Retry-After", "2")
        case .conflict:
            self.init(status: 409, text: "the change conflicts with a change saved meanwhile; read the card again")
        case .permissionDenied, .operationNotPermittedByUser, .readOnlyFileSystem:
            self.init(status: 403, text: "the store cannot be written")
        case .diskFull:
            self.init(status: 507)
        default:
            self.init(status: 500)
        }
    }

    /// The response.
    var response: HTTPServerResponse {
        var response: HTTPServerResponse
        if let condition {
            let content = conditionContent
            response = HTTPServerResponse(
                status: status, headers: ["Content-Type": WebDAVXMLWriter.contentType],
                body: WebDAVXMLWriter.error(condition) { $0.append(content) })
        } else if status == 304 {
            response = HTTPServerResponse(status: status)
        } else if let text {
            response = .text(status, text + "\n")
        } else {
            response = .refusal(status)
        }
        for field in headers { response.headers.append(field.name, field.value) }
        return response
    }
}
