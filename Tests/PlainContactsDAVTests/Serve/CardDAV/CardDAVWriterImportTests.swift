import DAVTestSupport
import Foundation
import Synchronization
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// A file imported through the book's writer, as the web pages' upload does: one save, one
/// write reported with every file it changed, the cards up to date for the CardDAV clients.
@Suite struct CardDAVWriterImportTests {
    private final class Writes: Sendable {
        let list = Mutex<[CardDAVWrite]>([])
    }

    @Test func anImportIsOneWriteReportedWithEveryFileItChangedAndItsCardsAreServed() throws {
        let server = try CardDAVTestStore()
        let katie = try server.addPerson("Katie", "Bell")
        let writes = Writes()
        let service = try CardDAVService(storeURL: server.store.storeURL, afterWrite: { write in writes.list.withLock { $0.append(write) } })
        let before = try service.home.collection.listing().entries.count
        let csv = "First Name,Last Name,E-mail Address\nKatie,Bell,katie@example.org\nAnn,Bell,ann@example.org\n"

        let report = try service.home.writer.importContacts(
            Data(csv.utf8), source: "friends.csv", options: VCardImportOptions(), client: CardDAVWriter.Client(user: "kim"))

        #expect(report.added.count == 1)
        #expect(report.updated == [katie])
        let write = try #require(writes.list.withLock { $0.last })
        #expect(write.method == "import 2 people from friends.csv")
        #expect(write.isWeb)
        #expect(write.user == "kim")
        let book = try server.store.openBook()
        let keys = try [katie, report.added[0]].map { try #require(book.person(withID: $0)?.key).rawValue }
        #expect(write.files.contains("people/\(keys[0]).json"))
        #expect(write.files.contains("people/\(keys[1]).json"))
        #expect(try service.home.collection.listing().entries.count == before + 1)
        #expect(book.person(withID: katie)?.emails.values == ["katie@example.org"])
    }

    @Test func aFileWithNoContactIsRefusedAndNothingIsWritten() throws {
        let server = try CardDAVTestStore()
        let writes = Writes()
        let service = try CardDAVService(storeURL: server.store.storeURL, afterWrite: { write in writes.list.withLock { $0.append(write) } })
        let snapshot = try server.snapshot()

        #expect(throws: (any Error).self) {
            try service.home.writer.importContacts(Data("hello\n".utf8), source: "x.vcf", options: VCardImportOptions(), client: .init())
        }
        #expect(writes.list.withLock { $0.isEmpty })
        #expect(try server.snapshot() == snapshot)
    }
}
