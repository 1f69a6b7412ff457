import Foundation
import Glibc
import Synchronization
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// The journal of requests in progress that a supervisor reads after the server process died:
/// marking, clearing, reading back through another mapping, truncation, and what it never keeps.
@Suite struct HTTPRequestJournalTests {
    /// A second mapping of `journal`'s file, as the supervisor has it.
    private func otherMapping(of journal: HTTPRequestJournal) throws -> HTTPRequestJournal {
        let descriptor = fcntl(journal.descriptor, F_DUPFD_CLOEXEC, 0)
        try #require(descriptor >= 0)
        return try HTTPRequestJournal(adopting: descriptor)
    }

    /// Every byte of the journal's file.
    private func fileBytes(of journal: HTTPRequestJournal) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: journal.slotCount * HTTPRequestJournal.slotSize)
        let count = bytes.withUnsafeMutableBytes { pread(journal.descriptor, $0.baseAddress, $0.count, 0) }
        return Array(bytes.prefix(max(0, count)))
    }

    @Test func markedRequestsAreReadBackThroughAnotherMappingUntilCleared() throws {
        let journal = try HTTPRequestJournal(slotCount: 4)
        let reader = try otherMapping(of: journal)
        #expect(reader.slotCount == 4)
        let first = journal.begin(method: "PROPFIND", path: "/tablet/family/")
        let second = journal.begin(method: "PUT", path: "/kim/contacts/a.vcf")
        #expect(Set(reader.inFlight()) == [
            HTTPRequestJournal.Entry(method: "PROPFIND", path: "/tablet/family/"),
            HTTPRequestJournal.Entry(method: "PUT", path: "/kim/contacts/a.vcf"),
        ])
        journal.end(first)
        #expect(reader.inFlight() == [HTTPRequestJournal.Entry(method: "PUT", path: "/kim/contacts/a.vcf")])
        journal.end(second)
        #expect(reader.inFlight().isEmpty)
    }

    @Test func aFreedSlotIsReusedAndAFullJournalMarksNothing() throws {
        let journal = try HTTPRequestJournal(slotCount: 2)
        let slots = [journal.begin(method: "GET", path: "/a"), journal.begin(method: "GET", path: "/b")]
        #expect(journal.begin(method: "GET", path: "/c") == nil)
        #expect(journal.inFlight().count == 2)
        journal.end(slots[0])
        #expect(journal.begin(method: "GET", path: "/d") == slots[0])
        #expect(Set(journal.inFlight().map(\.path)) == ["/b", "/d"])
    }

    @Test func resetEmptiesEverySlot() throws {
        let journal = try HTTPRequestJournal(slotCount: 3)
        _ = journal.begin(method: "GET", path: "/a")
        _ = journal.begin(method: "GET", path: "/b")
        journal.reset()
        #expect(journal.inFlight().isEmpty)
        #expect(fileBytes(of: journal).allSatisfy { $0 == 0 })
    }

    @Test func longPathsAndMethodsAreTruncatedAtACharacterBoundary() throws {
        let journal = try HTTPRequestJournal(slotCount: 1)
        let path = "/" + String(repeating: "é", count: HTTPRequestJournal.pathCapacity)
        _ = journal.begin(method: String(repeating: "M", count: 100), path: path)
        let entry = try #require(journal.inFlight().first)
        #expect(entry.method == String(repeating: "M", count: HTTPRequestJournal.methodCapacity))
        #expect(entry.path.utf8.count <= HTTPRequestJournal.pathCapacity)
        #expect(entry.path.utf8.count >= HTTPRequestJournal.pathCapacity - 1)
        #expect(path.hasPrefix(entry.path))
        #expect(!entry.path.contains("\u{FFFD}"))
    }

    @Test func aServerMarksOnlyTheMethodAndPathWhileTheHandlerRuns() throws {
        let journal = try HTTPRequestJournal(slotCount: 4)
        let seen = Mutex<[HTTPRequestJournal.Entry]>([])
        let bytesDuringHandling = Mutex<[UInt8]>([])
        let server = HTTPServer(host: "127.0.0.1", port: 0, journal: journal, log: { _ in }) { request in
            seen.withLock { $0 = journal.inFlight() }
            bytesDuringHandling.withLock { $0 = fileBytes(of: journal) }
            return .text(200, "ok\n")
        }
        try server.start()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        let secret = "c2VjcmV0LXBhc3N3b3Jk"
        try client.send(
            "PUT /kim/contacts/a.vcf?token=query-secret HTTP/1.1\r\nHost: h\r\nAuthorization: Basic \(secret)\r\n"
                + "Content-Length: 11\r\n\r\nBODY-SECRET")
        #expect(try client.readResponse().status == 200)
        #expect(seen.withLock { $0 } == [HTTPRequestJournal.Entry(method: "PUT", path: "/kim/contacts/a.vcf")])
        let text = String(decoding: bytesDuringHandling.withLock { $0 }, as: UTF8.self)
        #expect(text.contains("/kim/contacts/a.vcf"))
        for kept in [secret, "BODY-SECRET", "query-secret", "Authorization", "Host"] {
            #expect(!text.contains(kept))
        }
        // The slot is cleared once the response is written, which the client may read first.
        let deadline = ContinuousClock.now + .seconds(5)
        while !journal.inFlight().isEmpty, ContinuousClock.now < deadline { usleep(5_000) }
        #expect(journal.inFlight().isEmpty)
    }
}
