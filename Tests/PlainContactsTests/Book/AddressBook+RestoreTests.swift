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
}
