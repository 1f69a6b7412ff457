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
        #expect(result == [try key("a"): RecordID(43)])
    }

    @Test func tiesAreBrokenByKeyAndLosersNumberedInKeyOrder() throws {
        let claims: [DuplicateIDResolver.Claim] = [
            .init(key: try key("z"), id: RecordID(5), created: nil),
            .init(key: try key("m"), id: RecordID(5), created: nil),
            .init(key: try key("a"), id: RecordID(5), created: nil),
            .init(key: try key("q"), id: RecordID(9), created: nil),
        ]
        #expect(DuplicateIDResolver.assign(claims) == [try key("m"): RecordID(10), try key("z"): RecordID(11)])
    }

    @Test func duplicateIDsInAStoreAreRenumberedOnOpenAndWrittenByTheNextSave() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        let john = makePerson("John", "Appleseed")
        try book.add(katie)
        try book.add(john)
        try book.save()
        // As after merging two clones that both created record 1.
        let johnFile = try store.personFile(john)
        // Written as Git writes a merged file: a new file renamed into place.
        try Data(try store.read(johnFile).replacingOccurrences(of: "\"id\": \(john.recordID)", with: "\"id\": \(katie.recordID)").utf8)
            .write(to: store.path(johnFile), options: .atomic)

        let merged = try store.openBook()
        let ids = merged.allPeople().map(\.recordID)
        #expect(Set(ids).count == 2)
        #expect(merged.hasUnsavedChanges)
        try merged.save()
        let reopened = try store.openBook()
        #expect(Set(reopened.allPeople().map(\.recordID)).count == 2)
        #expect(!reopened.hasUnsavedChanges)
    }

    @Test func twoClonesRepairingTheSameMergeWriteTheSameBytes() throws {
        let store = try TemporaryStore()
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

        let clone = store.url.appending(path: "clone")
        try FileManager.default.copyItem(at: store.storeURL, to: clone)
        try FileManager.default.removeItem(at: clone.appending(path: ".contacts"))
        try store.openBook().save()
        try AddressBook(url: clone).save()
        for name in try store.files(in: "people") {
            let original = try Data(contentsOf: store.path("people/\(name)"))
            let cloned = try Data(contentsOf: clone.appending(path: "people/\(name)"))
            #expect(original == cloned, "\(name) differs between the clones")
        }
    }
}
