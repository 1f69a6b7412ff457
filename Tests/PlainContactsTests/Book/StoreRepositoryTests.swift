import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

/// What the programs that commit, log and merge a store's repository ask of the store.
@Suite struct StoreRepositoryTests {
    @Test func gitSettingsAreReadFromTheManifestAtOnce() throws {
        let store = try TemporaryStore()
        _ = try store.makeBook()
        let manifest = try store.read("store.json")
        let fields = manifest.replacingOccurrences(of: "{\n", with: "{\n  \"autoCommit\": true,\n  \"autoPush\": false,\n")
        try store.write(fields, to: "store.json")
        let settings = StoreRepository.gitSettings(ofStoreAt: store.storeURL)
        #expect(settings.autoCommit)
        #expect(!settings.autoPush)
    }

    @Test func aMissingManifestSaysNoToBothGitSettings() throws {
        let store = try TemporaryStore()
        let settings = StoreRepository.gitSettings(ofStoreAt: store.storeURL)
        #expect(!settings.autoCommit)
        #expect(!settings.autoPush)
    }

    @Test func personNameReadsAVersionAndTellsAnUnreadableOne() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        let nameless = makePerson(nil, nil)
        try book.add(katie)
        try book.add(nameless)
        try book.save()
        let path = try store.personFile(katie)
        let data = try Data(contentsOf: store.path(path))
        #expect(StoreRepository.personName(inVersion: data, path: path, format: .firstNameFirst) == .some("Katie Bell"))
        #expect(StoreRepository.personName(inVersion: data, path: path, format: .lastNameFirst) == .some("Bell Katie"))
        let namelessPath = try store.personFile(nameless)
        let namelessData = try Data(contentsOf: store.path(namelessPath))
        let namelessName = StoreRepository.personName(inVersion: namelessData, path: namelessPath, format: .firstNameFirst)
        #expect(namelessName == .some(nil))
        #expect(StoreRepository.personName(inVersion: Data("not json".utf8), path: path, format: .firstNameFirst) == nil)
    }

    @Test func aGitattributesEditedByHandIsKeptAndTheUpdateSaysWhatItShouldHold() throws {
        let store = try TemporaryStore()
        _ = try store.makeBook()
        try store.write("*.json text\n", to: ".gitattributes")
        let update = try StoreRepository.updateGitattributes(inStoreAt: store.storeURL)
        guard case .edited(let expected) = update else {
            Issue.record("an edited .gitattributes was not reported as edited: \(update)")
            return
        }
        #expect(expected == StoreLayout.gitattributesContents)
        #expect(try store.read(".gitattributes") == "*.json text\n")
    }
}
