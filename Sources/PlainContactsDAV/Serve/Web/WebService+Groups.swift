#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts

/// Groups on the web pages: the list, a group's page with its members, and the changes (create,
/// rename, remove, add and remove members), each one save through the book's writer
/// (``CardDAVWriter/changeGroup(withKey:summary:client:_:)``).
extension WebService {
    /// `GET …/groups/`: the groups with how many members each has; the form that creates one.
    func groupsPage(_ target: CardDAVService.Target, signed: WebHTML.Signed, problem: String? = nil) -> HTTPServerResponse {
        guard let book = try? AddressBook(url: target.book.layout.root) else { return Self.unreadable(signed) }
        var body = "<p><a href=\"../\">← \(WebHTML.escaped(target.book.displayName))</a></p>\n<h1>Groups</h1>\n<ul class=\"books\">\n"
        for group in book.allGroups() {
            let count = group.members().count
            body += "<li><a href=\"\(group.recordID.rawValue)\">\(WebHTML.escaped(group.name ?? "(no name)"))"
            body += "<span class=\"detail\">\(count) \(count == 1 ? "member" : "members")</span></a></li>\n"
        }
        body += "</ul>\n"
        if target.access == .readWrite {
            body += "<form method=\"post\" action=\"./\">" + WebHTML.tokenField(signed.formToken)
            body += nameField(value: "", problem: problem) + "<p><button type=\"submit\">Create group</button></p></form>"
        }
        return Self.page(problem == nil ? 200 : 422, "Groups", signed: signed, body)
    }

    /// `GET …/groups/ID`: the group's members, and for a book the user may change, the forms
    /// that rename it, remove it, and add (found by name with `?find=`) or remove members.
    func groupPage(_ target: CardDAVService.Target, id: String, find: String?, signed: WebHTML.Signed) -> HTTPServerResponse {
        guard let book = try? AddressBook(url: target.book.layout.root) else { return Self.unreadable(signed) }
        guard let number = Int32(id), let group = book.group(withID: RecordID(number)) else { return Self.notFound(signed) }
        let name = group.name ?? "(no name)"
        let canChange = target.access == .readWrite
        let token = WebHTML.tokenField(signed.formToken)
        var body = "<p><a href=\"./\">← Groups</a></p>\n<h1>\(WebHTML.escaped(name))</h1>\n"
        let members = book.sorted(group.members(), by: book.sortOrdering)
        body += "<h2>Members</h2>\n<ul class=\"people\">\n"
        for person in members {
            body += "<li><a href=\"../people/\(person.recordID.rawValue)\">\(WebHTML.escaped(person.compositeName ?? "(no name)"))</a>"
            if canChange {
                body += "<form method=\"post\" action=\"\(group.recordID.rawValue)/members/remove\">\(token)"
                body += "<input type=\"hidden\" name=\"person\" value=\"\(person.recordID.rawValue)\">"
                body += "<button type=\"submit\" aria-label=\"Remove \(WebHTML.escaped(person.compositeName ?? "this person")) from the group\">Remove</button></form>"
            }
            body += "</li>\n"
        }
        body += "</ul>\n"
        guard canChange else { return Self.page(200, name, signed: signed, body) }
        body += "<h2>Add people</h2>\n<form method=\"get\" action=\"\(group.recordID.rawValue)\" role=\"search\">"
        body += "<label for=\"find\">Find by name</label><input type=\"search\" id=\"find\" name=\"find\" value=\"\(WebHTML.escaped(find ?? ""))\"></form>\n"
        if let find, find.contains(where: { !$0.isWhitespace }) {
            let inGroup = Set(members.map(\.recordID))
            let found = book.listing(matchingName: find).filter { !inGroup.contains($0.recordID) }.prefix(50)
            if found.isEmpty { body += "<p class=\"muted\">Nobody else is called that.</p>\n" }
            body += "<ul class=\"people\">\n"
            for row in found {
                body += "<li>\(WebHTML.escaped(row.compositeName ?? "(no name)"))"
                body += "<form method=\"post\" action=\"\(group.recordID.rawValue)/members/add\">\(token)"
                body += "<input type=\"hidden\" name=\"person\" value=\"\(row.recordID.rawValue)\">"
                body += "<button type=\"submit\" aria-label=\"Add \(WebHTML.escaped(row.compositeName ?? "this person")) to the group\">Add</button></form></li>\n"
            }
            body += "</ul>\n"
        }
        body += "<h2>Rename</h2>\n<form method=\"post\" action=\"\(group.recordID.rawValue)/rename\">\(token)"
        body += nameField(value: name, problem: nil) + "<p><button type=\"submit\">Rename</button></p></form>\n"
        body += "<h2>Remove the group</h2>\n<form method=\"post\" action=\"\(group.recordID.rawValue)/remove\">\(token)"
        body += "<p>Its members stay in the book.</p><p><button type=\"submit\">Remove \(WebHTML.escaped(name))</button></p></form>"
        return Self.page(200, name, signed: signed, body)
    }

    /// `POST …/groups/` (create) and `POST …/groups/ID/ACTION` (`rename`, `remove`,
    /// `members/add`, `members/remove`).
    func changeGroup(_ target: CardDAVService.Target, path: [String], body: WebForm, session: WebSession) -> HTTPServerResponse {
        let signed = WebHTML.Signed(user: session.user, formToken: session.formToken)
        guard target.access == .readWrite else { return Self.readOnly(signed) }
        let groupsPath = Self.bookPath(target.book.name) + "groups/"
        let client = CardDAVWriter.Client(user: session.user)
        let name = (body["name"] ?? "").trimmingCharacters(in: .whitespaces)
        do {
            if path.isEmpty {
                guard !name.isEmpty else { return groupsPage(target, signed: signed, problem: "Give the group a name.") }
                let key = try target.book.writer.changeGroup(withKey: nil, summary: "create group \(name)", client: client) { _, book in
                    let group = Group()
                    group.name = name
                    try book.add(group)
                    return group
                }
                guard let group = try AddressBook(url: target.book.layout.root).group(forKey: key) else { return Self.notFound(signed) }
                return Self.redirect(to: groupsPath + "\(group.recordID.rawValue)")
            }
            guard let book = try? AddressBook(url: target.book.layout.root), let number = Int32(path[0]),
                let group = book.group(withID: RecordID(number)), let key = group.key
            else { return Self.notFound(signed) }
            let groupName = group.name ?? "a group without a name"
            let here = groupsPath + "\(group.recordID.rawValue)"
            switch Array(path.dropFirst()) {
            case ["rename"]:
                guard !name.isEmpty else { return groupPage(target, id: path[0], find: nil, signed: signed) }
                try target.book.writer.changeGroup(withKey: key, summary: "rename group \(groupName) to \(name)", client: client) { group, _ in
                    group?.name = name
                    return group
                }
                return Self.redirect(to: here)
            case ["remove"]:
                try target.book.writer.changeGroup(withKey: key, summary: "remove group \(groupName)", client: client) { group, book in
                    if let group { try book.remove(group) }
                    return nil
                }
                return Self.redirect(to: groupsPath)
            case ["members", "add"], ["members", "remove"]:
                guard let id = body["person"].flatMap(Int32.init), let person = book.person(withID: RecordID(id)), let personKey = person.key
                else { return Self.notFound(signed) }
                let adding = path[2] == "add"
                let who = person.compositeName ?? "a person without a name"
                let summary = adding ? "add \(who) to group \(groupName)" : "remove \(who) from group \(groupName)"
                try target.book.writer.changeGroup(withKey: key, summary: summary, client: client) { group, book in
                    guard let group, let member = try book.person(forKey: personKey) else { throw CardDAVFailure(status: 404) }
                    if adding { try group.addMember(member) } else { try group.removeMember(member) }
                    return group
                }
                return Self.redirect(to: here)
            default:
                return Self.notFound(signed)
            }
        } catch {
            return Self.page(500, "Not saved", signed: signed, "<h1>Not saved</h1>\n<p class=\"error\">\(WebHTML.escaped("\(error)"))</p>")
        }
    }

    /// The group name field, with its problem beside it.
    private func nameField(value: String, problem: String?) -> String {
        var html = "<label for=\"name\">Group name</label>"
        html += "<input type=\"text\" id=\"name\" name=\"name\" value=\"\(WebHTML.escaped(value))\" required"
        html += problem == nil ? ">" : " aria-invalid=\"true\" aria-describedby=\"name-problem\">"
        if let problem { html += "<p class=\"error\" id=\"name-problem\">\(WebHTML.escaped(problem))</p>" }
        return html
    }

    static func unreadable(_ signed: WebHTML.Signed) -> HTTPServerResponse {
        page(500, "Cannot read the book", signed: signed, "<h1>Cannot read the book</h1>\n<p>The server log says why.</p>")
    }
}
