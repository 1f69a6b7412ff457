import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct RecordTableTests {
    /// A saved person as a table would load it: key, ID and snapshot.
    private func loaded(_ name: String, id: Int32, into table: inout RecordTable<Person, AddressBook.SavedPerson>, book: AddressBook) throws -> Person {
        let key = try #require(RecordKey(rawValue: name))
        let person = Person(key: key, recordID: RecordID(id), state: PersonState(), owner: book)
        table.load(person, snapshot: AddressBook.SavedPerson(id: RecordID(id), state: PersonState()))
        return person
    }

    @Test func aLoadedRecordIsFoundByKeyAndByID() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        var table = RecordTable<Person, AddressBook.SavedPerson>()
        let katie = try loaded("katie", id: 4, into: &table, book: book)
        #expect(table.holds(katie))
        #expect(table.key(forID: RecordID(4)) == katie.key)
        #expect(table.saved[try #require(katie.key)]?.id == RecordID(4))
        #expect(!table.hasAdditionsOrRemovals)
    }

    @Test func removingASavedRecordHidesItsIDAndAddingItBackRestoresIt() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        var table = RecordTable<Person, AddressBook.SavedPerson>()
        let katie = try loaded("katie", id: 4, into: &table, book: book)
        let key = try #require(katie.key)

        #expect(table.remove(katie) == .removed(key))
        #expect(!table.holds(katie))
        #expect(table.isRemoved(key))
        #expect(table.key(forID: RecordID(4)) == nil)
        #expect(table.hasAdditionsOrRemovals)
        #expect(table.remove(katie) == .notPresent)

        #expect(table.add(katie, to: book) == .restored(key))
        #expect(table.holds(katie))
        #expect(!table.isRemoved(key))
        #expect(table.key(forID: RecordID(4)) == key)
        #expect(table.touched.contains(key))
        #expect(!table.hasAdditionsOrRemovals)
    }

    @Test func removingANewRecordForgetsItAndDetachesIt() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        var table = RecordTable<Person, AddressBook.SavedPerson>()
        let newcomer = Person()
        #expect(table.add(newcomer, to: book) == .added)
        #expect(newcomer.owner === book)
        #expect(table.add(newcomer, to: book) == .alreadyPresent)
        #expect(table.added.count == 1)

        #expect(table.remove(newcomer) == .discardedAddition)
        #expect(newcomer.owner == nil)
        #expect(table.added.isEmpty)
    }

    @Test func aSaveGivesANewRecordItsKeyAndID() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        var table = RecordTable<Person, AddressBook.SavedPerson>()
        let newcomer = Person()
        _ = table.add(newcomer, to: book)
        let key = try #require(RecordKey(rawValue: "newcomer"))
        table.didSave(newcomer, key: key, id: RecordID(9), snapshot: AddressBook.SavedPerson(id: RecordID(9), state: PersonState()))
        table.finishSave()

        #expect(newcomer.key == key)
        #expect(newcomer.recordID == RecordID(9))
        #expect(table.holds(newcomer))
        #expect(table.key(forID: RecordID(9)) == key)
        #expect(!table.hasAdditionsOrRemovals)
    }

    @Test func aDeletionBySaveForgetsTheSnapshotAndDetachesTheRecord() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        var table = RecordTable<Person, AddressBook.SavedPerson>()
        let katie = try loaded("katie", id: 4, into: &table, book: book)
        let key = try #require(katie.key)
        _ = table.remove(katie)
        table.didDelete(key)

        #expect(katie.owner == nil)
        #expect(table.saved[key] == nil)
        #expect(!table.isRemoved(key))
        #expect(!table.hasAdditionsOrRemovals)
    }

    @Test func replacingTheIDLookUpKeepsTheLiveIDsOfRecordsAlreadyRead() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        var table = RecordTable<Person, AddressBook.SavedPerson>()
        let katie = try loaded("katie", id: 4, into: &table, book: book)
        let john = try #require(RecordKey(rawValue: "john"))
        // The catalog still has Katie under an older ID.
        table.replaceKeysByID([RecordID(2): try #require(katie.key), RecordID(7): john])

        #expect(table.key(forID: RecordID(4)) == katie.key)
        #expect(table.key(forID: RecordID(7)) == john)
    }

    @Test func discardingAdditionsKeepsRemovals() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        var table = RecordTable<Person, AddressBook.SavedPerson>()
        let katie = try loaded("katie", id: 4, into: &table, book: book)
        let newcomer = Person()
        _ = table.add(newcomer, to: book)
        _ = table.remove(katie)
        table.discardAdditions()

        #expect(newcomer.owner == nil)
        #expect(table.added.isEmpty)
        #expect(table.isRemoved(try #require(katie.key)))
    }
}
