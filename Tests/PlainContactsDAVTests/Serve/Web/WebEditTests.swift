import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// Editing and adding people on the web pages: one save through the book's writer, a conflict
/// shown rather than overwritten, problems beside their fields, read-only grants refused.
@Suite struct WebEditTests {
    /// Katie Bell with a mobile phone in Alice's book, and a browser signed in as `user`.
    private func katie(signedInAs user: String = "alice") throws -> (WebBrowser, Person, String) {
        let books = try ServedBooks()
        let book = try books.alice.openBook()
        let person = Person()
        person.firstName = "Katie"
        person.lastName = "Bell"
        person.phones = MultiValue([("+1 555 0100", .mobile)])
        try book.add(person)
        try book.save()
        let browser = WebBrowser(books)
        browser.signIn(user)
        return (browser, person, "/web/books/contacts/people/\(person.recordID.rawValue)")
    }

    /// The form's fields as the page at `target` fills them, to send back changed: as a
    /// browser sends them, boxes only when ticked, no file chosen, no button.
    private func fields(of browser: WebBrowser, at target: String) -> [(String, String)] {
        let page = text(browser.send("GET", target))
        var fields: [(String, String)] = []
        for tag in page.components(separatedBy: "<input").dropFirst() {
            guard let name = attribute("name", in: tag) else { continue }
            let head = tag.prefix { $0 != ">" }
            if head.contains("type=\"file\"") || (head.contains("type=\"checkbox\"") && !head.contains(" checked")) { continue }
            fields.append((name, attribute("value", in: tag) ?? ""))
        }
        for tag in page.components(separatedBy: "<textarea").dropFirst() {
            guard let name = attribute("name", in: tag), let close = tag.range(of: "</textarea>"), let open = tag.firstIndex(of: ">") else { continue }
            fields.append((name, String(tag[tag.index(after: open)..<close.lowerBound])))
        }
        return fields
    }

    private func attribute(_ name: String, in tag: String) -> String? {
        guard let start = tag.range(of: " \(name)=\"")?.upperBound else { return nil }
        return String(tag[start...].prefix { $0 != "\"" })
    }

    private func setting(_ fields: [(String, String)], _ name: String, _ value: String) -> [(String, String)] {
        fields.map { $0.0 == name ? ($0.0, value) : $0 }
    }

    @Test func editingAPhoneSavesThePersonAndKeepsTheValuesIdentifier() throws {
        let (browser, person, page) = try katie()
        var form = fields(of: browser, at: page + "/edit")
        form = setting(form, "phones.0.value", "+1 555 0199")
        form = setting(form, "phones.1.label", "work")
        form = setting(form, "phones.1.value", "+1 555 0123")
        form = setting(form, "jobTitle", "Chaser")

        let saved = browser.send("POST", page + "/edit", form: form)

        #expect(saved.status == 303)
        #expect(saved.headers["Location"] == page)
        let stored = try #require(try browser.books.alice.openBook().person(withID: person.recordID))
        #expect(stored.phones.values == ["+1 555 0199", "+1 555 0123"])
        #expect(stored.phones.identifier(at: 0) == person.phones.identifier(at: 0))
        #expect(stored.phones.label(at: 1) == .work)
        #expect(stored.jobTitle == "Chaser")
        #expect(text(browser.send("GET", page)).contains("+1 555 0199"))
    }

    @Test func emptyingAValueRemovesItsRow() throws {
        let (browser, person, page) = try katie()
        let form = setting(fields(of: browser, at: page + "/edit"), "phones.0.value", "")

        #expect(browser.send("POST", page + "/edit", form: form).status == 303)

        #expect(try browser.books.alice.openBook().person(withID: person.recordID)?.phones.isEmpty == true)
    }

    @Test func aPersonChangedMeanwhileIsShownBesideTheFormAndNotOverwritten() throws {
        let (browser, person, page) = try katie()
        let form = setting(fields(of: browser, at: page + "/edit"), "note", "mine")
        // Someone else changes Katie through the store meanwhile.
        let other = try browser.books.alice.openBook()
        try #require(other.person(withID: person.recordID)).note = "theirs"
        try other.save()

        let conflict = browser.send("POST", page + "/edit", form: form)

        #expect(conflict.status == 409)
        #expect(text(conflict).contains("Changed while you edited"))
        #expect(text(conflict).contains("<dd>theirs</dd>"))
        #expect(text(conflict).contains(">mine</textarea>"))
        #expect(try browser.books.alice.openBook().person(withID: person.recordID)?.note == "theirs")

        // Saving again from the conflict's form (based on their version) puts the user's in place.
        let again = fields(of: browser, at: page + "/edit").first { $0.0 == "etag" }
        let resent = setting(form, "etag", try #require(again).1)
        #expect(browser.send("POST", page + "/edit", form: resent).status == 303)
        #expect(try browser.books.alice.openBook().person(withID: person.recordID)?.note == "mine")
    }

    @Test func aBadBirthdayIsShownBesideItsFieldAndNothingIsSaved() throws {
        let (browser, person, page) = try katie()
        let form = setting(setting(fields(of: browser, at: page + "/edit"), "birthday", "31/02/1990"), "jobTitle", "Chaser")

        let refused = browser.send("POST", page + "/edit", form: form)

        #expect(refused.status == 422)
        #expect(text(refused).contains("<p class=\"error\" id=\"birthday-problem\">Write the date as YYYY-MM-DD"))
        #expect(text(refused).contains("value=\"31/02/1990\""))
        #expect(try browser.books.alice.openBook().person(withID: person.recordID)?.jobTitle == nil)
    }

    @Test func aNewPersonIsAddedFromTheEmptyForm() throws {
        let (browser, _, _) = try katie()
        var form = fields(of: browser, at: "/web/books/contacts/new")
        form = setting(setting(form, "firstName", "Åsa"), "lastName", "Öberg")
        form = setting(setting(form, "emails.0.value", "asa@example.se"), "emails.0.label", "home")

        let added = browser.send("POST", "/web/books/contacts/new", form: form)

        #expect(added.status == 303)
        let book = try browser.books.alice.openBook()
        let asa = try #require(book.people(matchingName: "asa").first)
        #expect(asa.emails.values == ["asa@example.se"])
        #expect(added.headers["Location"] == "/web/books/contacts/people/\(asa.recordID.rawValue)")
    }

    @Test func anUnknownSenderIsOfferedAsANewPersonOrAnAddressForSomeoneAlreadyThere() throws {
        let (browser, katie, page) = try katie()

        let offered = text(browser.send("GET", "/web/books/contacts/new?email=kb%40example.org&name=Katie+Bell"))
        let toKatie = "people/\(katie.recordID.rawValue)/edit?email=kb%40example.org"

        #expect(offered.contains("name=\"firstName\" value=\"Katie\""))
        #expect(offered.contains("name=\"lastName\" value=\"Bell\""))
        #expect(offered.contains("name=\"emails.0.value\" value=\"kb@example.org\""))
        #expect(offered.contains("<a href=\"\(toKatie)\">Katie Bell"))

        // Adding the address to Katie: her form holds it in a row of its own, saved as it is.
        let form = fields(of: browser, at: "/web/books/contacts/" + toKatie)
        #expect(form.contains { $0.0 == "emails.0.value" && $0.1 == "kb@example.org" })
        #expect(browser.send("POST", page + "/edit", form: form).status == 303)
        #expect(try browser.books.alice.openBook().person(withID: katie.recordID)?.emails.values == ["kb@example.org"])
    }

    @Test func aReadOnlyGrantShowsNoEditControlAndItsWritesAreRefused() throws {
        let books = try ServedBooks()
        let family = try books.family.openBook()
        let person = Person()
        person.firstName = "Gran"
        try family.add(person)
        try family.save()
        let bob = WebBrowser(books)
        bob.signIn("bob")
        let page = "/web/books/family/people/\(person.recordID.rawValue)"
        let token = try bob.formToken(on: page)

        let shown = text(bob.send("GET", page))
        let list = text(bob.send("GET", "/web/books/family/"))
        let form = bob.send("GET", page + "/edit")
        let forged = bob.send("POST", page + "/edit", form: [(WebForm.tokenField, token), ("note", "forged")])

        #expect(!shown.contains("/edit\">Edit</a>"))
        #expect(!list.contains("New person"))
        #expect(form.status == 403)
        #expect(forged.status == 403)
        #expect(try books.family.openBook().person(withID: person.recordID)?.note == nil)
    }

    @Test func aPhotoIsUploadedWithTheFormAndAnSVGIsRefusedBesideTheField() throws {
        let (browser, person, page) = try katie()
        let form = fields(of: browser, at: page + "/edit")
        let svg = Data("<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>".utf8)
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])

        let refused = browser.sendMultipart(page + "/edit", fields: setting(form, "jobTitle", "Chaser"), files: [.init(field: "photo", name: "x.svg", type: "image/svg+xml", data: svg)])
        let saved = browser.sendMultipart(page + "/edit", fields: form, files: [.init(field: "photo", name: "k.png", type: "image/png", data: png)])

        #expect(refused.status == 422)
        #expect(text(refused).contains("<p class=\"error\" id=\"photo-problem\">The photo must be a JPEG, PNG, GIF or WebP image.</p>"))
        #expect(saved.status == 303)
        let stored = try #require(try browser.books.alice.openBook().person(withID: person.recordID))
        #expect(try stored.imageData() == png)
        #expect(stored.jobTitle == nil)
        #expect(text(browser.send("GET", page + "/edit")).contains("name=\"photo.remove\""))

        let removed = browser.send("POST", page + "/edit", form: fields(of: browser, at: page + "/edit") + [("photo.remove", "1")])
        #expect(removed.status == 303)
        #expect(try browser.books.alice.openBook().person(withID: person.recordID)?.hasImage == false)
    }

    @Test func aMoveButtonShowsTheFormAgainReorderedAndSavesNothingUntilSave() throws {
        let (browser, person, page) = try katie()
        var form = setting(fields(of: browser, at: page + "/edit"), "phones.1.value", "+1 555 0123")

        let moved = browser.send("POST", page + "/edit", form: form + [("action", "move:phones.1.up")])

        #expect(moved.status == 200)
        let shown = text(moved)
        let first = try #require(shown.range(of: "value=\"+1 555 0123\"")).lowerBound
        let second = try #require(shown.range(of: "value=\"+1 555 0100\"")).lowerBound
        #expect(first < second)
        #expect(try browser.books.alice.openBook().person(withID: person.recordID)?.phones.values == ["+1 555 0100"])

        form = [("phones.0.id", ""), ("phones.0.value", "+1 555 0123"), ("phones.1.id", "\(person.phones.identifier(at: 0).rawValue)"),
            ("phones.1.label", "mobile"), ("phones.1.value", "+1 555 0100")] + form.filter { !$0.0.hasPrefix("phones.") }
        #expect(browser.send("POST", page + "/edit", form: form + [("action", "save")]).status == 303)
        let stored = try #require(try browser.books.alice.openBook().person(withID: person.recordID))
        #expect(stored.phones.values == ["+1 555 0123", "+1 555 0100"])
        #expect(stored.phones.identifier(at: 1) == person.phones.identifier(at: 0))
    }
}
