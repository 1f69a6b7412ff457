#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts
import Synchronization

/// The CardDAV protocol of `contacts serve`: a request in, a response out, no sockets.
///
/// Each store is served as one address book (groups are cards in it), a ``CardDAVServedBook``:
/// the store the service runs in as the book `contacts`, and each other store a user is
/// granted under its own name, under the URL space of ``CardDAVURLSpace``. A user's home lists
/// exactly the books granted, in order; a book not granted is 404, and one granted read-only
/// answers every write with 403 and `DAV:need-privileges`. The service answers `OPTIONS`,
/// `PROPFIND` (Depth 0 and 1), `PROPPATCH` (every property refused: the store keeps none a
/// client may set), `REPORT`
/// (`addressbook-multiget`, `addressbook-query`, `sync-collection`), `GET`, `HEAD`, `PUT` and
/// `DELETE`; anything else is 405 with `Allow`. Writes go through the store's vCard mapping and
/// its writer: one atomic save under the store's lock, as `contacts sync` applies a server's
/// card. Cards, ETags and change numbers come from ``CardDAVCollection``.
///
/// `respond(to:user:books:)` may be called from many threads at once. Authentication happens
/// before it: `user` is the authenticated name, or `nil` when the server has no users, and
/// `books` what that user was granted.
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

    /// The store the server runs in: the book ``ServedBookName/home``.
    let home: CardDAVServedBook
    /// The other books, opened when first asked for.
    private let others: Mutex<[ServedBookName: CardDAVServedBook]>
    /// Where the other books are, asked when one is opened (the users file names them).
    private let folders: @Sendable () throws -> [ServedBookName: URL]
    /// Whether books are opened ``CardDAVServedBook/init(name:storeURL:options:exclusive:afterWrite:log:)``
    /// `exclusive`.
    private let exclusive: Bool
    /// How every store is opened for writes.
    private let options: AddressBookOptions
    /// Where the server logs.
    private let log: @Sendable (String) -> Void
    /// Told of each book other than ``home`` when it is opened, before any write to it.
    private let opened: (@Sendable (CardDAVServedBook) -> Void)?
    /// Told of each write the service saved to a store, while further writes to it wait (see
    /// ``CardDAVWriter``): where `--commit` records the change in Git.
    private let afterWrite: (@Sendable (CardDAVWrite) -> Void)?

    /// A service for the store in a folder, and the other books `folders` names.
    ///
    /// An `exclusive` service, what a server runs, opens its books exclusive (see
    /// ``CardDAVServedBook``): one server per store.
    ///
    /// ```swift
    /// let service = try CardDAVService(storeURL: storeURL, exclusive: true)
    /// ```
    ///
    /// - Throws: what opening the store as a book throws.
    init(
        storeURL: URL, options: AddressBookOptions = AddressBookOptions(),
        folders: @escaping @Sendable () throws -> [ServedBookName: URL] = { [:] },
        afterWrite: (@Sendable (CardDAVWrite) -> Void)? = nil, opened: (@Sendable (CardDAVServedBook) -> Void)? = nil,
        exclusive: Bool = false, log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        home = try CardDAVServedBook(
            name: .home, storeURL: storeURL, options: options, exclusive: exclusive, afterWrite: afterWrite, log: log)
        self.opened = opened
        others = Mutex([:])
        self.folders = folders
        self.exclusive = exclusive
        self.options = options
        self.log = log
        self.afterWrite = afterWrite
    }

    /// The cards of the store the server runs in.
    var collection: CardDAVCollection { home.collection }

    /// The book of this name, opened on first use; `nil` when no book has the name or its
    /// store cannot be opened (logged).
    func book(named name: ServedBookName) -> CardDAVServedBook? {
        if name == .home { return home }
        if let open = others.withLock({ $0[name] }) { return open }
        do {
            guard let folder = try folders()[name] else { return nil }
            return try open(name, at: folder)
        } catch {
            log("book \(name): cannot be served: \(error)")
            return nil
        }
    }

    /// Opens every book `folders` names now, so that a server reports a book it cannot serve
    /// when it starts.
    ///
    /// - Throws: the first book's error, naming it.
    func openBooks() throws {
        for (name, folder) in try folders().sorted(by: { $0.key < $1.key }) where name != .home {
            do {
                _ = try open(name, at: folder)
            } catch let error as ContactsError {
                throw ContactsError(error.code, "book \(name): \(error.message)", path: folder.path(percentEncoded: false))
            }
        }
    }

    /// The books opened so far: the home book first, then the others by name.
    var openedBooks: [CardDAVServedBook] {
        [home] + others.withLock { $0.sorted { $0.key < $1.key }.map(\.value) }
    }

    /// The book of this name, opened from its store's folder unless it is open already.
    ///
    /// - Throws: what opening the store as a book throws.
    private func open(_ name: ServedBookName, at folder: URL) throws -> CardDAVServedBook {
        try others.withLock { open in
            if let book = open[name] { return book }
            let book = try CardDAVServedBook(
                name: name, storeURL: folder, options: options, exclusive: exclusive, afterWrite: afterWrite, log: log)
            opened?(book)
            open[name] = book
            return book
        }
    }

    /// The path of the address book a client is given, for a user (`nil` without users).
    static func collectionPath(user: String?) -> String {
        CardDAVURLSpace(user: user).collectionHref
    }

    /// Answers one request of `user`, who may use `books` (in the order its home lists them).
    func respond(to request: HTTPServerRequest, user: String?, books: [ServerGrant] = ServerGrant.standard) -> HTTPServerResponse {
        do {
            return try handle(request, user: user, books: books)
        } catch let failure as CardDAVFailure {
            return failure.response
        } catch let error as ContactsError {
            return CardDAVFailure(error).response
        } catch {
            return CardDAVFailure(status: 500).response
        }
    }

    /// Answers one request, or throws the failure to answer with.
    private func handle(_ request: HTTPServerRequest, user: String?, books: [ServerGrant]) throws -> HTTPServerResponse {
        if request.method == "OPTIONS" && request.target == "*" { return optionsResponse() }
        var space: CardDAVURLSpace
        let resource: CardDAVURLSpace.Resource
        do throws(CardDAVURLSpace.PathError) {
            space = try CardDAVURLSpace(request: request, user: user)
            if let name = space.bookName(ofPath: request.path) { space.book = name }
            resource = try space.resource(ofPath: request.path)
        } catch {
            throw CardDAVFailure(status: error == .malformed ? 400 : 404)
        }
        if resource == .birthdayCalendar {
            guard let first = servedBooks(books).first else { throw CardDAVFailure(status: 404) }
            return try birthdayCalendar(request, book: first.book)
        }
        if resource == .wellKnown, request.method != "OPTIONS" {
            // The context path (RFC 6764 section 5), with credentials or without.
            var response = HTTPServerResponse(status: 301)
            response.headers.append("Location", space.rootHref)
            return response
        }
        switch resource {
        case .collection, .card:
            // A book the user may not use is not there for them.
            guard let access = books.first(where: { $0.book == space.book })?.access, let book = book(named: space.book) else {
                throw CardDAVFailure(status: 404)
            }
            if access == .read { try Self.refuseWrite(request, resource: resource, space: space, book: book) }
            let target = Target(book: book, access: access)
            switch request.method {
            case "OPTIONS": return optionsResponse()
            case "PROPFIND": return try propfind(request, resource: resource, space: space, target: target)
            case "PROPPATCH": return try proppatch(request, resource: resource, space: space, book: book)
            case "REPORT": return try report(request, resource: resource, space: space, target: target)
            case "GET", "HEAD": return try get(request, resource: resource, space: space, book: book)
            case "PUT": return try put(request, resource: resource, space: space, user: user, book: book)
            case "DELETE": return try delete(request, resource: resource, user: user, book: book)
            default: throw CardDAVFailure(status: 405)
            }
        default:
            switch request.method {
            case "OPTIONS": return optionsResponse()
            case "PROPFIND": return try propfind(request, resource: resource, space: space, books: servedBooks(books))
            case "PROPPATCH": return try proppatch(request, resource: resource, space: space, book: nil)
            case "REPORT": return try report(request, resource: resource, space: space, target: nil)
            case "GET", "HEAD": return Self.page(of: resource, space: space, books: servedBooks(books))
            default: throw CardDAVFailure(status: 405)
            }
        }
    }

    /// A book a request is answered from, and what the user may do with it.
    struct Target {
        var book: CardDAVServedBook
        var access: ServerGrant.Access
    }

    /// The books of `grants` that can be served, in order.
    func servedBooks(_ grants: [ServerGrant]) -> [Target] {
        grants.compactMap { grant in book(named: grant.book).map { Target(book: $0, access: grant.access) } }
    }

    /// Refuses a write to a book the user may only read: 403 with `DAV:need-privileges`
    /// (RFC 3744 section 7.1.1) naming the privilege it lacks, never 401, which would make a
    /// client stop syncing every book of the account. Reads pass.
    ///
    /// - Throws: the 403 failure, for `PUT`, `DELETE` and `PROPPATCH`.
    static func refuseWrite(
        _ request: HTTPServerRequest, resource: CardDAVURLSpace.Resource, space: CardDAVURLSpace, book: CardDAVServedBook
    ) throws {
        let needed: (href: String, privilege: String)
        switch (request.method, resource) {
        case ("PUT", .card(let name)):
            // Replacing a card needs write-content on it; adding one, bind on the book.
            let exists = (try? book.collection.card(named: name)) != nil
            needed = exists ? (space.cardHref(name), "d:write-content") : (space.collectionHref, "d:bind")
        case ("DELETE", _):
            needed = (space.collectionHref, "d:unbind")
        case ("PROPPATCH", _):
            needed = (space.href(of: resource), "d:write-properties")
        default:
            return
        }
        var failure = CardDAVFailure(status: 403, condition: "d:need-privileges")
        failure.conditionContent = "<d:resource><d:href>" + WebDAVXMLWriter.escaped(needed.href) + "</d:href><d:privilege><"
            + needed.privilege + "/></d:privilege></d:resource>"
        throw failure
    }

    /// The answer to a request that came without credentials to a server that requires them,
    /// when it needs none: `/.well-known/carddav` redirects to the context path, the root, as
    /// RFC 6764 section 5 has it (iOS and macOS ask there without credentials and expect the
    /// redirect; the root then asks for them), and `/.well-known/` answers `GET` and `PROPFIND`
    /// as the empty collection it is. `nil` for every other request, which is 401.
    ///
    /// ```swift
    /// CardDAVService.unauthenticatedResponse(to: HTTPServerRequest(method: "GET", target: "/.well-known/carddav"))
    /// // 301, Location: /
    /// ```
    static func unauthenticatedResponse(to request: HTTPServerRequest) -> HTTPServerResponse? {
        guard request.method != "OPTIONS", let space = try? CardDAVURLSpace(request: request, user: nil) else { return nil }
        let resource = try? space.resource(ofPath: request.path)
        if resource == .wellKnownFolder {
            switch request.method {
            case "GET", "HEAD":
                return page(of: .wellKnownFolder, space: space, books: [])
            case "PROPFIND":
                guard let asking = try? propertyRequest(ofPropfind: try xmlBody(of: request)) else { return nil }
                var xml = WebDAVXMLWriter(root: "d:multistatus")
                var context = PropertyContext(space: space)
                context.pageLength = pageLength(of: .wellKnownFolder, space: space, books: [], asking: asking)
                writeResponse(.wellKnownFolder, asking: asking, context: context, into: &xml)
                return multistatus(&xml)
            default:
                return nil
            }
        }
        guard resource == .wellKnown else { return nil }
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
        switch WebDAVConditions.depth(value) {
        case .zero: return 0
        case .one: return 1
        case .infinity: return nil
        case nil: throw CardDAVFailure(status: 400)
        }
    }

    /// The request's XML body as a tree; `nil` for an empty body.
    ///
    /// - Throws: a 400 failure for a body that is not well-formed XML, declares a document type
    ///   (where entities would be defined) or nests too deep.
    static func xmlBody(of request: HTTPServerRequest) throws -> WebDAVElement? {
        guard WebDAVConditions.hasContent(request.body) else { return nil }
        do {
            return try WebDAVXML.parse(request.body, maximumDepth: maximumXMLDepth)
        } catch {
            throw CardDAVFailure(status: 400, text: "the request cannot be read: \(error.message)")
        }
    }

    /// Checks `If-Match` and `If-None-Match` against a card's current ETag (`nil` when it does
    /// not exist), as ``CardDAVPreconditions/check(current:isRead:)`` does.
    ///
    /// - Throws: a 412 failure when a condition fails; for `GET` and `HEAD`, a 304 failure when
    ///   `If-None-Match` names the current ETag.
    static func checkConditions(of request: HTTPServerRequest, current: CardDAVEntry?) throws {
        try CardDAVPreconditions(request).check(current: current, isRead: request.method == "GET" || request.method == "HEAD")
    }

    /// A multistatus response.
    static func multistatus(_ xml: inout WebDAVXMLWriter) -> HTTPServerResponse {
        HTTPServerResponse(status: 207, headers: ["Content-Type": WebDAVXMLWriter.contentType], body: xml.finish())
    }
}

/// A write the service saved to the store, as the `afterWrite` of ``CardDAVService`` is told of it.
struct CardDAVWrite: Sendable, Hashable {
    /// `PUT` or `DELETE`; for a change made on the web pages, what was done, such as `edit
    /// Katie Bell`.
    var method: String
    /// Whether the change was made on the web pages rather than by a CardDAV client.
    var isWeb = false
    /// The record written or removed.
    var record: CardDAVEntry.Record
    /// The authenticated user, `nil` without users.
    var user: String?
    /// The client's `User-Agent`, if it sent one.
    var userAgent: String?
    /// The book written.
    var book = ServedBookName.home
    /// Its store.
    var storeURL: URL? = nil
    /// The files of the store the write changed, relative to its folder, sorted (see
    /// ``CardDAVTouchedFiles``); as the write left them while `afterWrite` runs.
    var files: [String] = []
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
