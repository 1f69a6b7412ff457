import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// One server, several books: two users, three stores. Alice's own book is the store the
/// server runs in (`contacts`), Bob's own is the store `bob`; both have the store `family`,
/// Alice read and written, Bob read-only.
final class ServedBooks {
    let alice: TemporaryStore
    let bob: TemporaryStore
    let family: TemporaryStore
    let users: ServerUsersFile
    private(set) var service: CardDAVService
    private(set) var authenticator: ServerAuthenticator

    init() throws {
        alice = try TemporaryStore()
        bob = try TemporaryStore()
        family = try TemporaryStore()
        for store in [alice, bob, family] { _ = try store.makeBook() }
        users = ServerUsersFile(storeURL: alice.storeURL, hashIterations: 1_000, minimumIterations: 1_000)
        try users.add(try ServerUserName("alice"), password: "alice-pw", replacing: false, books: [
            ServedBookReference(name: .home), ServedBookReference(name: try ServedBookName("family"), folder: family.storeURL),
        ])
        try users.add(try ServerUserName("bob"), password: "bob-pw", replacing: false, books: [
            ServedBookReference(name: try ServedBookName("bob"), folder: bob.storeURL),
        ])
        try users.grant(try ServerUserName("bob"), books: [ServedBookReference(name: try ServedBookName("family"))], access: .read)
        (service, authenticator) = try Self.start(alice.storeURL, users)
    }

    private static func start(_ store: URL, _ users: ServerUsersFile) throws -> (CardDAVService, ServerAuthenticator) {
        let service = try CardDAVService(storeURL: store, folders: { try users.bookFolders() })
        try service.openBooks()
        return (service, try ServerAuthenticator(usersFile: users))
    }

    /// Starts a new service and authenticator on the same stores, as a restarted server would.
    func restart() throws {
        (service, authenticator) = try Self.start(alice.storeURL, users)
    }

    /// Sends a request signed in as `user` (whose password is `<user>-pw`).
    @discardableResult
    func send(_ user: String, _ method: String, _ target: String, headers: [(String, String)] = [], body: String = "")
        -> HTTPServerResponse
    {
        let request = HTTPServerRequest(
            method: method, target: target,
            headers: HTTPHeaderFields([("Authorization", basicHeader(user, user + "-pw"))] + headers), body: Data(body.utf8))
        return ContactsServer.respond(to: request, service: service, authenticator: authenticator) { _ in }
    }

    /// `PROPFIND` with a list of properties.
    func propfind(_ user: String, _ path: String, depth: String, _ properties: [String]) throws -> WebDAVMultistatus {
        let body = "<d:propfind xmlns:d=\"DAV:\" xmlns:card=\"urn:ietf:params:xml:ns:carddav\" xmlns:cs=\"http://calendarserver.org/ns/\"><d:prop>"
            + properties.map { "<\($0)/>" }.joined() + "</d:prop></d:propfind>"
        let response = send(user, "PROPFIND", path, headers: [("Depth", depth)], body: body)
        #expect(response.status == 207, "PROPFIND \(path) as \(user) gave \(response.status)")
        return try WebDAVMultistatus.parse(response.body, url: "test")
    }

    /// The privileges a user has on a resource.
    func privileges(_ user: String, _ path: String) throws -> [String] {
        let response = try propfind(user, path, depth: "0", ["d:current-user-privilege-set"]).responses.first
        let set = response?.property(.dav("current-user-privilege-set"))
        return set?.children.compactMap { $0.children.first?.name.local } ?? []
    }

    /// The collection's sync token, as a user reads it.
    func token(_ user: String, _ path: String) throws -> String? {
        try propfind(user, path, depth: "0", ["d:sync-token"]).responses.first?.property(.dav("sync-token"))?.text
    }
}

@Suite struct ServedBooksTests {
    @Test func eachUserSeesExactlyTheirBooksInTheirOrder() throws {
        let books = try ServedBooks()
        let alice = try books.propfind("alice", "/alice/", depth: "1", ["d:resourcetype", "d:displayname"])
        #expect(alice.responses.map(\.href) == ["/alice/", "/alice/contacts/", "/alice/family/"])
        #expect(alice.responses.dropFirst().map { $0.property(.dav("displayname"))?.text } == ["Contacts", "family"])
        let bob = try books.propfind("bob", "/bob/", depth: "1", ["d:resourcetype"])
        #expect(bob.responses.map(\.href) == ["/bob/", "/bob/bob/", "/bob/family/"])
        for response in bob.responses.dropFirst() {
            #expect(response.property(.dav("resourcetype"))?.child(.cardDAV("addressbook")) != nil)
        }
        // The home set is the principal, and a book not granted is not there.
        let home = try books.propfind("bob", "/bob/", depth: "0", ["card:addressbook-home-set"]).responses.first
        #expect(home?.property(.cardDAV("addressbook-home-set"))?.child(.dav("href"))?.text == "/bob/")
        #expect(books.send("bob", "PROPFIND", "/bob/contacts/", headers: [("Depth", "1")]).status == 404)
        #expect(books.send("alice", "PROPFIND", "/alice/bob/", headers: [("Depth", "1")]).status == 404)
        #expect(books.send("alice", "GET", "/alice/nowhere/x.vcf").status == 404)
        // A user's paths are their own.
        #expect(books.send("alice", "PROPFIND", "/bob/family/", headers: [("Depth", "0")]).status == 404)
    }

    @Test func aReadOnlyBookSaysSoAndRefusesEveryWriteWith403NeedPrivileges() throws {
        let books = try ServedBooks()
        #expect(try books.privileges("alice", "/alice/family/").contains("write-content"))
        #expect(try books.privileges("bob", "/bob/family/") == ["read", "read-current-user-privilege-set"])
        #expect(try books.privileges("bob", "/bob/bob/").contains("bind"))

        let card = CardDAVTestStore.card(uid: "gran", first: "Grace", last: "Family")
        #expect(books.send("alice", "PUT", "/alice/family/gran.vcf", headers: [("Content-Type", "text/vcard")], body: card).status == 201)
        let before = try CardDAVTestStore.files(of: books.family)
        // Bob reads it, and every write of his is refused with the privilege it needs, never 401.
        #expect(books.send("bob", "GET", "/bob/family/gran.vcf").status == 200)
        let attempts: [(String, String, String, String)] = [
            ("PUT", "/bob/family/gran.vcf", card.replacingOccurrences(of: "Grace", with: "Gracie"), "write-content"),
            ("PUT", "/bob/family/new.vcf", CardDAVTestStore.card(uid: "new", first: "New", last: "One"), "bind"),
            ("DELETE", "/bob/family/gran.vcf", "", "unbind"),
            ("PROPPATCH", "/bob/family/",
                "<d:propertyupdate xmlns:d=\"DAV:\"><d:set><d:prop><d:displayname>x</d:displayname></d:prop></d:set></d:propertyupdate>",
                "write-properties"),
        ]
        for (method, path, body, privilege) in attempts {
            let response = books.send(bob: method, path, body: body)
            #expect(response.status == 403, "\(method) \(path) gave \(response.status)")
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(text.contains("<d:need-privileges>") && text.contains("<d:\(privilege)/>"), "\(method) \(path): \(text)")
            #expect(response.headers["WWW-Authenticate"] == nil)
        }
        #expect(try CardDAVTestStore.files(of: books.family) == before)
        // The grant made read-write while the server runs counts at once.
        try books.users.grant(try ServerUserName("bob"), books: [ServedBookReference(name: try ServedBookName("family"))], access: .readWrite)
        let gracie = card.replacingOccurrences(of: "Grace", with: "Gracie")
        #expect(books.send("bob", "PUT", "/bob/family/gran.vcf", headers: [("Content-Type", "text/vcard")], body: gracie).status == 204)
        #expect(try books.family.openBook().allPeople().map(\.firstName) == ["Gracie"])
    }

    @Test func eachBookHasItsOwnCardsTokensAndETagsAcrossARestart() throws {
        let books = try ServedBooks()
        let own = CardDAVTestStore.card(uid: "me", first: "Alice", last: "Own")
        #expect(books.send("alice", "PUT", "/alice/contacts/me.vcf", headers: [("Content-Type", "text/vcard")], body: own).status == 201)
        let familyToken = try #require(try books.token("alice", "/alice/family/"))
        let ownToken = try #require(try books.token("alice", "/alice/contacts/"))
        let card = CardDAVTestStore.card(uid: "kid", first: "Kit", last: "Family")
        #expect(books.send("alice", "PUT", "/alice/family/kid.vcf", headers: [("Content-Type", "text/vcard")], body: card).status == 201)
        #expect(try books.token("alice", "/alice/contacts/") == ownToken)
        #expect(try books.token("alice", "/alice/family/") != familyToken)
        #expect(try books.alice.openBook().allPeople().map(\.firstName) == ["Alice"])

        // Bob's view of the family book is the same book: its changes since Alice's old token.
        let report = """
            <d:sync-collection xmlns:d="DAV:"><d:sync-token>\(familyToken)</d:sync-token><d:sync-level>1</d:sync-level>\
            <d:prop><d:getetag/></d:prop></d:sync-collection>
            """
        let changes = try WebDAVMultistatus.parse(books.send("bob", "REPORT", "/bob/family/", body: report).body, url: "test")
        #expect(changes.responses.map(\.href) == ["/bob/family/kid.vcf"])
        let etag = try #require(changes.responses.first?.property(.dav("getetag"))?.text)

        // A card of another book named in a multiget is not found in this one.
        let multiget = """
            <card:addressbook-multiget xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/></d:prop>\
            <d:href>/alice/family/kid.vcf</d:href><d:href>/alice/contacts/kid.vcf</d:href></card:addressbook-multiget>
            """
        let got = try WebDAVMultistatus.parse(books.send("alice", "REPORT", "/alice/family/", body: multiget).body, url: "test")
        #expect(got.responses.map(\.status) == [nil, 404])

        let newToken = try books.token("alice", "/alice/family/")
        try books.restart()
        #expect(try books.token("bob", "/bob/family/") == newToken)
        #expect(try books.token("alice", "/alice/contacts/") == ownToken)
        let listed = try books.propfind("bob", "/bob/family/", depth: "1", ["d:getetag"]).responses
        #expect(listed.first { $0.href == "/bob/family/kid.vcf" }?.property(.dav("getetag"))?.text == etag)
    }

    @Test func aBookIsServedByOneServerAtATime() throws {
        let books = try ServedBooks()
        let server = try ContactsServer(storeURL: books.alice.storeURL, usersFile: books.users, host: "127.0.0.1", port: 0) { _ in }
        try withExtendedLifetime(server) {
            let error = #expect(throws: ContactsError.self) {
                try ContactsServer(storeURL: books.family.storeURL, host: "127.0.0.1", port: 0) { _ in }
            }
            #expect(error?.code == .busy)
            // Nor can a second server serve the first one's books.
            let other = try TemporaryStore()
            _ = try other.makeBook()
            let users = ServerUsersFile(storeURL: other.storeURL, hashIterations: 1_000, minimumIterations: 1_000)
            try users.add(try ServerUserName("eve"), password: "eve-pw", replacing: false, books: [
                ServedBookReference(name: try ServedBookName("family"), folder: books.family.storeURL),
            ])
            let second = #expect(throws: ContactsError.self) {
                try ContactsServer(storeURL: other.storeURL, usersFile: users, host: "127.0.0.1", port: 0) { _ in }
            }
            #expect(second?.code == .busy)
            #expect(second?.message.contains("book family") == true)
        }
    }
}

extension ServedBooks {
    /// Sends a request as Bob, with a card's content type for a `PUT`.
    func send(bob method: String, _ path: String, body: String) -> HTTPServerResponse {
        send("bob", method, path, headers: method == "PUT" ? [("Content-Type", "text/vcard")] : [], body: body)
    }
}

extension CardDAVTestStore {
    /// Every file of a store, by path, with its bytes.
    static func files(of store: TemporaryStore) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let root = store.storeURL.standardizedFileURL.path
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return files }
        while let relative = enumerator.nextObject() as? String {
            let path = root + "/" + relative
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                files[relative] = try Data(contentsOf: URL(filePath: path))
            }
        }
        return files
    }
}
