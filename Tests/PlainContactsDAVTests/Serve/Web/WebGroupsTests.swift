import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// Groups on the web pages: created, renamed, filled, emptied and removed, each one save; the
/// people list filtered by a group; a read-only grant shows no control.
@Suite struct WebGroupsTests {
    /// Katie Bell and Åsa Öberg in Alice's book, and a browser signed in as Alice.
    private func book() throws -> (WebBrowser, katie: Person, asa: Person) {
        let books = try ServedBooks()
        let book = try books.alice.openBook()
        let katie = Person()
        katie.firstName = "Katie"
        katie.lastName = "Bell"
        let asa = Person()
        asa.firstName = "Åsa"
        asa.lastName = "Öberg"
        try book.add(katie)
        try book.add(asa)
        try book.save()
        let browser = WebBrowser(books)
        browser.signIn("alice")
        return (browser, katie, asa)
    }

    private func group(named name: String, in browser: WebBrowser) throws -> Group? {
        try browser.books.alice.openBook().groups(named: name).first
    }

    /// The record IDs of the members of the group named `name` (the book kept open while they
    /// are read: a group reaches its members through its book).
    private func members(of name: String, in browser: WebBrowser) throws -> Set<RecordID> {
        let book = try browser.books.alice.openBook()
        return Set(try #require(book.groups(named: name).first).members().map(\.recordID))
    }

    @Test func aGroupIsCreatedFilledRenamedAndRemoved() throws {
        let (browser, katie, asa) = try book()
        let token = try browser.formToken(on: "/web/books/contacts/groups/")

        let created = browser.send("POST", "/web/books/contacts/groups/", form: [(WebForm.tokenField, token), ("name", "Friends")])
        let friends = try #require(try group(named: "Friends", in: browser))
        #expect(created.status == 303)
        #expect(created.headers["Location"] == "/web/books/contacts/groups/\(friends.recordID.rawValue)")

        let here = "/web/books/contacts/groups/\(friends.recordID.rawValue)"
        let found = text(browser.send("GET", here + "?find=kat"))
        #expect(found.contains("aria-label=\"Add Katie Bell to the group\""))
        #expect(!found.contains("Åsa"))
        for person in [katie, asa] {
            let added = browser.send(
                "POST", here + "/members/add", form: [(WebForm.tokenField, token), ("person", "\(person.recordID.rawValue)")])
            #expect(added.status == 303)
        }
        #expect(try members(of: "Friends", in: browser) == [katie.recordID, asa.recordID])

        browser.send("POST", here + "/members/remove", form: [(WebForm.tokenField, token), ("person", "\(asa.recordID.rawValue)")])
        #expect(try members(of: "Friends", in: browser) == [katie.recordID])

        browser.send("POST", here + "/rename", form: [(WebForm.tokenField, token), ("name", "Old friends")])
        #expect(try group(named: "Old friends", in: browser)?.recordID == friends.recordID)

        let removed = browser.send("POST", here + "/remove", form: [(WebForm.tokenField, token)])
        #expect(removed.headers["Location"] == "/web/books/contacts/groups/")
        #expect(try browser.books.alice.openBook().allGroups().isEmpty)
        #expect(try browser.books.alice.openBook().person(withID: katie.recordID) != nil)
    }

    @Test func aGroupWithoutANameIsRefusedBesideTheField() throws {
        let (browser, _, _) = try book()
        let token = try browser.formToken(on: "/web/books/contacts/groups/")

        let refused = browser.send("POST", "/web/books/contacts/groups/", form: [(WebForm.tokenField, token), ("name", "  ")])

        #expect(refused.status == 422)
        #expect(text(refused).contains("<p class=\"error\" id=\"name-problem\">Give the group a name.</p>"))
        #expect(try browser.books.alice.openBook().allGroups().isEmpty)
    }

    @Test func thePeopleListIsFilteredByAGroup() throws {
        let (browser, katie, _) = try book()
        let book = try browser.books.alice.openBook()
        let friends = Group()
        friends.name = "Friends"
        try book.add(friends)
        try book.save()
        try friends.addMember(try #require(book.person(withID: katie.recordID)))
        try book.save()

        let everyone = text(browser.send("GET", "/web/books/contacts/"))
        let filtered = text(browser.send("GET", "/web/books/contacts/?group=\(friends.recordID.rawValue)"))

        #expect(everyone.contains("Åsa Öberg"))
        #expect(everyone.contains("<option value=\"\(friends.recordID.rawValue)\">Friends</option>"))
        #expect(filtered.contains("Katie Bell"))
        #expect(!filtered.contains("Åsa Öberg"))
        #expect(filtered.contains("<option value=\"\(friends.recordID.rawValue)\" selected>Friends</option>"))
    }

    @Test func aReadOnlyGrantSeesTheGroupsWithoutControls() throws {
        let books = try ServedBooks()
        let family = try books.family.openBook()
        let cousins = Group()
        cousins.name = "Cousins"
        try family.add(cousins)
        try family.save()
        let bob = WebBrowser(books)
        bob.signIn("bob")
        let token = try bob.formToken(on: "/web/books/family/groups/")

        let list = text(bob.send("GET", "/web/books/family/groups/"))
        let page = text(bob.send("GET", "/web/books/family/groups/\(cousins.recordID.rawValue)"))
        let forged = bob.send(
            "POST", "/web/books/family/groups/\(cousins.recordID.rawValue)/rename", form: [(WebForm.tokenField, token), ("name", "X")])

        #expect(list.contains("Cousins"))
        #expect(!list.contains("Create group"))
        #expect(!page.contains("Rename"))
        #expect(forged.status == 403)
        #expect(try books.family.openBook().groups(named: "Cousins").count == 1)
    }
}
