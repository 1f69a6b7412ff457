import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// A fresh store served by a ``CardDAVService``, with helpers to send requests and read answers.
final class CardDAVTestStore {
    let store: TemporaryStore
    private(set) var service: CardDAVService
    let user: String?

    init(user: String? = nil) throws {
        store = try TemporaryStore()
        _ = try store.makeBook()
        service = try CardDAVService(storeURL: store.storeURL)
        self.user = user
    }

    /// The address book's path for the test's user.
    var collectionPath: String { CardDAVURLSpace(user: user).collectionHref }

    /// A card's path.
    func cardPath(_ name: String) -> String { collectionPath + CardDAVURLSpace.encode(name) }

    /// Starts a new service on the same store, as a restarted server would.
    func restart() throws {
        service = try CardDAVService(storeURL: store.storeURL)
    }

    /// Sends a request.
    @discardableResult
    func send(_ method: String, _ target: String, headers: [(String, String)] = [], body: String = "") -> HTTPServerResponse {
        service.respond(
            to: HTTPServerRequest(method: method, target: target, headers: HTTPHeaderFields(headers), body: Data(body.utf8)),
            user: user)
    }

    /// Sends a `PUT` of a card.
    @discardableResult
    func put(_ name: String, _ card: String, headers: [(String, String)] = []) -> HTTPServerResponse {
        send("PUT", cardPath(name), headers: [("Content-Type", "text/vcard; charset=utf-8")] + headers, body: card)
    }

    /// The multistatus of a response.
    func multistatus(_ response: HTTPServerResponse) throws -> WebDAVMultistatus {
        #expect(response.status == 207)
        #expect(response.headers["Content-Type"] == WebDAVXMLWriter.contentType)
        return try WebDAVMultistatus.parse(response.body, url: "test")
    }

    /// `PROPFIND` with a list of properties.
    func propfind(_ path: String, depth: String, _ properties: [String]) throws -> WebDAVMultistatus {
        let body = "<d:propfind xmlns:d=\"DAV:\" xmlns:card=\"urn:ietf:params:xml:ns:carddav\" xmlns:cs=\"http://calendarserver.org/ns/\"><d:prop>"
            + properties.map { "<\($0)/>" }.joined() + "</d:prop></d:propfind>"
        return try multistatus(send("PROPFIND", path, headers: [("Depth", depth)], body: body))
    }

    /// The ETag of every card by href, from a Depth 1 `PROPFIND`.
    func etags() throws -> [String: String] {
        var result: [String: String] = [:]
        for response in try propfind(collectionPath, depth: "1", ["d:getetag"]).responses where response.href != collectionPath {
            result[response.href] = response.property(.dav("getetag"))?.text
        }
        return result
    }

    /// A `sync-collection` report from a token (empty for the first sync).
    func syncCollection(_ token: String, properties: [String] = ["d:getetag"], extra: String = "") -> HTTPServerResponse {
        let body = """
            <d:sync-collection xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav">\
            <d:sync-token>\(token)</d:sync-token><d:sync-level>1</d:sync-level>\(extra)\
            <d:prop>\(properties.map { "<\($0)/>" }.joined())</d:prop></d:sync-collection>
            """
        return send("REPORT", collectionPath, headers: [("Depth", "0")], body: body)
    }

    /// Every file of the store, by path, with its bytes.
    func snapshot() throws -> [String: Data] {
        try Self.files(of: store)
    }

    /// Adds a person through an address book, as the CLI would; gives its record ID.
    @discardableResult
    func addPerson(_ first: String, _ last: String, email: String? = nil, uid: String? = nil) throws -> RecordID {
        let book = try store.openBook()
        let person = makePerson(first, last)
        if let email { person.emails = MultiValue([(email, .home)]) }
        if let uid {
            var state = person.state
            VCardRecordFields.setUID(uid, in: &state)
            person.state = state
        }
        try book.add(person)
        try book.save()
        return person.recordID
    }

    /// Edits a person through an address book, as the CLI would.
    func editPerson(_ id: RecordID, _ change: (Person) -> Void) throws {
        let book = try store.openBook()
        let person = try #require(book.person(withID: id))
        change(person)
        try book.save()
    }

    /// A vCard 3.0 of a person.
    static func card(uid: String, first: String, last: String, extra: [String] = []) -> String {
        (["BEGIN:VCARD", "VERSION:3.0", "UID:\(uid)", "N:\(last);\(first);;;", "FN:\(first) \(last)"] + extra + ["END:VCARD", ""])
            .joined(separator: "\r\n")
    }
}
