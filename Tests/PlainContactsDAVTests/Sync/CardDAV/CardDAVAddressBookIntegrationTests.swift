import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// ``CardDAVAddressBook`` against real servers started on 127.0.0.1.
@Suite struct CardDAVAddressBookIntegrationTests {
    private static func card(_ uid: String, name: String) -> Data {
        Data("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nFN:\(name)\r\nN:\(name);;;;\r\nEND:VCARD\r\n".utf8)
    }

    private static func book(_ server: DAVTestServer, password: String? = nil) throws -> CardDAVAddressBook {
        try CardDAVAddressBook(
            url: server.addressBookURL,
            credentials: RemoteCredentials(user: server.user, password: password ?? server.password))
    }

    @Test(arguments: [DAVTestServer.Kind.radicale(password: nil), .radicale(password: "open sesame"), .xandikos])
    func cardsAreCreatedListedFetchedUpdatedAndDeleted(kind: DAVTestServer.Kind) throws {
        let server = try DAVTestServer(kind)
        let book = try Self.book(server)
        #expect(try book.listCards().isEmpty)

        let first = try book.createCard(named: "uid-1.vcf", data: Self.card("uid-1", name: "One"))
        let second = try book.createCard(named: "uid 2@x.vcf", data: Self.card("uid 2@x", name: "Two"))
        #expect(second.href.hasSuffix("/uid%202@x.vcf"))
        #expect(Set(try book.listCards()) == [first, second])

        let fetched = try book.fetchCards([first.href, second.href, first.href.replacingOccurrences(of: "uid-1", with: "gone")])
        #expect(Set(fetched.map(\.href)) == [first.href, second.href])
        #expect(fetched.first { $0.href == first.href }.map { String(decoding: $0.data, as: UTF8.self) }?.contains("UID:uid-1") == true)
        #expect(fetched.first { $0.href == second.href }?.etag == second.etag)

        let updated = try book.updateCard(at: first.href, data: Self.card("uid-1", name: "Uno"), etag: first.etag)
        #expect(updated.etag != first.etag)
        let stale = try #require(throws: SyncError.self) {
            try book.updateCard(at: first.href, data: Self.card("uid-1", name: "Stale"), etag: first.etag)
        }
        #expect(stale.code == .preconditionFailed)
        let duplicate = try #require(throws: SyncError.self) {
            try book.createCard(named: "uid-1.vcf", data: Self.card("uid-1", name: "Again"))
        }
        #expect(duplicate.code == .preconditionFailed)

        let staleDelete = try #require(throws: SyncError.self) { try book.deleteCard(at: first.href, etag: first.etag) }
        #expect(staleDelete.code == .preconditionFailed)
        try book.deleteCard(at: first.href, etag: updated.etag)
        try book.deleteCard(at: first.href, etag: updated.etag)
        #expect(try book.listCards() == [second])
    }

    @Test(arguments: [DAVTestServer.Kind.radicale(password: nil), .xandikos])
    func changesSinceATokenGiveAdditionsChangesAndRemovals(kind: DAVTestServer.Kind) throws {
        let server = try DAVTestServer(kind)
        let book = try Self.book(server)
        let kept = try book.createCard(named: "kept.vcf", data: Self.card("kept", name: "Kept"))
        let changed = try book.createCard(named: "changed.vcf", data: Self.card("changed", name: "Before"))
        let removed = try book.createCard(named: "removed.vcf", data: Self.card("removed", name: "Removed"))
        let token = try #require(try book.collectionState().syncToken)

        let newChanged = try book.updateCard(at: changed.href, data: Self.card("changed", name: "After"), etag: changed.etag)
        try book.deleteCard(at: removed.href, etag: removed.etag)
        let added = try book.createCard(named: "added.vcf", data: Self.card("added", name: "Added"))

        let changes = try #require(try book.changes(since: token))
        #expect(Set(changes.changed) == [newChanged, added])
        #expect(changes.removed == [removed.href])
        #expect(!changes.changed.contains(kept))
        #expect(changes.syncToken != token)
        let none = try #require(try book.changes(since: changes.syncToken))
        #expect(none.changed.isEmpty && none.removed.isEmpty)
    }

    @Test func anUnknownSyncTokenGivesNil() throws {
        let server = try DAVTestServer(.radicale(password: nil))
        #expect(try Self.book(server).changes(since: "http://radicale.org/ns/sync/unknown") == nil)
    }

    @Test func theCollectionStateChangesWithTheCards() throws {
        let server = try DAVTestServer(.radicale(password: nil))
        let book = try Self.book(server)
        let before = try book.collectionState()
        #expect(before.ctag != nil && before.syncToken != nil)
        _ = try book.createCard(named: "a.vcf", data: Self.card("a", name: "A"))
        let after = try book.collectionState()
        #expect(after.ctag != before.ctag)
        #expect(after.syncToken != before.syncToken)
    }

    @Test func aWrongPasswordFailsAuthentication() throws {
        let server = try DAVTestServer(.radicale(password: "right"))
        let error = try #require(throws: SyncError.self) { try Self.book(server, password: "wrong").listCards() }
        #expect(error.code == .authenticationFailed)
        #expect(!error.description.contains("wrong"))
    }

    @Test func aKilledServerIsUnavailableAndARestartedOneServesTheSameCards() throws {
        let server = try DAVTestServer(.radicale(password: nil))
        let book = try CardDAVAddressBook(
            url: server.addressBookURL,
            client: HTTPClient(
                transport: CurlTransport.standard(), credentials: RemoteCredentials(user: server.user, password: server.password),
                wait: { _ in }))
        let card = try book.createCard(named: "a.vcf", data: Self.card("a", name: "A"))
        server.kill()
        let error = try #require(throws: SyncError.self) { try book.listCards() }
        #expect(error.code == .serverUnavailable)
        try server.restart()
        #expect(try book.listCards() == [card])
    }
}
