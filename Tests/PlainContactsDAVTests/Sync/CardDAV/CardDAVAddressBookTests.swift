import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct CardDAVAddressBookTests {
    private let transport = FakeHTTPTransport()

    private func book() throws -> CardDAVAddressBook {
        try CardDAVAddressBook(url: testURL("https://dav.example.com/user/contacts"), client: .fake(transport))
    }

    private func body(_ request: HTTPRequest?) -> String {
        String(decoding: request?.body ?? Data(), as: UTF8.self)
    }

    private static func multistatus(_ responses: String, token: String? = nil) -> String {
        "<d:multistatus xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:carddav\" xmlns:cs=\"http://calendarserver.org/ns/\">"
            + responses + (token.map { "<d:sync-token>\($0)</d:sync-token>" } ?? "") + "</d:multistatus>"
    }

    private static func card(_ href: String, etag: String, data: String? = nil) -> String {
        let addressData = data.map { "<c:address-data>\($0)</c:address-data>" } ?? ""
        return "<d:response><d:href>\(href)</d:href><d:propstat><d:prop><d:getetag>\(etag)</d:getetag>\(addressData)"
            + "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
    }

    private static let collection = """
        <d:response><d:href>/user/contacts/</d:href><d:propstat><d:prop>
        <d:resourcetype><d:collection/><c:addressbook/></d:resourcetype></d:prop>
        <d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
        """

    @Test func collectionStateAsksForTheCtagAndSyncTokenAtDepthZero() throws {
        transport.enqueue(207, body: Self.multistatus("""
            <d:response><d:href>/user/contacts/</d:href><d:propstat><d:prop>
            <cs:getctag>"c1"</cs:getctag><d:sync-token>tok-1</d:sync-token>
            <d:supported-report-set><d:supported-report><d:report><d:sync-collection/></d:report></d:supported-report></d:supported-report-set>
            </d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
            """))
        let state = try book().collectionState()
        #expect(state == RemoteCollectionState(ctag: "\"c1\"", syncToken: "tok-1"))
        let request = try #require(transport.requests.first)
        #expect(request.method == "PROPFIND")
        #expect(request.url.absoluteString == "https://dav.example.com/user/contacts/")
        #expect(request.headers["Depth"] == "0")
        #expect(body(request).contains("getctag") && body(request).contains("sync-token"))
    }

    @Test func aServerThatDoesNotListSyncCollectionGivesNoToken() throws {
        transport.enqueue(207, body: Self.multistatus("""
            <d:response><d:href>/user/contacts/</d:href><d:propstat><d:prop>
            <cs:getctag>"c1"</cs:getctag><d:sync-token>tok-1</d:sync-token>
            <d:supported-report-set><d:supported-report><d:report><c:addressbook-multiget/></d:report></d:supported-report></d:supported-report-set>
            </d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
            """))
        #expect(try book().collectionState().syncToken == nil)
    }

    @Test func listCardsSkipsTheCollectionAndSubCollectionsAndKeepsWeakETags() throws {
        transport.enqueue(207, body: Self.multistatus(Self.collection + """
            <d:response><d:href>/user/contacts/sub/</d:href><d:propstat><d:prop>
            <d:resourcetype><d:collection/></d:resourcetype></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
            """ + Self.card("a%40b.vcf", etag: "W/\"1\"") + Self.card("/user/contacts/c.vcf", etag: "\"2\"")))
        let cards = try book().listCards()
        #expect(cards == [
            RemoteCardVersion(href: "/user/contacts/a@b.vcf", etag: "W/\"1\""),
            RemoteCardVersion(href: "/user/contacts/c.vcf", etag: "\"2\""),
        ])
        #expect(transport.requests.first?.headers["Depth"] == "1")
        #expect(body(transport.requests.first).contains("getetag"))
    }

    @Test func aCardWithoutAnETagIsAMalformedAnswer() throws {
        transport.enqueue(207, body: Self.multistatus("""
            <d:response><d:href>/user/contacts/a.vcf</d:href><d:propstat><d:prop><d:getcontenttype>text/vcard</d:getcontenttype>
            </d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
            """))
        let error = try #require(throws: SyncError.self) { try book().listCards() }
        #expect(error.code == .malformedResponse)
    }

    @Test(arguments: ["<not xml", "<d:multistatus xmlns:d=\"DAV:\"><d:response></d:response></d:multistatus>", "<html/>"])
    func anUnreadableAnswerIsMalformed(answer: String) throws {
        transport.enqueue(207, body: answer)
        let error = try #require(throws: SyncError.self) { try book().listCards() }
        #expect(error.code == .malformedResponse)
    }

    @Test func changesSinceATokenGivesChangedAndRemovedCards() throws {
        transport.enqueue(207, body: Self.multistatus(
            Self.card("new.vcf", etag: "\"3\"")
                + "<d:response><d:href>/user/contacts/gone.vcf</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>",
            token: "tok-2"))
        let changes = try #require(try book().changes(since: "tok-1&<"))
        #expect(changes.changed == [RemoteCardVersion(href: "/user/contacts/new.vcf", etag: "\"3\"")])
        #expect(changes.removed == ["/user/contacts/gone.vcf"])
        #expect(changes.syncToken == "tok-2")
        let request = try #require(transport.requests.first)
        #expect(request.method == "REPORT")
        #expect(request.headers["Depth"] == "0")
        #expect(body(request).contains("<d:sync-token>tok-1&amp;&lt;</d:sync-token>"))
        #expect(body(request).contains("<d:sync-level>1</d:sync-level>"))
    }

    @Test func changesCanBringTheCardsContentWhenTheServerSendsIt() throws {
        transport.enqueue(207, body: Self.multistatus(
            Self.card("a.vcf", etag: "\"1\"", data: "BEGIN:VCARD\r\nUID:a\r\nEND:VCARD\r\n") + Self.card("b.vcf", etag: "\"2\""),
            token: "tok-2"))
        let changes = try #require(try book().changes(since: "", includingCards: true))
        #expect(changes.changed.map(\.href) == ["/user/contacts/a.vcf", "/user/contacts/b.vcf"])
        #expect(changes.cards.keys.sorted() == ["/user/contacts/a.vcf"])
        #expect(String(decoding: changes.cards["/user/contacts/a.vcf"] ?? Data(), as: UTF8.self).contains("UID:a"))
        #expect(body(transport.requests.first).contains("address-data"))
        #expect(body(transport.requests.first).contains("<d:sync-token></d:sync-token>"))
    }

    @Test(arguments: [400, 403, 409, 412])
    func aRefusedTokenGivesNil(status: Int) throws {
        transport.enqueue(
            status, body: "<d:error xmlns:d=\"DAV:\"><d:valid-sync-token/></d:error>")
        #expect(try book().changes(since: "old") == nil)
    }

    @Test func aTruncatedAnswerIsFollowedWithTheNewToken() throws {
        let truncated = "<d:response><d:href>/user/contacts/</d:href><d:status>HTTP/1.1 507 Insufficient Storage</d:status></d:response>"
        transport.enqueue(207, body: Self.multistatus(Self.card("a.vcf", etag: "\"1\"") + truncated, token: "tok-2"))
        transport.enqueue(207, body: Self.multistatus(Self.card("b.vcf", etag: "\"2\""), token: "tok-3"))
        let changes = try #require(try book().changes(since: "tok-1"))
        #expect(changes.changed.map(\.href) == ["/user/contacts/a.vcf", "/user/contacts/b.vcf"])
        #expect(changes.syncToken == "tok-3")
        #expect(body(transport.requests.last).contains("tok-2"))
    }

    @Test func aSyncAnswerWithoutANewTokenIsMalformed() throws {
        transport.enqueue(207, body: Self.multistatus(Self.card("a.vcf", etag: "\"1\"")))
        let error = try #require(throws: SyncError.self) { try book().changes(since: "tok-1") }
        #expect(error.code == .malformedResponse)
    }

    @Test func fetchCardsAsksInBatchesAndLeavesOutMissingCards() throws {
        let hrefs = (0..<(CardDAVAddressBook.multigetBatchSize + 1)).map { "/user/contacts/\($0).vcf" }
        transport.enqueue(207, body: Self.multistatus(
            Self.card("/user/contacts/0.vcf", etag: "\"e0\"", data: "BEGIN:VCARD&#13;\nEND:VCARD")
                + "<d:response><d:href>/user/contacts/1.vcf</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>"))
        transport.enqueue(207, body: Self.multistatus(Self.card("/user/contacts/250.vcf", etag: "\"e250\"", data: "X")))
        let cards = try book().fetchCards(hrefs)
        #expect(cards.map(\.href) == ["/user/contacts/0.vcf", "/user/contacts/250.vcf"])
        #expect(cards.first?.data == Data("BEGIN:VCARD\r\nEND:VCARD".utf8))
        #expect(transport.requests.count == 2)
        let first = body(transport.requests.first)
        #expect(first.contains("addressbook-multiget") && first.contains("address-data") && first.contains("getetag"))
        #expect(first.components(separatedBy: "<d:href>").count - 1 == CardDAVAddressBook.multigetBatchSize)
        #expect(transport.requests.first?.method == "REPORT")
    }

    @Test func aFetchedCardWithoutDataIsMalformed() throws {
        transport.enqueue(207, body: Self.multistatus(Self.card("/user/contacts/0.vcf", etag: "\"e0\"")))
        let error = try #require(throws: SyncError.self) { try book().fetchCards(["/user/contacts/0.vcf"]) }
        #expect(error.code == .malformedResponse)
    }

    @Test func createCardPutsOnlyIfNoneMatchesUnderAnEncodedName() throws {
        transport.enqueue(201, headers: ["ETag": "\"n1\""])
        let version = try book().createCard(named: "a b@c.vcf", data: Data("card".utf8))
        #expect(version == RemoteCardVersion(href: "/user/contacts/a%20b@c.vcf", etag: "\"n1\""))
        let request = try #require(transport.requests.first)
        #expect(request.method == "PUT")
        #expect(request.url.absoluteString == "https://dav.example.com/user/contacts/a%20b@c.vcf")
        #expect(request.headers["If-None-Match"] == "*")
        #expect(request.headers["Content-Type"] == "text/vcard; charset=utf-8")
        #expect(request.body == Data("card".utf8))
    }

    @Test func aCreatedCardWithoutAnETagIsReadBack() throws {
        transport.enqueue(201)
        transport.enqueue(207, body: Self.multistatus(Self.card("/user/contacts/a.vcf", etag: "\"n2\"")))
        let version = try book().createCard(named: "a.vcf", data: Data("card".utf8))
        #expect(version.etag == "\"n2\"")
        #expect(transport.requests.last?.method == "PROPFIND")
        #expect(transport.requests.last?.headers["Depth"] == "0")
    }

    @Test func updateCardPutsIfMatchingTheETag() throws {
        transport.enqueue(204, headers: ["etag": "W/\"u2\""])
        let version = try book().updateCard(at: "/user/contacts/a.vcf", data: Data("v2".utf8), etag: "W/\"u1\"")
        #expect(version.etag == "W/\"u2\"")
        #expect(transport.requests.first?.headers["If-Match"] == "W/\"u1\"")
    }

    @Test func aFailedConditionIsPreconditionFailed() throws {
        transport.enqueue(412)
        transport.enqueue(412)
        transport.enqueue(412)
        let update = try #require(throws: SyncError.self) {
            try book().updateCard(at: "/user/contacts/a.vcf", data: Data(), etag: "\"old\"")
        }
        #expect(update.code == .preconditionFailed)
        let create = try #require(throws: SyncError.self) { try book().createCard(named: "a.vcf", data: Data()) }
        #expect(create.code == .preconditionFailed)
        let delete = try #require(throws: SyncError.self) { try book().deleteCard(at: "/user/contacts/a.vcf", etag: "\"old\"") }
        #expect(delete.code == .preconditionFailed)
    }

    @Test func deleteCardDeletesIfMatchingAndAMissingCardIsNoError() throws {
        transport.enqueue(204)
        transport.enqueue(404)
        try book().deleteCard(at: "a.vcf", etag: "\"1\"")
        try book().deleteCard(at: "/user/contacts/b.vcf", etag: "\"2\"")
        #expect(transport.requests.map(\.method) == ["DELETE", "DELETE"])
        #expect(transport.requests.first?.headers["If-Match"] == "\"1\"")
        #expect(transport.requests.first?.url.absoluteString == "https://dav.example.com/user/contacts/a.vcf")
    }

    @Test func refusedCredentialsFailAuthentication() throws {
        transport.enqueue(401)
        let error = try #require(throws: SyncError.self) { try book().collectionState() }
        #expect(error.code == .authenticationFailed)
    }
}
