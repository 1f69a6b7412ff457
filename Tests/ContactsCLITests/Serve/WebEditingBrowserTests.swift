import DAVTestSupport
import Foundation
import TestTags
import Testing

/// Changing a book from the web pages in a real browser (headless Chromium over WebDriver), each
/// step checked in the store and in Git (`serve --commit`): a person added with several
/// properties, a group made and filled, a CSV file uploaded; a read-only user sees no edit
/// control and a forged write is refused; a form another origin posts is refused; a CardDAV
/// client's change and a web change to the same book both land. Screenshots at a phone's and a
/// desktop's width go under `.build/web-screenshots/`.
@Suite(.serialized) struct WebEditingBrowserTests {
    /// The WebDriver key that presses Enter.
    private static let enter = "\u{E007}"

    @Test(
        .tags(.slow), .slowTestsEnabled,
        .enabled(if: WebDriverBrowser.available || ProcessInfo.processInfo.environment["CI"] != nil, "\(WebDriverBrowser.installHint)"))
    func aBrowserAddsAPersonMakesAGroupUploadsAFileAndIsRefusedWhatItMayNotDo() throws {
        try #require(WebDriverBrowser.available, "\(WebDriverBrowser.installHint)")
        let book = try ServedBook()
        let browser = try WebDriverBrowser(profile: book.sandbox.temporary)
        defer { browser.quit() }
        let web = book.server.url.appending(path: "web/")
        let people = web.appending(path: "books/contacts/").absoluteString
        func webCommits(_ count: Int) throws -> [String] {
            try ServedBook.serveCommits(count: count) {
                try book.git.git(["log", "--format=%s"], in: book.sandbox.root).lines.filter { $0.hasPrefix("contacts: web: ") }
            }
        }
        try signIn(browser, at: web, ServedBook.user, ServedBook.password)

        // A new person with several properties, and what they typed that could be markup.
        try browser.go(to: people + "new")
        try browser.wait("the new person's form") { try browser.title == "New person" }
        try browser.type("Ann", into: "#firstName")
        try browser.type("Lee", into: "#lastName")
        try browser.type("<script>alert(1)</script>", into: "#note")
        try browser.type("+1 555 0142", into: "input[name='phones.0.value']")
        try browser.type("work", into: "input[name='phones.0.label']")
        try browser.type("ann@example.org", into: "input[name='emails.0.value']")
        try browser.type("javascript:alert(1)", into: "input[name='urls.0.value']")
        try browser.type("2015-06-01", into: "input[name='dates.0.value']")
        try browser.type("anniversary", into: "input[name='dates.0.label']")
        try browser.type("1 Main St", into: "textarea[name='addresses.0.street']")
        try browser.type("Springfield", into: "input[name='addresses.0.city']")
        try browser.type("@ann:example.org", into: "input[name='instantMessages.0.username']")
        try browser.type("Matrix", into: "input[name='instantMessages.0.service']")
        try browser.shoot("new-person")
        try browser.click("form.person button[value=save]")
        try browser.wait("Ann Lee's page") { try browser.text(of: "h1") == "Ann Lee" }
        #expect(try browser.count("a[href^='javascript:']") == 0)
        #expect(try browser.pageText.contains("<script>alert(1)</script>"))
        try browser.shoot("added-person")
        let ann = try book.sandbox.json(try book.id("Ann Lee"))
        #expect((ann["addresses"] as? [[String: Any]])?.first.flatMap { $0["value"] as? [String: Any] }?["city"] as? String == "Springfield")
        #expect((ann["dates"] as? [[String: Any]])?.first?["label"] as? String == "anniversary")
        #expect((ann["instantMessages"] as? [[String: Any]])?.count == 1)
        #expect(try webCommits(1) == ["contacts: web: add Ann Lee by \(ServedBook.user)"])

        // A group, made and filled.
        try browser.go(to: people + "groups/")
        try browser.type("Neighbours", into: "#name")
        try browser.click("main form button[type=submit]")
        try browser.wait("the group's page") { try browser.text(of: "h1") == "Neighbours" }
        try browser.type("Ann" + Self.enter, into: "#find")
        try browser.wait("Ann Lee found") { try browser.count("button[aria-label='Add Ann Lee to the group']") == 1 }
        try browser.click("button[aria-label='Add Ann Lee to the group']")
        try browser.wait("Ann Lee a member") { try browser.count("button[aria-label='Remove Ann Lee from the group']") == 1 }
        try browser.shoot("group")
        #expect(try book.sandbox.succeed(["list", "--group", "Neighbours"]).stdout.contains("Ann Lee"))
        #expect(try webCommits(3).prefix(2) == [
            "contacts: web: add Ann Lee to group Neighbours by \(ServedBook.user)", "contacts: web: create group Neighbours by \(ServedBook.user)",
        ])

        // A CSV file uploaded: its report, its people in the store, one commit.
        let csv = book.sandbox.temporary.appending(path: "friends.csv")
        try Data("First Name,Last Name,E-mail Address\nBea,Stone,bea@example.org\nKatie,Bell,katie@example.com\n".utf8).write(to: csv)
        try browser.go(to: people + "import")
        try browser.type(csv.path(percentEncoded: false), into: "#file")
        try browser.shoot("import")
        try browser.click("main form button[type=submit]")
        try browser.wait("the import's report") { try browser.text(of: "h1") == "Imported 2 people" }
        #expect(try browser.pageText.contains("1 added, 1 matched and merged"))
        try browser.shoot("import-report")
        #expect(try book.names().contains("Bea Stone"))
        #expect(try webCommits(4).first == "contacts: web: import 2 people from friends.csv by \(ServedBook.user)")

        // A form another site's page posts, even with a guessed token, is refused.
        let katie = try book.id("Katie Bell")
        let edit = people + "people/\(katie)/edit"
        let forged = "<form method=post action=\"\(edit)\"><input name=token value=guess><input name=note value=forged></form>"
            + "<script>document.forms[0].submit()</script>"
        try browser.go(to: "data:text/html," + (forged.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
        try browser.wait("the refusal") { try browser.pageText.contains("refused") }
        #expect(try !book.sandbox.succeed(["show", katie]).stdout.contains("forged"))

        // A CardDAV client's change and a web change to the same book, one after the other.
        let connection = RawHTTPConnection(port: book.server.port)
        defer { connection.close() }
        let credentials = Data("\(ServedBook.user):\(ServedBook.password)".utf8).base64EncodedString()
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:cardav-client-1\r\nN:Moss;Cy;;;\r\nFN:Cy Moss\r\nEND:VCARD\r\n"
        let put = try connection.send(
            "PUT", "/\(ServedBook.user)/contacts/cardav-client-1.vcf",
            headers: ["Authorization": "Basic \(credentials)", "Content-Type": "text/vcard", "If-None-Match": "*"], body: Data(card.utf8))
        #expect(put.status == 201)
        try browser.go(to: edit)
        try browser.wait("Katie Bell's form") { try browser.title == "Edit Katie Bell" }
        try browser.type("met at the fair", into: "#note")
        try browser.click("form.person button[value=save]")
        try browser.wait("Katie Bell's page") { try browser.text(of: "h1") == "Katie Bell" }
        #expect(try book.names().contains("Cy Moss"))
        #expect(try book.sandbox.succeed(["show", katie]).stdout.contains("met at the fair"))
        #expect(try webCommits(5).first == "contacts: web: edit Katie Bell by \(ServedBook.user)")
        #expect(try book.serveCommits(count: 1).first?.hasPrefix("contacts: serve: PUT by \(ServedBook.user)") == true)
        #expect(try !book.hasUncommittedChanges())

        // A read-only user: no edit control, and a write with their own token is refused.
        let added = try book.sandbox.run(["user", "add", "ro"], environment: ["CONTACTS_TEST_PASSWORD_ITERATIONS": "1000"], input: "ro-secret\n")
        try #require(added.status == 0, "\(added)")
        try book.sandbox.succeed(["user", "grant", "ro", "contacts", "--read-only"])
        try browser.go(to: web)
        try browser.click("header form button")
        try browser.wait("the sign-in page") { try browser.title == "Sign in" }
        try signIn(browser, at: web, "ro", "ro-secret")
        try browser.go(to: people)
        try browser.wait("the read-only list") { try browser.count("#people li") > 0 }
        #expect(try browser.count("a[href='new'], a[href='import']") == 0)
        try browser.shoot("read-only")
        try browser.go(to: people + "people/\(katie)")
        try browser.wait("Katie Bell's page, read only") { try browser.text(of: "h1") == "Katie Bell" }
        #expect(try browser.count("a[href$='/edit'], a[href$='/remove']") == 0)
        let refused = try readOnlyWrite(port: book.server.port, host: web, path: "/web/books/contacts/people/\(katie)/edit")
        #expect(refused == 403)
        #expect(try !book.sandbox.succeed(["show", katie]).stdout.contains("read-only write"))
    }

    private func signIn(_ browser: WebDriverBrowser, at web: URL, _ user: String, _ password: String) throws {
        try browser.go(to: web)
        try browser.type(user, into: "#user")
        try browser.type(password, into: "#password")
        try browser.click("main button[type=submit]")
        try browser.wait("signed in") { try browser.title != "Sign in" }
    }

    /// Signs in as the read-only user over a connection of its own, then sends a write with the
    /// session's own form token from the server's origin: only the grant can refuse it.
    private func readOnlyWrite(port: Int, host web: URL, path: String) throws -> Int {
        let connection = RawHTTPConnection(port: port)
        defer { connection.close() }
        let origin = "http://127.0.0.1:\(port)"
        let signedIn = try connection.send(
            "POST", "/web/signin", headers: ["Content-Type": "application/x-www-form-urlencoded", "Origin": origin],
            body: Data("user=ro&password=ro-secret".utf8))
        let cookie = try #require(signedIn.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        let page = try connection.send("GET", "/web/books/contacts/", headers: ["Cookie": cookie])
        let text = String(decoding: page.body, as: UTF8.self)
        let start = try #require(text.range(of: "name=\"token\" value=\"")).upperBound
        let token = String(text[start...].prefix { $0 != "\"" })
        let write = try connection.send(
            "POST", path, headers: ["Cookie": cookie, "Origin": origin, "Content-Type": "application/x-www-form-urlencoded"],
            body: Data("token=\(token)&note=read-only+write".utf8))
        return write.status
    }
}
