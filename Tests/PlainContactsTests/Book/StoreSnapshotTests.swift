import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct StoreSnapshotTests {
    @Test func aSaveChangesExactlyTheFilesItWrote() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        let john = makePerson("John", "Appleseed")
        try book.add(katie)
        try book.add(john)
        try book.save()
        let before = StoreSnapshot(of: store.storeURL)
        katie.jobTitle = "Pilot"
        try book.save()
        let after = StoreSnapshot(of: store.storeURL)
        #expect(after.changedPaths(since: before) == [try store.personFile(katie)])
        #expect(after.contains(try store.personFile(john)))
    }

    @Test func addedAndRemovedFilesBothCountAsChanged() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        try book.add(katie)
        try book.save()
        let katieFile = try store.personFile(katie)
        let before = StoreSnapshot(of: store.storeURL)
        try book.remove(katie)
        let friends = Group(name: "Friends")
        try book.add(friends)
        try book.save()
        let after = StoreSnapshot(of: store.storeURL)
        let groupKey = try #require(friends.key).rawValue
        let groupFiles = ["groups/\(groupKey).json", "groups/\(groupKey).members"]
        #expect(after.changedPaths(since: before) == (groupFiles + [katieFile]).sorted())
        #expect(!after.contains(katieFile))
        #expect(before.contains(katieFile))
    }

    @Test func listsTheManifestAndRecordsButNotHiddenFilesFoldersOrLinks() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        try book.add(makePerson("Katie", "Bell"))
        try book.save()
        let before = StoreSnapshot(of: store.storeURL)
        try store.write("{}", to: "people/.katie.json.tmp-0123")
        try store.write("{}", to: ".contacts/other.json")
        try store.write("{}", to: "notes.json")
        try FileManager.default.createDirectory(at: store.path("people/folder.json"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(
            atPath: store.path("groups/link.json").path, withDestinationPath: store.path("store.json").path)
        #expect(StoreSnapshot(of: store.storeURL).changedPaths(since: before).isEmpty)
        #expect(before.contains("store.json"))
    }

    @Test func aMissingStoreListsNothing() throws {
        let store = try TemporaryStore()
        let snapshot = StoreSnapshot(of: store.storeURL)
        #expect(!snapshot.contains("store.json"))
        #expect(snapshot.changedPaths(since: snapshot).isEmpty)
    }
}
