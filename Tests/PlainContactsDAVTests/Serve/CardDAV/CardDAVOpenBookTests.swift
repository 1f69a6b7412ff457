import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// The served book's `AddressBook`, opened once: read again only when others changed the store,
/// and never written from a record others changed since it read it.
@Suite struct CardDAVOpenBookTests {
    /// The record ID of the person of a card the server saved.
    private func id(ofUID uid: String, in server: CardDAVTestStore) throws -> RecordID {
        let key = try #require(server.service.collection.personKey(ofUID: uid))
        return try #require(try server.store.openBook().person(forKey: key)).recordID
    }

    /// Rewrites a person's file in place, as an editor that keeps the inode does.
    private func editInPlace(_ id: RecordID, in server: CardDAVTestStore, _ change: (String) -> String) throws {
        let book = try server.store.openBook()
        let file = server.store.path(try server.store.personFile(try #require(book.person(withID: id))))
        let text = change(try String(contentsOf: file, encoding: .utf8))
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    @Test func writesFromClientsAloneReadTheStoreOnce() throws {
        let server = try CardDAVTestStore()
        for index in 0..<3 {
            #expect(server.put("p\(index).vcf", CardDAVTestStore.card(uid: "p\(index)", first: "P", last: "\(index)")).status == 201)
        }
        let edited = CardDAVTestStore.card(uid: "p0", first: "P", last: "0", extra: ["TEL;TYPE=CELL:+44 20 7946 0000"])
        #expect(server.put("p0.vcf", edited).status == 204)
        #expect(server.send("DELETE", server.cardPath("p1.vcf")).status == 204)
        #expect(server.send("GET", CardDAVURLSpace(user: nil).birthdayCalendarHref).status == 200)

        #expect(server.service.home.writer.bookReads == 1)
    }

    @Test func aPersonSavedElsewhereIsReadAgainBeforeTheNextWrite() throws {
        let server = try CardDAVTestStore()
        #expect(server.put("k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell")).status == 201)
        try server.editPerson(try id(ofUID: "k", in: server)) { $0.note = "saved by another program" }

        // Removed from a book that had not read the edit, the person would be a conflict.
        #expect(server.send("DELETE", server.cardPath("k.vcf")).status == 204)
        #expect(try server.store.openBook().allPeople().isEmpty)
        #expect(server.service.home.writer.bookReads == 2)
    }

    @Test func theBirthdayCalendarShowsWhatAnEditorWroteInPlace() throws {
        let server = try CardDAVTestStore()
        let id = try server.addPerson("Katie", "Bell", uid: "katie")
        try server.editPerson(id) { $0.birthday = try? ContactDate(parsing: "1986-04-12") }
        let path = CardDAVURLSpace(user: nil).birthdayCalendarHref
        let before = server.send("GET", path)
        #expect(before.status == 200)

        try editInPlace(id, in: server) { $0.replacingOccurrences(of: "1986", with: "1985") }
        let after = server.send("GET", path)

        #expect(after.body != before.body)
        #expect(after.body == Data(try server.store.openBook().birthdayCalendar().utf8))
        #expect(server.service.home.writer.bookReads == 2)
    }

    @Test func aPersonAddedToAGroupElsewhereLeavesItWhenRemovedThroughTheServer() throws {
        let server = try CardDAVTestStore()
        #expect(server.put("k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell")).status == 201)
        let book = try server.store.openBook()
        let team = Group(name: "Team")
        try book.add(team)
        try book.save()
        try team.addMember(try #require(book.person(withID: try id(ofUID: "k", in: server))))
        try book.save()
        let key = try #require(server.service.collection.personKey(ofUID: "k"))

        #expect(server.send("DELETE", server.cardPath("k.vcf")).status == 204)

        let members = try server.store.files(in: "groups").filter { $0.hasSuffix(".members") }
        #expect(members.count == 1)
        for name in members { #expect(!(try server.store.read("groups/" + name)).contains(key.rawValue)) }
        #expect(try server.store.openBook().allGroups().first?.members().isEmpty == true)
    }

    @Test func theBookIsReadAgainExactlyWhenItMayNotHoldWhatTheFilesHold() throws {
        let server = try CardDAVTestStore()
        let katie = try server.addPerson("Katie", "Bell")
        let key = try #require(try server.store.openBook().person(withID: katie)?.key)
        var open = CardDAVOpenBook(layout: StoreLayout(root: server.store.storeURL), options: AddressBookOptions())
        let nothing = StoreFolderWatch.News.records(people: [], groups: [])
        let book = try open.current(after: nothing)
        _ = try book.person(forKey: key)
        #expect(open.reads == 1)

        // Named, but its file holds what the book read: kept.
        _ = try open.current(after: .records(people: [key], groups: []))
        #expect(open.reads == 1)
        // A group named, the watch unable to tell, a use that failed, an unsaved change.
        _ = try open.current(after: .records(people: [], groups: [key]))
        #expect(open.reads == 2)
        _ = try open.current(after: .everything(.overflowed))
        #expect(open.reads == 3)
        open.setAsideAfterFailure()
        _ = try open.current(after: nothing)
        #expect(open.reads == 4)
        try book.add(makePerson("Never", "Saved"))
        #expect(try open.current(after: nothing).hasUnsavedChanges == false)
        #expect(open.reads == 5)
        // Another program's save of the person, and a person the book never read.
        try server.editPerson(katie) { $0.note = "saved elsewhere" }
        _ = try open.current(after: .records(people: [key], groups: []))
        #expect(open.reads == 6)
        let oliver = try server.addPerson("Oliver", "Wood")
        let oliverKey = try #require(try server.store.openBook().person(withID: oliver)?.key)
        _ = try open.current(after: .records(people: [oliverKey], groups: []))
        #expect(open.reads == 7)
        // The store's settings changed.
        let settings = try server.store.openBook()
        settings.sortOrdering = settings.sortOrdering == .firstName ? .lastName : .firstName
        try settings.save()
        _ = try open.current(after: nothing)
        #expect(open.reads == 8)
    }
}
