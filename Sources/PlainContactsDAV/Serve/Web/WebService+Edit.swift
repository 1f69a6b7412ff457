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
    ///
    /// A link from a mail client or a web page can offer a sender (`…/new?email=…&name=…`): the
    /// new person's form is filled with them, and the people already called that are listed,
    /// each with a link that adds the address to them (`…/people/ID/edit?email=…`, whose form
    /// has the address in a blank row).
    func editPage(_ target: CardDAVService.Target, id: String?, offering query: WebForm, signed: WebHTML.Signed) -> HTTPServerResponse {
        guard target.access == .readWrite else { return Self.readOnly(signed) }
        let email = query["email"].map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        guard let id else {
            var form = WebPersonForm()
            if let name = query["name"], name.contains(where: { !$0.isWhitespace }) {
                let named = Person()
                named.setName(written: name)
                form = WebPersonForm(named)
            }
            if let email { form.rows[PropertyID.emails.key] = [WebPersonForm.Row(label: "", value: email)] }
            return formPage(target, person: nil, form: form, etag: nil, signed: signed, above: knownAs(query["name"], email: email, in: target))
        }
        guard let (_, person) = Self.person(id, in: target), let etag = etag(of: person, in: target) else {
            return Self.notFound(signed)
        }
        var form = WebPersonForm(person)
        if let email, !person.emails.values.contains(email) {
            form.rows[PropertyID.emails.key, default: []].append(WebPersonForm.Row(label: "", value: email))
        }
        return formPage(target, person: person, form: form, etag: etag, signed: signed)
    }

    /// The people already called `name`, each with a link that adds `email` to them instead.
    private func knownAs(_ name: String?, email: String?, in target: CardDAVService.Target) -> String {
        guard let name, let email, name.contains(where: { !$0.isWhitespace }),
            let book = try? AddressBook(url: target.book.layout.root)
        else { return "" }
        let known = book.listing(matchingName: name).prefix(20)
        guard !known.isEmpty else { return "" }
        var html = "<div class=\"known\"><p>Already in the book with that name? Add \(WebHTML.escaped(email)) to them instead:</p>\n<ul class=\"people\">\n"
        for row in known {
            let link = "people/\(row.recordID.rawValue)/edit?email=" + WebForm.encoded(email)
            html += "<li><a href=\"\(WebHTML.escaped(link))\">\(WebHTML.escaped(row.compositeName ?? "(no name)"))"
            if let first = row.firstEmail { html += "<span class=\"detail\">\(WebHTML.escaped(first))</span>" }
            html += "</a></li>\n"
        }
        return html + "</ul></div>\n"
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
        // A button other than Save changes the form and shows it again.
        if form.perform(body[WebPersonForm.actionField]) {
            return formPage(target, person: existing?.person, form: form, etag: body["etag"], signed: signed)
        }
        let edits: [PropertyEdit]
        do {
            edits = try form.edits(over: existing?.person)
        } catch {
            form.problems = error.byField
            var response = formPage(target, person: existing?.person, form: form, etag: body["etag"], signed: signed)
            response.status = 422
            return response
        }
        let client = CardDAVWriter.Client(user: session.user, userAgent: nil)
        let isNew = existing == nil
        let sent = form
        do {
            let key = try target.book.writer.edit(
                personWithKey: existing?.person.key, ifMatch: body["etag"], summary: { person in
                    "\(isNew ? "add" : "edit") \(person.compositeName ?? "a person without a name")"
                }, client: client
            ) { person in try sent.apply(edits, to: person) }
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
        body += "<form method=\"post\" action=\"\(WebHTML.escaped(action))\" class=\"person\" enctype=\"multipart/form-data\">\n"
        body += WebHTML.tokenField(signed.formToken)
        if let etag { body += "<input type=\"hidden\" name=\"etag\" value=\"\(WebHTML.escaped(etag))\">\n" }
        // The first button is the one Enter presses: Save, not a row's.
        body += "<p class=\"actions\"><button type=\"submit\" name=\"\(WebPersonForm.actionField)\" value=\"save\">Save</button></p>\n"
        let photoPath = person.flatMap { $0.hasImage ? "\(Self.bookPath(target.book.name))people/\($0.recordID.rawValue)/photo" : nil }
        body += form.fieldsHTML(photoPath: photoPath)
        let back = person.map { "\($0.recordID.rawValue)" }.map { "people/\($0)" } ?? ""
        body += "<p class=\"actions\"><button type=\"submit\" name=\"\(WebPersonForm.actionField)\" value=\"save\">Save</button> <a href=\"\(WebHTML.escaped(Self.bookPath(target.book.name) + back))\">Cancel</a></p>\n</form>"
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
