import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct CardDAVDiscoveryTests {
    private let transport = FakeHTTPTransport()

    private func discover(_ url: String) throws -> [DiscoveredAddressBook] {
        try CardDAVDiscovery(client: .fake(transport)).addressBooks(at: testURL(url))
    }

    private static func answer(_ href: String, _ properties: String) -> String {
        "<d:multistatus xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:carddav\"><d:response><d:href>\(href)</d:href>"
            + "<d:propstat><d:prop>\(properties)</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>"
    }

    private static let home = """
        <d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav">
        <d:response><d:href>/dav/me/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype></d:prop>
        <d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
        <d:response><d:href>/dav/me/work/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/><c:addressbook/></d:resourcetype>
        <d:displayname>Work</d:displayname></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
        <d:response><d:href>/dav/me/calendar/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype></d:prop>
        <d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
        <d:response><d:href>/dav/me/home/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/><c:addressbook/></d:resourcetype>
        </d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
        </d:multistatus>
        """

    @Test func anAddressBookURLIsItself() throws {
        transport.enqueue(207, body: Self.answer("/dav/me/work/", "<d:resourcetype><d:collection/><c:addressbook/></d:resourcetype><d:displayname>Work</d:displayname>"))
        let books = try discover("https://dav.example.com/dav/me/work/")
        #expect(books == [DiscoveredAddressBook(url: try testURL("https://dav.example.com/dav/me/work/"), displayName: "Work")])
        #expect(transport.requests.count == 1)
        #expect(transport.requests.first?.headers["Depth"] == "0")
    }

    @Test func aServerRootLeadsThroughThePrincipalToTheHomeSet() throws {
        transport.enqueue(207, body: Self.answer("/", "<d:resourcetype><d:collection/></d:resourcetype><d:current-user-principal><d:href>/principals/me/</d:href></d:current-user-principal>"))
        transport.enqueue(207, body: Self.answer("/principals/me/", "<c:addressbook-home-set><d:href>/dav/me/</d:href></c:addressbook-home-set>"))
        transport.enqueue(207, body: Self.home)
        let books = try discover("https://dav.example.com/")
        #expect(books.map(\.url.absoluteString) == ["https://dav.example.com/dav/me/home/", "https://dav.example.com/dav/me/work/"])
        #expect(books.map(\.displayName) == [nil, "Work"])
        #expect(transport.requests.map(\.url.absoluteString).map { $0.replacingOccurrences(of: "https://dav.example.com", with: "") } == ["/", "/principals/me/", "/dav/me/"])
        #expect(transport.requests.last?.headers["Depth"] == "1")
    }

    @Test func aPrincipalURLGoesStraightToItsHomeSet() throws {
        transport.enqueue(207, body: Self.answer("/principals/me/", "<c:addressbook-home-set><d:href>/dav/me/</d:href></c:addressbook-home-set>"))
        transport.enqueue(207, body: Self.home)
        #expect(try discover("https://dav.example.com/principals/me/").count == 2)
    }

    @Test func aURLWithoutAPrincipalFallsBackToTheWellKnownAddress() throws {
        transport.enqueue(404)
        transport.enqueue(301, headers: ["Location": "/principals/"])
        transport.enqueue(207, body: Self.answer("/principals/", "<d:current-user-principal><d:href>/principals/me/</d:href></d:current-user-principal>"))
        transport.enqueue(207, body: Self.answer("/principals/me/", "<c:addressbook-home-set><d:href>/dav/me/</d:href></c:addressbook-home-set>"))
        transport.enqueue(207, body: Self.home)
        #expect(try discover("https://dav.example.com/somewhere/").count == 2)
        #expect(transport.requests.map(\.url.absoluteString).map { $0.replacingOccurrences(of: "https://dav.example.com", with: "") } == [
            "/somewhere/", "/.well-known/carddav", "/principals/", "/principals/me/", "/dav/me/",
        ])
    }

    @Test func findingNothingIsNotFound() throws {
        for _ in 0..<3 { transport.enqueue(404) }
        let error = try #require(throws: SyncError.self) { try discover("https://dav.example.com/") }
        #expect(error.code == .notFound)
    }

    @Test func refusedCredentialsFailAuthentication() throws {
        transport.enqueue(401)
        let error = try #require(throws: SyncError.self) { try discover("https://dav.example.com/") }
        #expect(error.code == .authenticationFailed)
    }
}
