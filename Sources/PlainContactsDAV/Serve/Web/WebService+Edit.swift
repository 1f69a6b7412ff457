#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts

/// Editing and adding people: the form (``WebPersonForm``), its save through the book's writer
/// (``CardDAVWriter/edit(personWithKey:ifMatch:summary:client:_:)``: one save under the store's
/// lock, committed like a CardDAV client's change with `--commit`), and what a conflict shows.
extension WebService {
    /// `GET …/people/ID/edit` and `GET …/new`: the form, filled with the person's values.
    func editPage(_ target: CardDAVService.Target, id: String?, signed: WebHTML.Signed) -> HTTPServerResponse {
        guard target.access == .readWrite else { return Self.readOnly(signed) }
        guard let id else { return formPage(target, person: nil, form: WebPersonForm(), etag: nil, signed: signed) }
        guard let (_, person) = Self.person(id, in: target), let etag = etag(of: person, in: target) else {
            return Self.notFound(signed)
        }
        return formPage(target, person: person, form: WebPersonForm(person), etag: etag, signed: signed)
    }

    /// `POST …/people/ID/edit` and `POST …/new`: saves the form, then shows the person; shows
    /// the form again with each problem beside its field (422), or, when someone changed the
    /// person meanwhile, the person as saved now beside the form as the user filled it (409).
    func save(_ target: CardDAVService.Target, id: String?, body: WebForm, session: WebSession) -> HTTPServerResponse {
        let signed = WebHTML.Signed(user: session.user, formToken: session.formToken)
        guard target.access == .readWrite else { return Self.readOnly(signed) }
        var form = WebPersonForm(sent: body)
        var existing: (book: AddressBook, person: Person)?
        if let id {
            guard let found = Self.person(id, in: target) else { return Self.notFound(signed) }
            existing = found
        }
        let edits: [PropertyEdit]
        do {
            edits = try form.edits()
        } catch {
            form.problems = error.byField
            var response = formPage(target, person: existing?.person, form: form, etag: body["etag"], signed: signed)
            response.status = 422
            return response
        }
        let client = CardDAVWriter.Client(user: session.user, userAgent: nil)
        let isNew = existing == nil
        do {
            let key = try target.book.writer.edit(
                personWithKey: existing?.person.key, ifMatch: body["etag"], summary: { person in
                    "\(isNew ? "add" : "edit") \(person.compositeName ?? "a person without a name")"
                }, client: client
            ) { person in try person.apply(edits) }
            guard let person = try AddressBook(url: target.book.layout.root).person(forKey: key) else { return Self.notFound(signed) }
            return Self.redirect(to: Self.bookPath(target.book.name) + "people/\(person.recordID.rawValue)")
        } catch let conflict as CardDAVWriter.EditConflict {
            return conflictPage(target, id: id, form: form, etag: conflict.currentETag, signed: signed)
        } catch {
            return Self.page(500, "Not saved", signed: signed, "<h1>Not saved</h1>\n<p class=\"error\">The change could not be saved: \(WebHTML.escaped("\(error)"))</p>")
        }
    }

    /// The form page: the fields, the card's ETag the edit is based on, and the token.
    private func formPage(
        _ target: CardDAVService.Target, person: Person?, form: WebPersonForm, etag: String?, signed: WebHTML.Signed,
        above: String = ""
    ) -> HTTPServerResponse {
        let title = person.map { "Edit \($0.compositeName ?? "(no name)")" } ?? "New person"
        let action = person.map { "\(Self.bookPath(target.book.name))people/\($0.recordID.rawValue)/edit" }
            ?? Self.bookPath(target.book.name) + "new"
        var body = "<h1>\(WebHTML.escaped(title))</h1>\n" + above
        if !form.problems.isEmpty { body += "<p class=\"error\" role=\"alert\">Some fields need a change before the person can be saved.</p>\n" }
        body += "<form method=\"post\" action=\"\(WebHTML.escaped(action))\" class=\"person\">\n" + WebHTML.tokenField(signed.formToken)
        if let etag { body += "<input type=\"hidden\" name=\"etag\" value=\"\(WebHTML.escaped(etag))\">\n" }
        body += form.fieldsHTML()
        let back = person.map { "\($0.recordID.rawValue)" }.map { "people/\($0)" } ?? ""
        body += "<p class=\"actions\"><button type=\"submit\">Save</button> <a href=\"\(WebHTML.escaped(Self.bookPath(target.book.name) + back))\">Cancel</a></p>\n</form>"
        return Self.page(200, title, signed: signed, body)
    }

    /// Someone changed the person while the user edited: the person as saved now, then the
    /// form as the user filled it, based on the new version, to save over it or leave.
    private func conflictPage(
        _ target: CardDAVService.Target, id: String?, form: WebPersonForm, etag: String, signed: WebHTML.Signed
    ) -> HTTPServerResponse {
        guard let id, let (book, person) = Self.person(id, in: target) else { return Self.notFound(signed) }
        var above = "<div class=\"conflict\" role=\"alert\"><h2>Changed while you edited</h2>\n"
        above += "<p>Someone else saved this person after you opened the form. This is the person as saved now:</p>\n<dl class=\"person\">\n"
        for (field, value) in WebPersonFields.rows(of: person, groups: book.groups(containing: person).compactMap(\.name)) {
            above += "<dt>\(WebHTML.escaped(field))</dt><dd>\(value)</dd>\n"
        }
        above += "</dl>\n<p>Below is what you entered. <strong>Save</strong> puts your version in place of theirs; "
        above += "<a href=\"\(WebHTML.escaped(Self.bookPath(target.book.name)))people/\(person.recordID.rawValue)\">Keep theirs</a> leaves it as it is.</p></div>\n"
        var response = formPage(target, person: person, form: form, etag: etag, signed: signed, above: above)
        response.status = 409
        return response
    }

    /// The ETag of a person's card now.
    func etag(of person: Person, in target: CardDAVService.Target) -> String? {
        guard let key = person.key, let listing = try? target.book.collection.listing() else { return nil }
        let record = CardDAVEntry.Record(kind: .person, key: key)
        return listing.entries.values.first { $0.record == record }?.etag
    }

    /// What a read-only grant gets for a change: 403.
    static func readOnly(_ signed: WebHTML.Signed?) -> HTTPServerResponse {
        page(403, "Read only", signed: signed, "<h1>Read only</h1>\n<p>This address book is shared with you to read; it cannot be changed here.</p>")
    }
}
