import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// The people list: pages of ``WebPeopleList/pageSize`` people with links between them,
/// thumbnails of the photos that are images, names in their language.
@Suite struct WebPeopleListTests {
    private static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])

    @Test func aLongListIsSentAPageAtATimeWithLinksKeepingTheSearch() throws {
        let books = try ServedBooks()
        let book = try books.alice.openBook()
        for index in 0..<(WebPeopleList.pageSize + 5) {
            let person = Person()
            person.firstName = "Person"
            person.lastName = String(format: "Number %04d", index)
            try book.add(person)
        }
        try book.save()
        let browser = WebBrowser(books)
        browser.signIn("alice")

        let first = text(browser.send("GET", "/web/books/contacts/?q=person"))
        let second = text(browser.send("GET", "/web/books/contacts/?q=person&page=2&list=1"))

        #expect(first.contains("\(WebPeopleList.pageSize + 5) people, 1–\(WebPeopleList.pageSize) shown"))
        #expect(first.contains("Number 0000"))
        #expect(!first.contains(String(format: "Number %04d", WebPeopleList.pageSize)))
        #expect(first.contains("<a rel=\"next\" href=\"?q=person&amp;page=2\">"))
        #expect(second.contains(String(format: "Number %04d", WebPeopleList.pageSize + 4)))
        #expect(!second.contains("Number 0000"))
        #expect(second.contains("<a rel=\"prev\" href=\"?q=person&amp;page=1\">"))
        #expect(!second.contains("rel=\"next\""))
    }

    @Test func aPersonWithAnImageHasAThumbnailServedWithAnETag() throws {
        let books = try ServedBooks()
        let book = try books.alice.openBook()
        let katie = Person()
        katie.firstName = "Katie"
        katie.setImageData(Self.png)
        let svg = Person()
        svg.firstName = "Svg"
        svg.setImageData(Data("<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>".utf8))
        let plain = Person()
        plain.firstName = "Plain"
        for person in [katie, svg, plain] { try book.add(person) }
        try book.save()
        let browser = WebBrowser(books)
        browser.signIn("alice")

        let list = text(browser.send("GET", "/web/books/contacts/"))
        let photo = browser.send("GET", "/web/books/contacts/people/\(katie.recordID.rawValue)/photo")
        let again = browser.send(
            "GET", "/web/books/contacts/people/\(katie.recordID.rawValue)/photo", headers: [("If-None-Match", photo.headers["ETag"] ?? "")])
        let svgPhoto = browser.send("GET", "/web/books/contacts/people/\(svg.recordID.rawValue)/photo")

        #expect(list.contains("<img class=\"thumb\" src=\"people/\(katie.recordID.rawValue)/photo\" alt=\"\" width=\"40\" height=\"40\" loading=\"lazy\">"))
        #expect(!list.contains("src=\"people/\(plain.recordID.rawValue)/photo\""))
        #expect(photo.status == 200)
        #expect(photo.headers["Content-Type"] == "image/png")
        #expect(photo.headers["ETag"]?.hasPrefix("\"") == true)
        #expect(photo.headers["Cache-Control"] == "private, no-cache")
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(svgPhoto.status == 404)
        #expect(svgPhoto.headers["Content-Type"] != "image/svg+xml")
    }

    @Test func namesInAnotherScriptCarryTheirLanguage() throws {
        let books = try ServedBooks()
        let book = try books.alice.openBook()
        let yamada = Person()
        yamada.lastName = "山田"
        yamada.firstName = "太郎"
        yamada.lastNamePhonetic = "やまだ"
        yamada.firstNamePhonetic = "たろう"
        try book.add(yamada)
        try book.save()
        let browser = WebBrowser(books)
        browser.signIn("alice")

        let list = text(browser.send("GET", "/web/books/contacts/"))
        let page = text(browser.send("GET", "/web/books/contacts/people/\(yamada.recordID.rawValue)"))

        #expect(list.contains("<span class=\"name\" lang=\"und-Hani\">"))
        #expect(page.contains("<h1 lang=\"ja\"><ruby>山田<rt>やまだ</rt></ruby>"))
        #expect(page.contains("<ruby>太郎<rt>たろう</rt></ruby></h1>"))
    }

    @Test func aChangeMadeOutsideTheServerShowsOnTheNextLoad() throws {
        let books = try ServedBooks()
        let browser = WebBrowser(books)
        browser.signIn("alice")
        #expect(text(browser.send("GET", "/web/books/contacts/")).contains("0 people"))

        let book = try books.alice.openBook()
        let katie = Person()
        katie.firstName = "Katie"
        try book.add(katie)
        try book.save()
        let afterAdding = text(browser.send("GET", "/web/books/contacts/"))
        katie.setImageData(Self.png)
        try book.save()
        let afterPhoto = text(browser.send("GET", "/web/books/contacts/"))

        #expect(afterAdding.contains("1 person"))
        #expect(afterAdding.contains(">Katie</span>"))
        #expect(afterPhoto.contains("src=\"people/\(katie.recordID.rawValue)/photo\""))
    }

    @Test func aNewSortOrderInTheStoresSettingsShowsOnTheNextLoad() throws {
        let books = try ServedBooks()
        let book = try books.alice.openBook()
        for (first, last) in [("Anna", "Zimmer"), ("Zoe", "Abbott")] {
            let person = Person()
            person.firstName = first
            person.lastName = last
            try book.add(person)
        }
        try book.save()
        let browser = WebBrowser(books)
        browser.signIn("alice")
        let byLastName = text(browser.send("GET", "/web/books/contacts/"))

        book.sortOrdering = .firstName
        try book.save()
        let byFirstName = text(browser.send("GET", "/web/books/contacts/"))

        let order = { (page: String) in ["Anna", "Zoe"].sorted { (page.range(of: $0)?.lowerBound ?? page.endIndex) < (page.range(of: $1)?.lowerBound ?? page.endIndex) } }
        #expect(order(byLastName) == ["Zoe", "Anna"])
        #expect(order(byFirstName) == ["Anna", "Zoe"])
    }
}
