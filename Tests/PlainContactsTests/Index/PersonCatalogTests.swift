import DAVTestSupport
import Foundation
import Glibc
import Testing

@testable import PlainContacts

/// A `people/` folder that cannot be listed never reads as a store without people.
@Suite struct PersonCatalogTests {
    /// A store with one saved person.
    private func storeWithOnePerson() throws -> TemporaryStore {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        try book.add(makePerson("Katie", "Bell"))
        try book.save()
        return store
    }

    /// Puts a file where the `people/` folder was (listing it then fails with `ENOTDIR`).
    private func replacePeopleFolderWithAFile(_ store: TemporaryStore) throws {
        try FileManager.default.removeItem(at: store.path("people"))
        try store.write("not a folder\n", to: "people")
    }

    @Test func aFileWhereThePeopleFolderShouldBeIsAnErrorNotAnEmptyCatalog() throws {
        let store = try storeWithOnePerson()
        try replacePeopleFolderWithAFile(store)
        let layout = StoreLayout(root: store.storeURL)
        #expect(throws: ContactsError.self) { try PersonCatalog.scan(layout: layout, index: StoreIndex.load(layout)) }
        do {
            _ = try PersonCatalog.scan(layout: layout, index: nil)
        } catch let error as ContactsError {
            #expect(error.code == .malformedFile)
            #expect(error.path == layout.peopleFolder.path)
            #expect((error.underlying as? SystemCallError)?.errno == ENOTDIR)
        }
    }

    @Test func aBookOnAStoreWhosePeopleCannotBeListedRefusesToAnswer() throws {
        let store = try storeWithOnePerson()
        try replacePeopleFolderWithAFile(store)
        var caught: ContactsError?
        do {
            let book = try store.openBook()
            try book.validate()
        } catch let error as ContactsError {
            caught = error
        }
        #expect(caught?.code == .malformedFile)
    }

    @Test func aPeopleFolderThatDoesNotExistHoldsNoPeople() throws {
        let store = try storeWithOnePerson()
        try FileManager.default.removeItem(at: store.path("people"))
        let catalog = try PersonCatalog.scan(layout: StoreLayout(root: store.storeURL), index: nil)
        #expect(catalog.summaries.isEmpty)
    }
}
