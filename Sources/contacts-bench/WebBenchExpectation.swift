import DAVTestSupport
import Foundation
import PlainContacts

/// What the web pages must answer for ``WebBench``, read from the store with the library
/// before the server starts: how many people the list and each search hold, and so how many
/// lines each page shows.
///
/// ```swift
/// let expected = try WebBenchExpectation(store: store)
/// try expected.checkList(answer, page: 1, of: expected.everyone, "the first page")
/// ```
struct WebBenchExpectation {
    /// The people a page of the list shows, as the pages send them (`WebPeopleList.pageSize`).
    static let pageSize = 200

    /// A list of people the pages show page by page.
    struct Listing {
        /// The people in it.
        var count: Int

        /// Its pages; one when it is empty.
        var pages: Int { max(1, (count + WebBenchExpectation.pageSize - 1) / WebBenchExpectation.pageSize) }

        /// The lines page `page` (from 1) shows.
        func lines(onPage page: Int) -> Int {
            min(WebBenchExpectation.pageSize, max(0, count - (page - 1) * WebBenchExpectation.pageSize))
        }
    }

    /// Everyone, in the book's order.
    var everyone: Listing
    /// The people the search with many matches finds.
    var many: Listing
    /// The words of the search with few matches: the name of the person halfway down the list.
    var fewWords: String
    /// The people the search with few matches finds.
    var few: Listing
    /// The record ID of the first person listed, whom the change is made to.
    var firstID: String

    /// Reads the store at `store`.
    ///
    /// - Throws: the library's errors opening the store; ``ContactsError/Code/io`` when it
    ///   holds nobody with a name.
    init(store: URL) throws {
        let book = try AddressBook(url: store)
        let rows = book.listing()
        guard let first = rows.first,
            let named = rows[(rows.count / 2)...].first(where: { $0.compositeName != nil }) ?? rows.first(where: { $0.compositeName != nil }),
            let name = named.compositeName
        else { throw ContactsError(.io, "the generated store holds nobody with a name") }
        everyone = Listing(count: rows.count)
        many = Listing(count: book.listing(matchingName: WebBench.manyMatches).count)
        fewWords = name
        few = Listing(count: book.listing(matchingName: name).count)
        firstID = String(first.recordID.rawValue)
    }

    /// The page of the list that sits in its middle (the second of two).
    var middlePage: Int { min(everyone.pages, max(2, (everyone.pages + 1) / 2)) }

    /// Checks that `answer` is page `page` of `listing`: status 200, the count of people it
    /// says it holds, and as many lines as that page has.
    ///
    /// - Throws: ``ContactsError/Code/io`` naming `what` and what differs.
    func checkList(_ answer: RawHTTPConnection.Response, page: Int, of listing: Listing, _ what: String) throws {
        guard answer.status == 200 else { throw ContactsError(.io, "\(what) answered \(answer.status) instead of 200") }
        let text = answer.text
        let counted = Self.countShown(in: text)
        guard counted == listing.count else {
            throw ContactsError(.io, "\(what) says it holds \(counted.map(String.init) ?? "no count of") people instead of \(listing.count)")
        }
        let lines = text.components(separatedBy: "<li><a href=\"people/").count - 1
        guard lines == listing.lines(onPage: page) else {
            throw ContactsError(.io, "\(what) lists \(lines) people instead of \(listing.lines(onPage: page))")
        }
        if listing.pages > 1, !text.contains("Page \(page) of \(listing.pages)") {
            throw ContactsError(.io, "\(what) is not page \(page) of \(listing.pages)")
        }
    }

    /// Checks that `answer` is the JSON API's first page of everyone.
    ///
    /// - Throws: ``ContactsError/Code/io`` naming what differs.
    func checkJSON(_ answer: RawHTTPConnection.Response) throws {
        guard answer.status == 200 else { throw ContactsError(.io, "people.json answered \(answer.status) instead of 200") }
        let object = try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        let count = object?["count"] as? Int
        let people = (object?["people"] as? [Any])?.count
        guard count == everyone.count, people == everyone.lines(onPage: 1) else {
            throw ContactsError(
                .io, "people.json holds \(count.map(String.init) ?? "no count of") people and lists \(people ?? 0) "
                    + "instead of \(everyone.count) and \(everyone.lines(onPage: 1))")
        }
    }

    /// The number in the list's count line (`<p class="count …">10000 people`).
    static func countShown(in html: String) -> Int? {
        guard let count = html.range(of: "class=\"count"),
            let close = html[count.upperBound...].firstIndex(of: ">")
        else { return nil }
        return Int(html[html.index(after: close)...].prefix { $0.isNumber })
    }
}
