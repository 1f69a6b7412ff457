import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// Duplicates on the web pages: the pairs `contacts duplicates` finds, side by side with one
/// choice per differing property, merged as one save.
@Suite struct WebDuplicatesTests {
    /// Katie Bell twice in Alice's book, with a job title and a phone of their own each.
    private func pair() throws -> (WebBrowser, Person, Person) {
        let books = try ServedBooks()
        let book = try books.alice.openBook()
        let katie = Person()
        katie.firstName = "Katie"
        katie.lastName = "Bell"
        katie.jobTitle = "Pilot"
        katie.phones = MultiValue([("+1 555 0100", .mobile)])
        let again = Person()
        again.firstName = "Katie"
        again.lastName = "Bell"
        again.jobTitle = "<b>Captain</b>"
        again.phones = MultiValue([("+1 555 0199", .work)])
        try book.add(katie)
        try book.add(again)
        try book.save()
        let browser = WebBrowser(books)
        browser.signIn("alice")
        return (browser, katie, again)
    }

    @Test func thePairsAreListedAndShownSideBySideWithAChoicePerDifferingField() throws {
        let (browser, katie, again) = try pair()
        let (first, second) = (katie.recordID.rawValue, again.recordID.rawValue)

        let list = text(browser.send("GET", "/web/books/contacts/duplicates/"))
        let page = text(browser.send("GET", "/web/books/contacts/duplicates/\(first)/\(second)"))

        #expect(list.contains("href=\"\(first)/\(second)\">Katie Bell and Katie Bell"))
        #expect(page.contains("<legend>job title</legend>"))
        #expect(page.contains("name=\"choice.jobTitle\" value=\"survivor\" checked>"))
        #expect(page.contains("name=\"choice.jobTitle\" value=\"duplicate\">"))
        #expect(page.contains("name=\"choice.phones\" value=\"both\" checked>"))
        #expect(page.contains("&lt;b&gt;Captain&lt;/b&gt;"))
        #expect(!page.contains("<b>Captain"))
        #expect(page.contains("<dt>first name</dt>"))
        #expect(!page.contains("choice.firstName"))
    }

    @Test func mergingKeepsTheChosenValuesAndRemovesTheOtherInOneSave() throws {
        let (browser, katie, again) = try pair()
        let page = "/web/books/contacts/duplicates/\(katie.recordID.rawValue)/\(again.recordID.rawValue)"
        let form = [
            (WebForm.tokenField, try browser.formToken(on: page)), ("choice.jobTitle", "duplicate"), ("choice.phones", "survivor"),
        ]

        let merged = browser.send("POST", page, form: form)

        #expect(merged.status == 303)
        #expect(merged.headers["Location"] == "/web/books/contacts/people/\(katie.recordID.rawValue)")
        let book = try browser.books.alice.openBook()
        #expect(book.allPeople().count == 1)
        let kept = try #require(book.person(withID: katie.recordID))
        #expect(kept.jobTitle == "<b>Captain</b>")
        #expect(kept.phones.values == ["+1 555 0100"])
        #expect(text(browser.send("GET", "/web/books/contacts/duplicates/")).contains("Nobody seems to be in the book twice."))
    }

    @Test func aMergeIsRefusedWithoutTheTokenAndAfterAChangeMeanwhile() throws {
        let (browser, katie, again) = try pair()
        let page = "/web/books/contacts/duplicates/\(katie.recordID.rawValue)/\(again.recordID.rawValue)"
        let shown = text(browser.send("GET", page))
        let etag = try #require(shown.components(separatedBy: "name=\"etag.other\" value=\"").dropFirst().first?.prefix { $0 != "\"" })
        let book = try browser.books.alice.openBook()
        try #require(book.person(withID: again.recordID)).note = "changed meanwhile"
        try book.save()

        let tokenless = browser.send("POST", page, form: [("choice.jobTitle", "duplicate")])
        let stale = browser.send("POST", page, form: [(WebForm.tokenField, try browser.formToken(on: page)), ("etag.other", String(etag))])

        #expect(tokenless.status == 403)
        #expect(stale.status == 409)
        #expect(try browser.books.alice.openBook().allPeople().count == 2)
    }

    @Test func aReadOnlyGrantSeesThePairButCannotMergeIt() throws {
        let books = try ServedBooks()
        let family = try books.family.openBook()
        for _ in 0..<2 {
            let gran = Person()
            gran.firstName = "Grace"
            gran.lastName = "Family"
            try family.add(gran)
        }
        try family.save()
        let ids = family.allPeople().map(\.recordID.rawValue).sorted()
        let bob = WebBrowser(books)
        bob.signIn("bob")
        let page = "/web/books/family/duplicates/\(ids[0])/\(ids[1])"

        let shown = text(bob.send("GET", page))
        let forged = bob.send("POST", page, form: [(WebForm.tokenField, try bob.formToken(on: "/web/books/family/"))])

        #expect(shown.contains("Merge Grace Family into Grace Family"))
        #expect(!shown.contains("<button type=\"submit\">Merge</button>"))
        #expect(forged.status == 403)
        #expect(try books.family.openBook().allPeople().count == 2)
    }
}
