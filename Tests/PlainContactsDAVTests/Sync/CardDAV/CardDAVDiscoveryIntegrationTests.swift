import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// ``CardDAVDiscovery`` against real servers started on 127.0.0.1.
@Suite struct CardDAVDiscoveryIntegrationTests {
    private static func discover(_ url: URL, on server: DAVTestServer) throws -> [URL] {
        try CardDAVDiscovery(credentials: RemoteCredentials(user: server.user, password: server.password))
            .addressBooks(at: url).map(\.url)
    }

    @Test func xandikosRootLeadsToItsAddressBook() throws {
        let server = try DAVTestServer(.xandikos)
        #expect(try Self.discover(server.baseURL, on: server) == [server.addressBookURL])
    }

    @Test func radicaleRootLeadsToItsAddressBook() throws {
        let server = try DAVTestServer(.radicale(password: "pw"))
        #expect(try Self.discover(server.baseURL, on: server) == [server.addressBookURL])
    }

    @Test func anAddressBookURLFindsItself() throws {
        let server = try DAVTestServer(.xandikos)
        let books = try CardDAVDiscovery(credentials: nil).addressBooks(at: server.addressBookURL)
        #expect(books.map(\.url) == [server.addressBookURL])
        #expect(books.first?.displayName == "addressbook")
    }

    @Test func aWrongPasswordFailsAuthentication() throws {
        let server = try DAVTestServer(.radicale(password: "right"))
        let error = try #require(throws: SyncError.self) {
            try CardDAVDiscovery(credentials: RemoteCredentials(user: server.user, password: "wrong")).addressBooks(at: server.baseURL)
        }
        #expect(error.code == .authenticationFailed)
    }
}
