import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// The book's downloads, a person's photo and birthday, and removing a person on the web pages.
@Suite struct WebBookTests {
    /// A browser signed in as Alice, whose book holds `people` made by `make`.
    private func book(_ make: (Person) -> Void) throws -> (WebBrowser, Person) {
        let books = try ServedBooks()
        let book = try books.alice.openBook()
        let person = Person()
        person.firstName = "Katie"
        person.lastName = "Bell"
        make(person)
        try book.add(person)
        try book.save()
        let browser = WebBrowser(books)
        browser.signIn("alice")
        return (browser, person)
    }

    @Test func theBookDownloadsAsVCardAndAsCSV() throws {
        let (browser, _) = try book { $0.emails = MultiValue([("katie@example.com", .work)]) }

        let cards = browser.send("GET", "/web/books/contacts/export.vcf")
        let sheet = browser.send("GET", "/web/books/contacts/export.csv")

        #expect(cards.status == 200)
        #expect(text(cards).contains("FN:Katie Bell"))
        #expect(cards.headers["Content-Disposition"] == "attachment; filename=\"contacts.vcf\"")
        #expect(sheet.headers["Content-Type"] == "text/csv; charset=utf-8")
        #expect(text(sheet).contains("katie@example.com"))
    }

    @Test func aRasterPhotoIsShownAndAnSVGNever() throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D])
        let (browser, katie) = try book { $0.setImageData(png) }
        let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.utf8)
        let book = try browser.books.alice.openBook()
        let mallory = Person()
        mallory.firstName = "Mallory"
        mallory.setImageData(svg)
        try book.add(mallory)
        try book.save()

        let katiePage = text(browser.send("GET", "/web/books/contacts/people/\(katie.recordID.rawValue)"))
        let photo = browser.send("GET", "/web/books/contacts/people/\(katie.recordID.rawValue)/photo")
        let malloryPage = text(browser.send("GET", "/web/books/contacts/people/\(mallory.recordID.rawValue)"))
        let malloryPhoto = browser.send("GET", "/web/books/contacts/people/\(mallory.recordID.rawValue)/photo")

        #expect(katiePage.contains("<img class=\"photo\" src=\"\(katie.recordID.rawValue)/photo\" alt=\"Photo of Katie Bell\""))
        #expect(photo.headers["Content-Type"] == "image/png")
        #expect(photo.body == png)
        #expect(!malloryPage.contains("<img"))
        #expect(malloryPhoto.status == 404)
        #expect(malloryPhoto.headers["Content-Type"] != "image/svg+xml")
    }

    @Test(arguments: [
        ("1990-05-04", "2026-05-03", 35), ("1990-05-04", "2026-05-04", 36), ("2000-02-29", "2026-12-31", 26),
    ])
    func theAgeIsTheBirthdaysReached(birthday: String, today: String, age: Int) throws {
        #expect(WebPersonFields.age(on: try ContactDate(parsing: birthday), today: try ContactDate(parsing: today)) == age)
        #expect(WebPersonFields.age(on: try ContactDate(parsing: "--05-04"), today: try ContactDate(parsing: today)) == nil)
    }

    @Test func removingAPersonAsksThenRemovesUnlessTheyChangedMeanwhile() throws {
        let (browser, katie) = try book { _ in }
        let page = "/web/books/contacts/people/\(katie.recordID.rawValue)"
        #expect(text(browser.send("GET", page)).contains("/remove\">Remove</a>"))
        let question = text(browser.send("GET", page + "/remove"))
        #expect(question.contains("<h1>Remove Katie Bell?</h1>"))
        let token = try browser.formToken(on: page + "/remove")
        let start = try #require(question.range(of: "name=\"etag\" value=\"")).upperBound
        let etag = String(question[start...].prefix { $0 != "\"" })

        let other = try browser.books.alice.openBook()
        try #require(other.person(withID: katie.recordID)).note = "changed"
        try other.save()
        let stale = browser.send("POST", page + "/remove", form: [(WebForm.tokenField, token), ("etag", etag)])
        #expect(stale.status == 409)
        #expect(try browser.books.alice.openBook().person(withID: katie.recordID) != nil)

        let fresh = text(browser.send("GET", page + "/remove"))
        let freshStart = try #require(fresh.range(of: "name=\"etag\" value=\"")).upperBound
        let removed = browser.send(
            "POST", page + "/remove", form: [(WebForm.tokenField, token), ("etag", String(fresh[freshStart...].prefix { $0 != "\"" }))])
        #expect(removed.status == 303)
        #expect(removed.headers["Location"] == "/web/books/contacts/")
        #expect(try browser.books.alice.openBook().person(withID: katie.recordID) == nil)
    }
}
