import DAVTestSupport
import Foundation
import Synchronization
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// A served store whose writes are reported.
private final class ReportedStore {
    /// The writes reported, in order.
    private final class Writes: Sendable {
        let list = Mutex<[CardDAVWrite]>([])
    }

    let server: CardDAVTestStore
    let service: CardDAVService
    private let writes = Writes()

    init() throws {
        server = try CardDAVTestStore()
        let writes = self.writes
        service = try CardDAVService(
            storeURL: server.store.storeURL, afterWrite: { write in writes.list.withLock { $0.append(write) } })
    }

    /// Sends a request; gives its status and the files of the write it made, if any.
    func send(_ method: String, _ name: String, _ body: String = "") -> (status: Int, files: [String]?) {
        let before = writes.list.withLock { $0.count }
        let status = service.respond(
            to: HTTPServerRequest(method: method, target: server.cardPath(name), body: Data(body.utf8)), user: nil
        ).status
        let written = writes.list.withLock { $0.count > before ? $0.last : nil }
        return (status, written?.files)
    }

    /// The file key of the person with a UID.
    func key(ofUID uid: String) throws -> String {
        try #require(service.collection.personKey(ofUID: uid)).rawValue
    }
}

/// The files each write reports as changed: what `--commit` records of it.
@Suite struct CardDAVTouchedFilesTests {
    private static let photo = "PHOTO;ENCODING=b;TYPE=PNG:" + Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).base64EncodedString()

    @Test func aPersonsCardChangesItsFileAndItsImage() throws {
        let store = try ReportedStore()
        let added = store.send("PUT", "k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell"))
        let key = try store.key(ofUID: "k")
        #expect(added.status == 201 && added.files == ["people/\(key).json"])

        let withPhoto = store.send("PUT", "k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell", extra: [Self.photo]))
        #expect(withPhoto.status == 204 && withPhoto.files == ["people/\(key).json", "people/\(key).png"])

        let unchanged = store.send("PUT", "k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell", extra: [Self.photo]))
        #expect(unchanged.status == 204 && unchanged.files == [])

        let removed = store.send("DELETE", "k.vcf")
        #expect(removed.status == 204 && removed.files == ["people/\(key).json", "people/\(key).png"])
    }

    @Test func aGroupsCardChangesItsFilesAndRemovingAMemberChangesTheirs() throws {
        let store = try ReportedStore()
        #expect(store.send("PUT", "k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell")).status == 201)
        let group = [
            "BEGIN:VCARD", "VERSION:3.0", "UID:team", "FN:Team", "N:Team", "X-ADDRESSBOOKSERVER-KIND:group",
            "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:k", "END:VCARD", "",
        ].joined(separator: "\r\n")

        let added = store.send("PUT", "team.vcf", group)
        let files = try #require(added.files)
        #expect(added.status == 201 && files.count == 2)
        #expect(files.allSatisfy { $0.hasPrefix("groups/") } && files.contains { $0.hasSuffix(".members") })

        let removed = store.send("DELETE", "k.vcf")
        #expect(removed.status == 204)
        #expect(removed.files?.count == 2)
        #expect(removed.files?.contains { $0.hasPrefix("people/") && $0.hasSuffix(".json") } == true)
        #expect(removed.files?.contains { $0.hasPrefix("groups/") && $0.hasSuffix(".members") } == true)
    }
}
