import DAVTestSupport
import Foundation
import Synchronization
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// The writer's restores and merge: each one save, reported as a web change with the files it
/// changed (what `--commit` commits), the cards brought up to date for the CardDAV clients.
@Suite struct CardDAVWriterHistoryTests {
    /// The writes reported.
    private final class Writes: Sendable {
        let list = Mutex<[CardDAVWrite]>([])
    }

    /// A store served with its writes reported, and its writer.
    private func served() throws -> (TemporaryStore, CardDAVService, Writes) {
        let store = try TemporaryStore()
        _ = try store.makeBook()
        let writes = Writes()
        let service = try CardDAVService(storeURL: store.storeURL, afterWrite: { write in writes.list.withLock { $0.append(write) } })
        return (store, service, writes)
    }

    @Test func restoringAVersionAndARemovedPersonAreReportedAsWebRestores() throws {
        let (store, service, writes) = try served()
        let book = try store.openBook()
        let katie = makePerson("Katie", "Bell")
        katie.jobTitle = "Pilot"
        try book.add(katie)
        try book.save()
        let key = try #require(katie.key)
        let path = StoreRepository.path(ofPersonWithKey: key)
        let first = Data(try store.read(path).utf8)
        katie.jobTitle = "Captain"
        try book.save()
        let client = CardDAVWriter.Client(user: "kim")

        try service.home.writer.restore(personWithKey: key, ifMatch: nil, toVersion: first, path: path, client: client)
        try service.home.writer.remove(personWithKey: key, ifMatch: nil, client: client)
        let restored = try service.home.writer.restoreRemoved(fromVersion: first, path: path, client: client)

        let reported = writes.list.withLock { $0 }
        #expect(reported.map(\.method) == ["restore Katie Bell", "remove Katie Bell", "restore Katie Bell"])
        #expect(reported.allSatisfy { $0.isWeb && $0.user == "kim" && $0.files == [path] })
        #expect(restored == key)
        #expect(try store.openBook().person(forKey: key)?.jobTitle == "Pilot")
        #expect(try service.home.collection.listing().entries.values.contains { $0.record.key == key })
    }

    @Test func aMergeIsOneWriteReportingBothPeoplesFilesAndTheirGroups() throws {
        let (store, service, writes) = try served()
        let book = try store.openBook()
        let katie = makePerson("Katie", "Bell")
        let again = makePerson("Katie", "Bell")
        again.jobTitle = "Pilot"
        try book.add(katie)
        try book.add(again)
        let team = Group()
        team.name = "Team"
        try book.add(team)
        try book.save()
        try team.addMember(again)
        try book.save()
        let keys = (try #require(katie.key), try #require(again.key))
        let etag = try #require(service.home.collection.listing().entries.values.first { $0.record.key == keys.1 }?.etag)

        #expect(throws: CardDAVWriter.EditConflict.self) {
            try service.home.writer.merge(
                personWithKey: keys.1, into: keys.0, ifMatch: [keys.1: "\"stale\""], choosing: [:], client: CardDAVWriter.Client(user: "kim"))
        }
        try service.home.writer.merge(
            personWithKey: keys.1, into: keys.0, ifMatch: [keys.1: etag], choosing: [.jobTitle: .duplicate],
            client: CardDAVWriter.Client(user: "kim"))

        let reported = try #require(writes.list.withLock { $0.last })
        #expect(writes.list.withLock { $0.count } == 1)
        #expect(reported.method == "merge Katie Bell into Katie Bell")
        #expect(reported.files.contains(StoreRepository.path(ofPersonWithKey: keys.0)))
        #expect(reported.files.contains(StoreRepository.path(ofPersonWithKey: keys.1)))
        #expect(reported.files.contains { $0.hasPrefix("groups/") && $0.hasSuffix(".members") })
        let reread = try store.openBook()
        #expect(reread.allPeople().count == 1)
        let kept = try #require(try reread.person(forKey: keys.0))
        #expect(kept.jobTitle == "Pilot")
        #expect(reread.groups(containing: kept).map(\.name) == ["Team"])
        #expect(try !service.home.collection.listing().entries.values.contains { $0.record.key == keys.1 })
    }
}
