import DAVTestSupport
import Foundation
import Testing

@testable import PlainContacts

/// The files a save could change: the manifest, every group file, and a person's record and
/// saved image, named relative to the store's folder as Git names them.
@Suite struct AddressBookSavedFilesTests {
    @Test func aPersonsSaveCouldChangeTheManifestTheGroupsAndItsOwnFiles() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let oliver = makePerson("Oliver", "Wood")
        oliver.setImageData(Data("picture".utf8))
        let team = Group(name: "Team")
        try book.add(oliver)
        try book.add(team)
        try book.save()
        try book.addMember(oliver, to: team)
        try book.save()
        let key = try #require(oliver.key)
        let paths = book.filesASaveCouldChange(personKey: key)
        let groups = try store.files(in: "groups").map { "groups/" + $0 }
        let images = try store.files(in: "people").filter { !$0.hasSuffix(".json") }.map { "people/" + $0 }
        #expect(groups.count == 2)
        #expect(images.count == 1)
        #expect(Set(paths) == Set(["store.json", "people/\(key.rawValue).json"] + groups + images))
    }

    @Test func aWriteOfNoPersonCouldChangeOnlyTheManifestAndTheGroups() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        try book.add(Group(name: "Team"))
        try book.save()
        let paths = book.filesASaveCouldChange(personKey: nil)
        #expect(Set(paths) == Set(["store.json"] + (try store.files(in: "groups").map { "groups/" + $0 })))
    }

    @Test func aSaveOfEveryPersonCouldChangeEveryFileOfThePeopleAndGroupsFolders() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let oliver = makePerson("Oliver", "Wood")
        oliver.setImageData(Data("picture".utf8))
        try book.add(oliver)
        try book.add(makePerson("Katie", "Bell"))
        try book.add(Group(name: "Team"))
        try book.save()
        let paths = book.filesASaveCouldChange(personKey: oliver.key, everyPerson: true)
        let people = try store.files(in: "people").map { "people/" + $0 }
        let groups = try store.files(in: "groups").map { "groups/" + $0 }
        #expect(people.count == 3)
        #expect(paths.count == Set(paths).count)
        #expect(Set(paths) == Set(["store.json"] + people + groups))
    }
}
