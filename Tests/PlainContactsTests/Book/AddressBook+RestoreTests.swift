import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct AddressBookRestoreTests {
    @Test func anEarlierVersionComesBackAsANewSaveKeepingTheRecord() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        katie.phones = MultiValue([(value: "+1 555 0100", label: .mobile)])
        try book.add(katie)
        try book.save()
        let path = StoreLayout.personPath(try #require(katie.key))
        let first = Data(try store.read(path).utf8)
        katie.lastName = "Bell-Smith"
        katie.phones = MultiValue<String>()
        katie.jobTitle = "Pilot"
        try book.save()

        try book.restore(katie, toVersion: first, path: path)
        try book.save()

        let reread = try #require(try store.openBook().person(withID: katie.recordID))
        #expect(reread.compositeName == "Katie Bell")
        #expect(reread.phones.values == ["+1 555 0100"])
        #expect(reread.jobTitle == nil)
        #expect(reread.key == katie.key)
    }

    @Test func aRemovedPersonComesBackUnderTheirOldFileAndID() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        katie.jobTitle = "Pilot"
        try book.add(katie)
        try book.save()
        let (key, id) = (try #require(katie.key), katie.recordID)
        let path = StoreLayout.personPath(key)
        let last = Data(try store.read(path).utf8)
        try book.remove(katie)
        try book.save()

        let shown = try AddressBook.person(inVersion: last, path: path)
        let restored = try book.restoreRemovedPerson(fromVersion: last, path: path)
        try book.save()

        #expect(shown.compositeName == "Katie Bell")
        #expect(restored.key == key)
        #expect(restored.recordID == id)
        let reread = try #require(try store.openBook().person(withID: id))
        #expect(reread.jobTitle == "Pilot")
    }

    @Test func restoringAnEarlierVersionBringsBackItsPhoto() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        let first = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array("first photo".utf8))
        katie.setImageData(first)
        try book.add(katie)
        try book.save()
        let path = StoreLayout.personPath(try #require(katie.key))
        let version = Data(try store.read(path).utf8)
        let files = try companionFiles(of: version, path: path, in: store)
        katie.setImageData(Data([0x89, 0x50, 0x4E, 0x47] + Array("second photo".utf8)))
        katie.jobTitle = "Pilot"
        try book.save()

        try book.restore(katie, toVersion: version, path: path, files: files)
        try book.save()

        let reread = try #require(try store.openBook().person(withID: katie.recordID))
        #expect(try reread.imageData() == first)
        #expect(reread.jobTitle == nil)
        let names = try FileManager.default.contentsOfDirectory(atPath: store.storeURL.appending(path: "people").path)
        #expect(names.filter { !$0.hasSuffix(".json") } == ["\(try #require(katie.key).rawValue).jpg"])
    }

    @Test func restoringAVersionWithoutAPhotoRemovesIt() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        try book.add(katie)
        try book.save()
        let path = StoreLayout.personPath(try #require(katie.key))
        let version = Data(try store.read(path).utf8)
        katie.setImageData(Data("a photo".utf8))
        try book.save()

        try book.restore(katie, toVersion: version, path: path, files: try companionFiles(of: version, path: path, in: store))
        try book.save()

        #expect(try store.openBook().person(withID: katie.recordID)?.hasImage == false)
    }

    @Test func aRemovedPersonComesBackWithTheirPhotoAndTheGroupsStillThereInOneSave() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        let photo = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array("photo".utf8))
        katie.setImageData(photo)
        try book.add(katie)
        let (chasers, keepers, team) = (Group(), Group(), Group())
        chasers.name = "Chasers"
        keepers.name = "Keepers"
        team.name = "Team"
        for group in [chasers, keepers, team] { try book.add(group) }
        try book.save()
        try chasers.addMember(katie)
        try team.addMember(katie)
        try book.save()
        let (key, id) = (try #require(katie.key), katie.recordID)
        let path = StoreLayout.personPath(key)
        let last = Data(try store.read(path).utf8)
        let files = try companionFiles(of: last, path: path, in: store)
        try book.remove(katie)
        try book.remove(chasers)
        try book.save()

        let groups = book.groups(ofPersonVersionAt: path, files: files)
        let shown = try AddressBook.person(inVersion: last, path: path, files: files)
        let restored = try book.restoreRemovedPerson(fromVersion: last, path: path, files: files)
        try book.save()

        #expect(groups.kept.map(\.name) == ["Team"])
        #expect(groups.gone == ["Chasers"])
        #expect(try shown.imageData() == photo)
        #expect(restored.key == key)
        let reread = try store.openBook()
        let back = try #require(reread.person(withID: id))
        #expect(try back.imageData() == photo)
        #expect(reread.groups(containing: back).map(\.name) == ["Team"])
        #expect(book.groups(containing: restored).map(\.name) == ["Team"])
        #expect(try store.read("groups/\(try #require(keepers.key).rawValue).members").isEmpty)
    }

    @Test func theFilesThatGoWithAVersionAreItsPhotoAndTheGroupsFolder() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        try book.add(katie)
        try book.save()
        let key = try #require(katie.key)
        let path = StoreLayout.personPath(key)
        let plain = Data(try store.read(path).utf8)
        katie.setImageData(Data([0x89, 0x50, 0x4E, 0x47]))
        try book.save()

        #expect(StoreRepository.companionPaths(ofPersonVersion: plain, path: path) == ["groups"])
        let withPhoto = Data(try store.read(path).utf8)
        #expect(StoreRepository.companionPaths(ofPersonVersion: withPhoto, path: path) == ["people/\(key.rawValue).png", "groups"])
    }

    /// The files of `store`, as they are now, that go with a version of a person's file.
    private func companionFiles(of version: Data, path: String, in store: TemporaryStore) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for companion in StoreRepository.companionPaths(ofPersonVersion: version, path: path) {
            let url = store.storeURL.appending(path: companion)
            if let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) {
                for name in names { files["\(companion)/\(name)"] = FileManager.default.contents(atPath: url.appending(path: name).path) }
            } else {
                files[companion] = FileManager.default.contents(atPath: url.path)
            }
        }
        return files
    }
}
