import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV
import PlainContactsSystem

/// The read-only JSON API beside the web pages: a book's people a page at a time, searched as
/// the pages search, and a person as `contacts show --json` prints them, with the pages'
/// sessions and grants.
@Suite struct WebJSONTests {
    /// A browser signed in as Alice, whose book holds Katie Bell, in the group Chasers, and
    /// `others` people more.
    private func book(others: Int = 0) throws -> (WebBrowser, Person) {
        let books = try ServedBooks()
        let book = try books.alice.openBook()
        let katie = Person()
        katie.firstName = "Katie"
        katie.lastName = "Bell"
        katie.phones = MultiValue([("+1 555 0100", .mobile)])
        katie.emails = MultiValue([("katie@example.com", .work)])
        try book.add(katie)
        for number in 0..<others {
            let other = Person()
            other.firstName = "Filler"
            other.lastName = "Zz\(1000 + number)"
            try book.add(other)
        }
        let chasers = Group()
        chasers.name = "Chasers"
        try book.add(chasers)
        try book.save()
        try chasers.addMember(katie)
        try book.save()
        let browser = WebBrowser(books)
        browser.signIn("alice")
        return (browser, katie)
    }

    /// The JSON object of an answer.
    private func object(_ response: HTTPServerResponse) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    @Test func thePeopleComeAPageAtATimeWithTheirCountAndTheNextPage() throws {
        let (browser, katie) = try book(others: 204)

        let first = browser.send("GET", "/web/books/contacts/people.json")
        let firstPage = try object(first)
        let next = try #require(firstPage["next"] as? String)
        let second = try object(browser.send("GET", next))

        #expect(first.status == 200)
        #expect(first.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(first.headers["X-Content-Type-Options"] == "nosniff")
        #expect(firstPage["count"] as? Int == 205)
        #expect(firstPage["pages"] as? Int == 2)
        #expect((firstPage["people"] as? [Any])?.count == 200)
        #expect(next == "/web/books/contacts/people.json?page=2")
        let people = try #require(firstPage["people"] as? [[String: Any]])
        let first0 = try #require(people.first)
        #expect(first0["name"] as? String == "Katie Bell")
        #expect(first0["id"] as? Int == Int(katie.recordID.rawValue))
        #expect(first0["phone"] as? String == "+1 555 0100")
        #expect(first0["email"] as? String == "katie@example.com")
        #expect(first0["url"] as? String == "/web/books/contacts/people/\(katie.recordID.rawValue).json")
        #expect(second["page"] as? Int == 2)
        #expect((second["people"] as? [Any])?.count == 5)
        #expect(second["next"] == nil)
    }

    @Test func aSearchAndAGroupNarrowTheListAsOnThePages() throws {
        let (browser, _) = try book(others: 3)
        let group = try #require(try browser.books.alice.openBook().groups(named: "Chasers").first).recordID.rawValue

        let found = try object(browser.send("GET", "/web/books/contacts/people.json?q=kat%20be"))
        let members = try object(browser.send("GET", "/web/books/contacts/people.json?group=\(group)"))
        let nobody = try object(browser.send("GET", "/web/books/contacts/people.json?q=nobody"))

        #expect((found["people"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Katie Bell"])
        #expect((members["people"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Katie Bell"])
        #expect(nobody["count"] as? Int == 0)
        #expect((nobody["people"] as? [Any])?.isEmpty == true)
    }

    @Test func aPersonIsTheirShowJSON() throws {
        let (browser, katie) = try book()

        let response = browser.send("GET", "/web/books/contacts/people/\(katie.recordID.rawValue).json")
        let person = try object(response)

        #expect(response.status == 200)
        #expect(person["compositeName"] as? String == "Katie Bell")
        #expect(person["groups"] as? [String] == ["Chasers"])
        #expect((person["phones"] as? [[String: Any]])?.first?["value"] as? String == "+1 555 0100")
        #expect(person["hasImage"] as? Bool == false)
        let book = try browser.books.alice.openBook()
        let shown = PersonJSONView.json(of: try #require(book.person(withID: katie.recordID)), in: book)
        #expect(response.body == CanonicalJSON.encode(shown))
    }

    @Test func aBookNotGrantedIsNotFoundAndASessionIsRequired() throws {
        let (browser, katie) = try book()
        let id = katie.recordID.rawValue

        let otherBook = browser.send("GET", "/web/books/bob/people.json")
        let otherPerson = browser.send("GET", "/web/books/bob/people/\(id).json")
        let nobody = browser.send("GET", "/web/books/contacts/people/999999.json")
        let stranger = WebBrowser(browser.books)
        let unsigned = stranger.send("GET", "/web/books/contacts/people.json")
        let unsignedPerson = stranger.send("GET", "/web/books/contacts/people/\(id).json")
        let bob = WebBrowser(browser.books)
        bob.signIn("bob")
        let readOnly = bob.send("GET", "/web/books/family/people.json")
        let notBobs = bob.send("GET", "/web/books/contacts/people/\(id).json")

        #expect(otherBook.status == 404)
        #expect(try object(otherBook)["error"] as? String == "there is no such book")
        #expect(otherPerson.status == 404)
        #expect(nobody.status == 404)
        #expect(unsigned.status == 401)
        #expect(unsignedPerson.status == 401)
        #expect(readOnly.status == 200)
        #expect(notBobs.status == 404)
        #expect(!text(notBobs).contains("Katie"))
    }
}
