import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct AddressBookTests {
    @Test func openingAFolderWithoutAStoreFailsWithNotAStore() throws {
        let store = try TemporaryStore()
        #expect {
            _ = try AddressBook(url: store.url)
        } throws: { ($0 as? ContactsError)?.code == .notAStore }
    }

    @Test func requireStoreNamesTheFolderAndTheFixWithoutCreatingAnything() throws {
        let store = try TemporaryStore()
        let error = try #require(throws: ContactsError.self) { try AddressBook.requireStore(at: store.url) }
        #expect(error.code == .notAStore && error.message.contains("contacts init"))
        #expect(error.path == store.url.path(percentEncoded: false))
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.url.path(percentEncoded: false)).isEmpty)
        _ = try AddressBook.create(at: store.url)
        try AddressBook.requireStore(at: store.url)
    }

    @Test func createIfMissingLaysOutManifestFoldersAndGitFiles() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        #expect(book.personCount == 0)
        for path in ["store.json", "people", "groups", ".contacts", ".gitignore", ".gitattributes"] {
            #expect(FileManager.default.fileExists(atPath: store.path(path).path), "missing \(path)")
        }
        #expect(try store.read(".gitignore").contains("/.contacts/"))
        #expect(try store.read(".gitattributes").contains("groups/*.members merge=contacts"))
        #expect(try store.read(".gitattributes").contains("store.json merge=contacts"))
        #expect(try store.read("store.json") == """
            {
              "compositeNameFormat": "firstNameFirst",
              "format": 1,
              "sortOrdering": "lastName"
            }

            """)
    }

    @Test func creatingWhereAStoreExistsFailsWithStoreExists() throws {
        let store = try TemporaryStore()
        _ = try store.makeBook()
        #expect {
            _ = try AddressBook.create(at: store.storeURL)
        } throws: { ($0 as? ContactsError)?.code == .storeExists }
    }

    @Test func aNewerFormatVersionIsRefused() throws {
        let store = try TemporaryStore()
        _ = try store.makeBook()
        try store.write("{\n  \"format\": 2\n}\n", to: "store.json")
        #expect {
            _ = try store.openBook()
        } throws: { ($0 as? ContactsError)?.code == .unsupportedFormatVersion }
    }

    @Test func aMissingManifestKeyReadsAsItsDefault() throws {
        let store = try TemporaryStore()
        _ = try store.makeBook()
        try store.write("{}\n", to: "store.json")
        let book = try store.openBook()
        #expect(book.sortOrdering == .lastName)
        #expect(book.compositeNameFormat == .firstNameFirst)
    }

    @Test func aMalformedRecordIsAnErrorNamingPathLineAndColumn() throws {
        let store = try TemporaryStore()
        _ = try store.makeBook()
        try store.write("{\n  \"id\": 1,\n  \"firstName\": \"Katie\"\n  \"lastName\": \"Bell\"\n}\n", to: "people/katie.json")
        do {
            _ = try store.openBook()
            Issue.record("a malformed file was accepted")
        } catch let error as ContactsError {
            #expect(error.code == .malformedFile)
            #expect(error.path?.hasSuffix("people/katie.json") == true)
            #expect(error.line == 4)
            #expect(error.column != nil)
        }
    }

    @Test func aRecordWithTheWrongShapeNamesTheFile() throws {
        let store = try TemporaryStore()
        _ = try store.makeBook()
        try store.write("{\n  \"id\": 1,\n  \"phones\": \"555\"\n}\n", to: "people/katie.json")
        do {
            _ = try store.openBook()
            Issue.record("a malformed record was accepted")
        } catch let error as ContactsError {
            #expect(error.code == .malformedFile)
            #expect(error.path?.hasSuffix("people/katie.json") == true)
        }
    }

    @Test func gitConflictMarkersAreReportedAsSuch() throws {
        let store = try TemporaryStore()
        _ = try store.makeBook()
        try store.write("""
            {
              "id": 1,
            <<<<<<< HEAD
              "firstName": "Katie"
            =======
              "firstName": "Kate"
            >>>>>>> other
            }

            """, to: "people/katie.json")
        do {
            _ = try store.openBook()
            Issue.record("a conflicted file was accepted")
        } catch let error as ContactsError {
            #expect(error.code == .conflictMarkers)
            #expect(error.line == 3)
        }
    }

    @Test func twoBooksOnOneFolderKeepTheirOwnUnsavedChanges() throws {
        let store = try TemporaryStore()
        let first = try store.makeBook()
        let second = try store.openBook()
        try first.add(makePerson("Katie", "Bell"))
        #expect(first.hasUnsavedChanges)
        #expect(!second.hasUnsavedChanges)
        #expect(second.personCount == 0)
        try first.save()
        #expect(second.personCount == 0)
        try second.revert()
        #expect(second.personCount == 1)
        #expect(second.allPeople().first?.firstName == "Katie")
    }

    @Test func theSortOrderingAndNameFormatAreStoreSettings() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        book.sortOrdering = .firstName
        book.compositeNameFormat = .lastNameFirst
        #expect(book.hasUnsavedChanges)
        try book.save()
        let reopened = try store.openBook()
        #expect(reopened.sortOrdering == .firstName)
        #expect(reopened.compositeNameFormat == .lastNameFirst)
    }

    @Test func unknownManifestKeysAreKeptWhenSettingsChange() throws {
        let store = try TemporaryStore()
        _ = try store.makeBook()
        try store.write("{\n  \"autoCommit\": true,\n  \"format\": 1\n}\n", to: "store.json")
        let book = try store.openBook()
        book.sortOrdering = .firstName
        try book.save()
        #expect(try store.read("store.json").contains("\"autoCommit\": true"))
    }
}
