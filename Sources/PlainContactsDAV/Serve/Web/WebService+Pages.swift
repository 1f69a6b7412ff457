#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts
import PlainContactsSystem

/// The pages: functions from what was asked and the store to HTML.
extension WebService {
    /// The sign-in form, with `message` above it after a failed try.
    func signInPage(status: Int, message: String?) -> HTTPServerResponse {
        var body = "<h1>Sign in</h1>\n"
        if let message { body += "<p class=\"error\" role=\"alert\">\(WebHTML.escaped(message))</p>\n" }
        body += """
            <form method="post" action="/web/signin">
            <label for="user">User name</label>
            <input type="text" id="user" name="user" autocomplete="username" autocapitalize="none" required autofocus>
            <label for="password">Password</label>
            <input type="password" id="password" name="password" autocomplete="current-password" required>
            <p><button type="submit">Sign in</button></p>
            </form>
            """
        return Self.page(status, "Sign in", signed: nil, body)
    }

    /// The books the user is granted, in the order of the grants.
    func booksPage(_ books: [CardDAVService.Target], signed: WebHTML.Signed) -> HTTPServerResponse {
        var body = "<h1>Address books</h1>\n"
        if books.isEmpty { body += "<p>No address book is shared with you.</p>\n" }
        body += "<ul class=\"books\">\n"
        for target in books {
            let access = target.access == .read ? " <span class=\"muted\">(read only)</span>" : ""
            body += "<li><a href=\"\(WebHTML.escaped(Self.bookPath(target.book.name)))\">\(WebHTML.escaped(target.book.displayName))</a>\(access)</li>\n"
        }
        body += "</ul>"
        return Self.page(200, "Address books", signed: signed, body)
    }

    /// A book's people in its sort order, or those whose names match the query `q`; with
    /// `list=1` only the list, which the script puts in place as the user types.
    func peoplePage(_ target: CardDAVService.Target, query: WebForm, signed: WebHTML.Signed) -> HTTPServerResponse {
        let words = query["q"] ?? ""
        let read: WebListingCache.Read
        do {
            read = try listing(target, query: query)
        } catch {
            return Self.page(500, "Cannot read the book", signed: signed, "<h1>Cannot read the book</h1>\n<p>The server log says why.</p>")
        }
        let (groups, chosen, withPhotos) = (read.groups, read.chosen, read.withPhotos)
        let page = Self.peopleList(read, query: query)
        let list = page.html(withPhotos: withPhotos)
        if query["list"] == "1" {
            return HTTPServerResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: Data(list.utf8))
        }
        let title = target.book.displayName
        var body = "<h1>\(WebHTML.escaped(title))</h1>\n"
        body += "<p class=\"actions\">"
        if target.access == .readWrite { body += "<a href=\"new\">New person</a> <a href=\"import\">Import a file</a> " }
        body += "<a href=\"groups/\">Groups</a> <a href=\"export.vcf\" download>Download as vCard</a> "
        body += "<a href=\"export.csv\" download>Download as CSV</a> <a href=\"duplicates/\">Duplicates</a> "
        body += "<a href=\"removed/\">Removed people</a></p>\n"
        body += """
            <form class="search" method="get" action="\(WebHTML.escaped(Self.bookPath(target.book.name)))" role="search">
            <label for="q">Search by name</label>
            <input type="search" id="q" name="q" value="\(WebHTML.escaped(words))" autocomplete="off">

            """
        if !groups.isEmpty {
            body += "<label for=\"group\">Group</label><select id=\"group\" name=\"group\"><option value=\"\">Everyone</option>"
            for (id, name) in groups {
                let selected = id == chosen ? " selected" : ""
                body += "<option value=\"\(id.rawValue)\"\(selected)>\(WebHTML.escaped(name))</option>"
            }
            body += "</select> <button type=\"submit\">Show</button>\n"
        }
        body += """
            </form>

            """
        body += list
        return Self.page(200, title, signed: signed, body)
    }

    /// The page of `read` that `query` asks for (`page`), its links keeping the words
    /// searched and the group chosen.
    static func peopleList(_ read: WebListingCache.Read, query: WebForm) -> WebPeopleList {
        let words = query["q"] ?? ""
        var kept: [String] = []
        if words.contains(where: { !$0.isWhitespace }) { kept.append("q=" + WebForm.encoded(words)) }
        if let chosen = read.chosen { kept.append("group=\(chosen.rawValue)") }
        return WebPeopleList(rows: read.rows, page: query["page"].flatMap { Int($0) } ?? 1, query: kept.joined(separator: "&"))
    }
    /// A person's page: every property with its label, the groups, a link to the card.
    func personPage(_ target: CardDAVService.Target, id: String, signed: WebHTML.Signed) -> HTTPServerResponse {
        guard let (book, person) = Self.person(id, in: target) else { return Self.notFound(signed) }
        let name = person.compositeName ?? "(no name)"
        var body = "<p><a href=\"../\">← \(WebHTML.escaped(target.book.displayName))</a></p>\n"
        if person.hasImage, let data = try? person.imageData(), Self.imageType(of: data) != nil {
            body += "<img class=\"photo\" src=\"\(person.recordID.rawValue)/photo\" alt=\"Photo of \(WebHTML.escaped(name))\" width=\"96\" height=\"96\">\n"
        }
        let reading = [person.lastNamePhonetic, person.middleNamePhonetic, person.firstNamePhonetic].compactMap { $0 }.joined(separator: " ")
        body += "<h1\(WebNameLanguage.attribute(of: name, reading: reading))>\(WebNameLanguage.nameHTML(of: person))</h1>\n<dl class=\"person\">\n"
        for (field, value) in WebPersonFields.rows(of: person, groups: book.groups(containing: person).compactMap(\.name)) {
            body += "<dt>\(WebHTML.escaped(field))</dt><dd>\(value)</dd>\n"
        }
        body += "</dl>\n<p class=\"actions\">"
        if target.access == .readWrite {
            body += "<a href=\"\(person.recordID.rawValue)/edit\">Edit</a> <a href=\"\(person.recordID.rawValue)/remove\">Remove</a> "
        }
        body += "<a href=\"\(person.recordID.rawValue)/history\">History</a> "
        body += "<a href=\"\(person.recordID.rawValue).vcf\" download>Download as vCard</a></p>"
        return Self.page(200, name, signed: signed, body)
    }

    /// A person's vCard 3.0, to download.
    func personCard(_ target: CardDAVService.Target, id: String, signed: WebHTML.Signed) -> HTTPServerResponse {
        guard let (book, person) = Self.person(id, in: target), let card = try? book.exportVCards([person]) else {
            return Self.notFound(signed)
        }
        var response = HTTPServerResponse(status: 200, headers: ["Content-Type": "text/vcard; charset=utf-8"], body: Data(card.utf8))
        response.headers.append("Content-Disposition", "attachment; filename=\"person-\(person.recordID.rawValue).vcf\"")
        return response
    }

    /// The person with the record ID `id` in the target's book, and the book.
    static func person(_ id: String, in target: CardDAVService.Target) -> (AddressBook, Person)? {
        guard let number = Int32(id), number > 0, let book = try? AddressBook(url: target.book.layout.root),
            let person = book.person(withID: RecordID(number))
        else { return nil }
        return (book, person)
    }
}
