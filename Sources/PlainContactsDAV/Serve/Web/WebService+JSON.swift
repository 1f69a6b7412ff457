#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts
import PlainContactsSystem

/// The read-only JSON API beside the pages, under the same prefix, sessions and grants: a
/// book's people list, a page at a time and searched as the pages search, and a person as
/// `contacts show --json` prints them (``PersonJSONView``). A book not granted is 404, as
/// for the pages; a request without a session is 401 instead of the sign-in page.
///
/// ```
/// GET /web/books/contacts/people.json?q=bel&page=1
/// {"count": 1, "page": 1, "pages": 1, "people": [{"id": 12, "name": "Katie Bell", …}], …}
/// ```
extension WebService {
    /// `GET …/people.json?q=&group=&page=`: a page of the book's people (``WebPeopleList/pageSize``
    /// of them) in its sort order, or of those whose names match `q`, or of a group's members:
    /// for each, the record ID, the composite name, the first phone and email, whether there is
    /// a photo and the address of the person's JSON; with the count of them all, the page, the
    /// number of pages and the address of the next page when there is one.
    func peopleJSON(_ target: CardDAVService.Target, query: WebForm) -> HTTPServerResponse {
        let read: WebListingCache.Read
        do {
            read = try listing(target, query: query)
        } catch {
            return Self.json(500, error: "the book cannot be read")
        }
        let list = Self.peopleList(read, query: query)
        let base = Self.bookPath(target.book.name)
        var people: [JSONValue] = []
        for row in list.shown {
            var fields: [String: JSONValue] = [
                "id": .number(JSONNumber(Int(row.recordID.rawValue))),
                "hasImage": .bool(read.withPhotos.contains(row.recordID)),
                "url": .string(base + "people/\(row.recordID.rawValue).json"),
            ]
            if let name = row.compositeName { fields["name"] = .string(name) }
            if let phone = row.firstPhone { fields["phone"] = .string(phone) }
            if let email = row.firstEmail { fields["email"] = .string(email) }
            people.append(.object(fields))
        }
        var answer: [String: JSONValue] = [
            "book": .string(target.book.name.rawValue),
            "count": .number(JSONNumber(list.rows.count)),
            "page": .number(JSONNumber(list.page)),
            "pages": .number(JSONNumber(list.lastPage)),
            "people": .array(people),
        ]
        if list.page < list.lastPage {
            answer["next"] = .string(base + "people.json?" + (list.query.isEmpty ? "" : list.query + "&") + "page=\(list.page + 1)")
        }
        return Self.json(200, .object(answer))
    }

    /// `GET …/people/ID.json`: the person as `contacts show --json` prints them.
    func personJSON(_ target: CardDAVService.Target, id: String) -> HTTPServerResponse {
        guard let (book, person) = Self.person(id, in: target) else { return Self.json(404, error: "there is no such person") }
        return Self.json(200, PersonJSONView.json(of: person, in: book))
    }

    /// An answer of the API: `value` as canonical JSON.
    static func json(_ status: Int, _ value: JSONValue) -> HTTPServerResponse {
        HTTPServerResponse(status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: CanonicalJSON.encode(value))
    }

    /// A refusal of the API: `{"error": …}`, saying why without personal data.
    static func json(_ status: Int, error: String) -> HTTPServerResponse {
        json(status, .object(["error": .string(error)]))
    }
}
