import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct DuplicateIDResolverTests {
    private func key(_ text: String) throws -> RecordKey { try #require(RecordKey(rawValue: text)) }

    @Test func theEarliestCreatedRecordKeepsASharedID() throws {
        let claims: [DuplicateIDResolver.Claim] = [
            .init(key: try key("b"), id: RecordID(42), created: Date(timeIntervalSince1970: 100)),
            .init(key: try key("a"), id: RecordID(42), created: Date(timeIntervalSince1970: 200)),
            .init(key: try key("c"), id: RecordID(7), created: nil),
        ]
        let result = DuplicateIDResolver.assign(claims)
        #expect(Array(result.keys) == [try key("a")])
        let settled = try #require(result[try key("a")])
        #expect(DuplicateIDResolver.settledIDs.contains(settled.rawValue))
        #expect(settled == DuplicateIDResolver.freeSettledID(for: try key("a"), taken: [RecordID(42), RecordID(7)]))
    }

    @Test func tiesAreBrokenByKeyAndEveryLoserGetsItsOwnSettledID() throws {
        let claims: [DuplicateIDResolver.Claim] = [
            .init(key: try key("z"), id: RecordID(5), created: nil),
            .init(key: try key("m"), id: RecordID(5), created: nil),
            .init(key: try key("a"), id: RecordID(5), created: nil),
            .init(key: try key("q"), id: RecordID(9), created: nil),
        ]
        let result = DuplicateIDResolver.assign(claims)
        #expect(Set(result.keys) == [try key("m"), try key("z")])
        #expect(Set(result.values).count == 2)
        #expect(result.values.allSatisfy { DuplicateIDResolver.settledIDs.contains($0.rawValue) })
    }

    @Test func aSettledIDDependsOnlyOnTheKeyAndSkipsIDsInUse() throws {
        let katie = try key("katie-bell-9dw42k")
        let first = DuplicateIDResolver.freeSettledID(for: katie, taken: [])
        #expect(DuplicateIDResolver.freeSettledID(for: katie, taken: [RecordID(1), RecordID(2)]) == first)
        let next = DuplicateIDResolver.freeSettledID(for: katie, taken: [first])
        #expect(next != first)
        #expect(DuplicateIDResolver.settledIDs.contains(next.rawValue))
        // The top of the range wraps to its bottom.
        #expect(!DuplicateIDResolver.isAllocatable(Int32.max))
        #expect(DuplicateIDResolver.isAllocatable(DuplicateIDResolver.settledIDs.lowerBound - 1))
    }

    /// A store where John's file claims Katie's ID, as after merging two clones that both created
    /// record 1; returns John's file path.
    private func storeWithSharedID(_ store: TemporaryStore) throws -> (katie: Person, john: Person, johnFile: String) {
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        let john = makePerson("John", "Appleseed")
        try book.add(katie)
        try book.add(john)
        try book.save()
        let johnFile = try store.personFile(john)
        // Written as Git writes a merged file: a new file renamed into place.
        try Data(try store.read(johnFile).replacingOccurrences(of: "\"id\": \(john.recordID)", with: "\"id\": \(katie.recordID)").utf8)
            .write(to: store.path(johnFile), options: .atomic)
        return (katie, john, johnFile)
    }

    @Test func duplicateIDsAreSettledOnOpenWithoutWritingAnyFile() throws {
        let store = try TemporaryStore()
        let (katie, _, _) = try storeWithSharedID(store)
        let filesBefore = try store.files(in: "people").map { try store.read("people/\($0)") }

        let merged = try store.openBook()
        let people = merged.allPeople()
        #expect(Set(people.map(\.recordID)).count == 2)
        #expect(!merged.hasUnsavedChanges)
        let settled = try #require(people.first { DuplicateIDResolver.settledIDs.contains($0.recordID.rawValue) })
        let keeper = try #require(people.first { $0 !== settled })
        #expect(keeper.recordID == katie.recordID)
        #expect(merged.person(withID: settled.recordID) === settled)
        #expect(merged.person(withID: keeper.recordID) === keeper)

        // An unrelated save leaves both files alone, and the settled ID does not move.
        let newcomer = makePerson("Kim", "Lee")
        try merged.add(newcomer)
        try merged.save()
        #expect(!DuplicateIDResolver.settledIDs.contains(newcomer.recordID.rawValue))
        let filesAfter = try store.files(in: "people").filter { !$0.hasPrefix("kim-") }.map { try store.read("people/\($0)") }
        #expect(filesAfter == filesBefore)
        let reopened = try store.openBook()
        #expect(reopened.person(withID: settled.recordID)?.lastName == settled.lastName)
        #expect(Set(reopened.allPeople().map(\.recordID)).count == 3)
    }

    @Test func aChangeToThePersonWritesItsSettledID() throws {
        let store = try TemporaryStore()
        _ = try storeWithSharedID(store)
        let book = try store.openBook()
        let person = try #require(book.allPeople().first { DuplicateIDResolver.settledIDs.contains($0.recordID.rawValue) })
        let settled = person.recordID
        person.nickname = "Johnny"
        try book.save()
        #expect(try store.read(try store.personFile(person)).contains("\"id\": \(settled)"))
        let reopened = try store.openBook()
        #expect(reopened.person(withID: settled)?.nickname == "Johnny")
        #expect(Set(reopened.allPeople().map(\.recordID)).count == 2)
        #expect(!reopened.hasUnsavedChanges)
    }

    @Test func groupsSharingAnIDAreSettledWithoutWritingEitherFile() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let friends = Group(name: "Friends")
        let family = Group(name: "Family")
        try book.add(friends)
        try book.add(family)
        try book.save()
        let familyFile = "groups/\(try #require(family.key).rawValue).json"
        try Data(try store.read(familyFile).replacingOccurrences(of: "\"id\": \(family.recordID)", with: "\"id\": \(friends.recordID)").utf8)
            .write(to: store.path(familyFile), options: .atomic)
        let groupsBefore = try store.files(in: "groups").map { try store.read("groups/\($0)") }

        let merged = try store.openBook()
        #expect(Set(merged.allGroups().map(\.recordID)).count == 2)
        #expect(!merged.hasUnsavedChanges)
        try merged.add(makePerson("Kim", "Lee"))
        try merged.save()
        #expect(try store.files(in: "groups").map { try store.read("groups/\($0)") } == groupsBefore)
    }

    @Test func twoClonesRepairingTheSameMergeWriteTheSameBytes() throws {
        let store = try TemporaryStore()
        _ = try storeWithSharedID(store)
        let clone = store.url.appending(path: "clone")
        try FileManager.default.copyItem(at: store.storeURL, to: clone)
        try FileManager.default.removeItem(at: clone.appending(path: ".contacts"))
        _ = try StoreDoctor(storeURL: store.storeURL).fix()
        _ = try StoreDoctor(storeURL: clone).fix()
        for name in try store.files(in: "people") {
            let original = try Data(contentsOf: store.path("people/\(name)"))
            let cloned = try Data(contentsOf: clone.appending(path: "people/\(name)"))
            #expect(original == cloned, "\(name) differs between the clones")
        }
    }
}
