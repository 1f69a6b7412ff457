import DAVTestSupport
import Foundation
import PlainContactsSystem
import Testing
@testable import PlainContacts

/// The operations by file key that the CardDAV client and server use.
@Suite struct AddressBookKeysTests {
    /// A saved group with Katie in it, and John outside it.
    private func savedBook(_ store: TemporaryStore) throws -> (AddressBook, Group, Person, Person) {
        let book = try store.makeBook()
        let friends = Group(name: "Friends")
        let katie = makePerson("Katie", "Bell")
        let john = makePerson("John", "Appleseed")
        try book.add(friends)
        try book.add(katie)
        try book.add(john)
        try book.save()
        try friends.addMember(katie)
        try book.save()
        return (book, friends, katie, john)
    }

    @Test func personKeysListSavedPeopleAndLeaveOutRemovedOnes() throws {
        let store = try TemporaryStore()
        let (_, _, katie, john) = try savedBook(store)
        let book = try store.openBook()
        let katieKey = try #require(katie.key)
        let johnKey = try #require(john.key)
        #expect(Set(book.personKeys) == [katieKey, johnKey])
        let johnRead = try #require(try book.person(forKey: johnKey))
        try book.remove(johnRead)
        #expect(book.personKeys == [katieKey])
    }

    @Test func personForKeyReadsTheFileOnceAndGivesTheSameRecord() throws {
        let store = try TemporaryStore()
        let (_, _, katie, _) = try savedBook(store)
        let book = try store.openBook()
        let key = try #require(katie.key)
        let read = try #require(try book.person(forKey: key))
        #expect(read.recordID == katie.recordID)
        #expect(read.value(for: .lastName) == .string("Bell"))
        #expect(try book.person(forKey: key) === read)
        let unknown = try #require(RecordKey(rawValue: "nobody-here"))
        #expect(try book.person(forKey: unknown) == nil)
    }

    @Test func aDamagedFileThrowsFromPersonForKeyAndIsKeptByReadablePerson() throws {
        let store = try TemporaryStore()
        let (_, _, katie, _) = try savedBook(store)
        try store.write("{ not json", to: try store.personFile(katie))
        let book = try store.openBook()
        let key = try #require(katie.key)
        #expect { try book.person(forKey: key) } throws: { ($0 as? ContactsError)?.code == .malformedFile }
        #expect(book.readablePerson(forKey: key) == nil)
        #expect(book.lastLoadError?.code == .malformedFile)
    }

    @Test func groupForKeyAndItsMemberKeys() throws {
        let store = try TemporaryStore()
        let (_, friends, katie, john) = try savedBook(store)
        let book = try store.openBook()
        let groupKey = try #require(friends.key)
        let group = try #require(book.group(forKey: groupKey))
        #expect(group.name == "Friends")
        #expect(book.memberKeys(ofGroupWithKey: groupKey) == [try #require(katie.key)])
        let johnKey = try #require(john.key)
        try group.addMember(try #require(try book.person(forKey: johnKey)))
        #expect(book.memberKeys(ofGroupWithKey: groupKey).count == 2)
        try book.remove(group)
        #expect(book.group(forKey: groupKey) == nil)
    }

    @Test func theSavedFingerprintIsThatOfTheFileUntilThePersonChanges() throws {
        let store = try TemporaryStore()
        let (_, _, katie, _) = try savedBook(store)
        let book = try store.openBook()
        let key = try #require(katie.key)
        let person = try #require(try book.person(forKey: key))
        let fileBytes = try Data(contentsOf: store.path(try store.personFile(katie)))
        #expect(book.savedFingerprint(ofPersonWithKey: key) == Fingerprint(fileBytes))
        #expect(book.savedFingerprint(of: person) == Fingerprint(fileBytes))
        person.firstName = "Leanne"
        #expect(book.savedFingerprint(of: person) == nil)
        #expect(book.savedFingerprint(ofPersonWithKey: key) == Fingerprint(fileBytes))
    }

    @Test func theRecordFileFingerprintIsTheFilesThenWhatASaveWouldWrite() throws {
        let store = try TemporaryStore()
        let (_, _, katie, _) = try savedBook(store)
        let book = try store.openBook()
        let key = try #require(katie.key)
        let person = try #require(try book.person(forKey: key))
        let fileBytes = try Data(contentsOf: store.path(try store.personFile(katie)))
        #expect(book.recordFileFingerprint(of: person) == Fingerprint(fileBytes))
        person.firstName = "Leanne"
        let unsaved = book.recordFileFingerprint(of: person)
        #expect(unsaved != Fingerprint(fileBytes))
        try book.save()
        let savedBytes = try Data(contentsOf: store.path(try store.personFile(person)))
        #expect(unsaved == Fingerprint(savedBytes))
        #expect(book.recordFileFingerprint(of: person) == Fingerprint(savedBytes))
    }

    @Test func aSaveReportsTheBytesOfEveryPersonFileItWrote() throws {
        let store = try TemporaryStore()
        let (_, _, katie, _) = try savedBook(store)
        let book = try store.openBook()
        let key = try #require(katie.key)
        let person = try #require(try book.person(forKey: key))
        person.firstName = "Leanne"
        let newcomer = makePerson("Alicia", "Spinnet")
        try book.add(newcomer)
        let written = try book.saveReportingWrittenPeople()
        let newKey = try #require(newcomer.key)
        #expect(Set(written.keys) == [key, newKey])
        #expect(written[key] == (try Data(contentsOf: store.path(try store.personFile(katie)))))
        #expect(written[newKey] == (try Data(contentsOf: store.path(try store.personFile(newcomer)))))
        #expect(try book.saveReportingWrittenPeople().isEmpty)
    }

    @Test func thePersonFilePathNamesTheRecordFile() throws {
        let store = try TemporaryStore()
        let (book, _, katie, _) = try savedBook(store)
        let path = book.personFilePath(forKey: try #require(katie.key))
        #expect(path == store.path(try store.personFile(katie)).path(percentEncoded: false))
    }

    @Test func theRecordFileGivesItsPathSignatureAndSavedFingerprintAtOnce() throws {
        let store = try TemporaryStore()
        let (_, _, katie, _) = try savedBook(store)
        let book = try store.openBook()
        let key = try #require(katie.key)
        _ = book.personKeys
        let before = book.recordFile(ofPersonWithKey: key)
        #expect(before.path == book.personFilePath(forKey: key))
        #expect(before.signature == book.fileSignature(ofPersonWithKey: key))
        #expect(before.savedFingerprint == nil)
        _ = try book.person(forKey: key)
        let fileBytes = try Data(contentsOf: store.path(try store.personFile(katie)))
        #expect(book.recordFile(ofPersonWithKey: key).savedFingerprint == Fingerprint(fileBytes))
    }
}
