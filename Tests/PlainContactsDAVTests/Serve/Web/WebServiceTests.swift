import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// A browser talking to the web pages of a server with users (``ServedBooks``: Alice has the
/// server's store and `family`, Bob his own book and `family` read-only), without a socket.
final class WebBrowser {
    let books: ServedBooks
    let web: WebService
    /// The session cookie the browser holds.
    var cookie: String?
    /// The `Host` the browser sends, and the origin of its pages.
    let host = "contacts.example:5232"

    init(_ books: ServedBooks, history: (any StoreHistory)? = nil) {
        self.books = books
        web = WebService(service: books.service, authenticator: books.authenticator, history: history)
    }

    /// Sends a request as a browser on this server's pages would (same-origin), keeping the
    /// cookie it is given.
    @discardableResult
    func send(_ method: String, _ target: String, form: [(String, String)]? = nil, headers: [(String, String)] = []) -> HTTPServerResponse {
        let body = form.map { pairs in pairs.map { WebForm.encoded($0.0) + "=" + WebForm.encoded($0.1) }.joined(separator: "&") } ?? ""
        return send(method, target, body: Data(body.utf8), contentType: form == nil ? nil : "application/x-www-form-urlencoded", headers: headers)
    }

    /// Sends a request with `body` as it is, of `contentType`.
    @discardableResult
    func send(_ method: String, _ target: String, body: Data, contentType: String?, headers: [(String, String)] = []) -> HTTPServerResponse {
        var fields: [(String, String)] = [("Host", host)]
        if let contentType { fields.append(("Content-Type", contentType)) }
        if let cookie { fields.append(("Cookie", "\(WebService.cookieName)=\(cookie)")) }
        if method == "POST" { fields += [("Origin", "http://\(host)"), ("Sec-Fetch-Site", "same-origin")] }
        // A header given replaces the browser's own of that name.
        fields.removeAll { field in headers.contains { HTTPHeaderFields.matches($0.0, field.0) } }
        fields += headers
        let request = HTTPServerRequest(method: method, target: target, headers: HTTPHeaderFields(fields), body: body)
        let response = web.respond(to: request, client: "192.0.2.7")
        for header in response.headers.values(for: "Set-Cookie") {
            let value = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            cookie = value.count == 2 && !value[1].isEmpty ? String(value[1]) : nil
        }
        return response
    }

    func signIn(_ user: String) {
        send("POST", "/web/signin", form: [("user", user), ("password", user + "-pw")])
    }

    /// The form token of the page at `target`.
    func formToken(on target: String) throws -> String {
        let page = text(send("GET", target))
        let marker = "name=\"\(WebForm.tokenField)\" value=\""
        let start = try #require(page.range(of: marker)).upperBound
        return String(page[start...].prefix { $0 != "\"" })
    }
}

func text(_ response: HTTPServerResponse) -> String {
    String(decoding: response.body, as: UTF8.self)
}

@Suite struct WebServiceTests {
    @Test func aBrowserWithoutASessionIsShownTheSignInForm() throws {
        let browser = WebBrowser(try ServedBooks())

        let home = browser.send("GET", "/web/")
        let deeper = browser.send("GET", "/web/books/contacts/")

        #expect(home.status == 200)
        #expect(text(home).contains("<form method=\"post\" action=\"/web/signin\">"))
        #expect(text(home).contains("<label for=\"password\">Password</label>"))
        #expect(deeper.status == 303)
        #expect(deeper.headers["Location"] == "/web/")
    }

    @Test func signingInSetsAStrictHttpOnlyCookieAndAWrongPasswordDoesNot() throws {
        let browser = WebBrowser(try ServedBooks())

        let wrong = browser.send("POST", "/web/signin", form: [("user", "alice"), ("password", "nope")])
        #expect(wrong.status == 401)
        #expect(wrong.headers["Set-Cookie"] == nil)
        #expect(text(wrong).contains("The user name or the password is wrong."))

        let right = browser.send("POST", "/web/signin", form: [("user", "alice"), ("password", "alice-pw")])
        #expect(right.status == 303)
        let cookie = try #require(right.headers["Set-Cookie"])
        #expect(cookie.contains("; HttpOnly"))
        #expect(cookie.contains("; SameSite=Strict"))
        #expect(cookie.contains("; Path=/web/"))
        #expect(!cookie.contains("Secure"))
    }

    @Test func behindHTTPSTheCookieIsSecure() throws {
        let browser = WebBrowser(try ServedBooks())

        let response = browser.send(
            "POST", "/web/signin", form: [("user", "alice"), ("password", "alice-pw")], headers: [("X-Forwarded-Proto", "https")])

        #expect(try #require(response.headers["Set-Cookie"]).hasSuffix("; Secure"))
    }

    @Test func aSignedInUserSeesTheirBooksAndNotTheOthers() throws {
        let books = try ServedBooks()
        let browser = WebBrowser(books)
        browser.signIn("bob")

        let home = text(browser.send("GET", "/web/"))
        let family = browser.send("GET", "/web/books/family/")
        let alices = browser.send("GET", "/web/books/contacts/")

        #expect(home.contains("href=\"/web/books/bob/\""))
        #expect(home.contains("href=\"/web/books/family/\""))
        #expect(home.contains("(read only)"))
        #expect(family.status == 200)
        #expect(alices.status == 404)
    }

    @Test func theListShowsThePeopleInOrderAndTheSearchFindsByName() throws {
        let books = try ServedBooks()
        let book = try books.alice.openBook()
        for (first, last) in [("Zoë", "Adams"), ("Katie", "Bell"), ("Åsa", "Öberg")] {
            let person = Person()
            person.firstName = first
            person.lastName = last
            try book.add(person)
        }
        try book.save()
        let browser = WebBrowser(books)
        browser.signIn("alice")

        let all = text(browser.send("GET", "/web/books/contacts/"))
        let found = text(browser.send("GET", "/web/books/contacts/?q=asa"))
        let list = browser.send("GET", "/web/books/contacts/?q=bel&list=1")

        let adams = try #require(all.range(of: "Zoë Adams")).lowerBound
        let bell = try #require(all.range(of: "Katie Bell")).lowerBound
        #expect(adams < bell)
        #expect(all.contains("3 people"))
        #expect(found.contains("Åsa Öberg"))
        #expect(!found.contains("Katie Bell"))
        #expect(found.contains("value=\"asa\""))
        #expect(text(list).hasPrefix("<div id=\"people\">"))
        #expect(text(list).contains("Katie Bell"))
        #expect(!text(list).contains("<html"))
    }

    @Test func aPersonsPageShowsEveryPropertyWithLinksAndEscapesWhatTheyHold() throws {
        let books = try ServedBooks()
        let book = try books.alice.openBook()
        let person = Person()
        person.firstName = "Katie"
        person.lastName = "<b>Bell</b>"
        person.phones = MultiValue([("+1 555 0100", .mobile)])
        person.emails = MultiValue([("katie@example.com", .work)])
        person.urls = MultiValue([("javascript:alert(1)", .home), ("https://example.org/?a=1&b=2", .work)])
        person.note = "<script>alert(1)</script>"
        person.addresses = MultiValue([(PostalAddress(street: "1 Main St", city: "Springfield", state: "IL", zip: "62701"), .home)])
        try book.add(person)
        try book.save()
        let browser = WebBrowser(books)
        browser.signIn("alice")

        let response = browser.send("GET", "/web/books/contacts/people/\(person.recordID.rawValue)")
        let page = text(response)

        #expect(response.status == 200)
        #expect(page.contains("<h1>Katie &lt;b&gt;Bell&lt;/b&gt;</h1>"))
        #expect(page.contains("<dt>phone (mobile)</dt><dd><a href=\"tel:+15550100\">+1 555 0100</a></dd>"))
        #expect(page.contains("<a href=\"mailto:katie@example.com\">katie@example.com</a>"))
        #expect(page.contains("<dd>javascript:alert(1)</dd>"))
        #expect(!page.contains("href=\"javascript:"))
        #expect(page.contains("<a href=\"https://example.org/?a=1&amp;b=2\" rel=\"noopener noreferrer\">"))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!page.contains("<script>alert"))
        #expect(page.contains("<dd>1 Main St\nSpringfield, IL 62701</dd>"))
    }

    @Test func aPersonsCardDownloadsAsVCard() throws {
        let books = try ServedBooks()
        let book = try books.alice.openBook()
        let person = Person()
        person.firstName = "Katie"
        person.lastName = "Bell"
        try book.add(person)
        try book.save()
        let browser = WebBrowser(books)
        browser.signIn("alice")

        let response = browser.send("GET", "/web/books/contacts/people/\(person.recordID.rawValue).vcf")

        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "text/vcard; charset=utf-8")
        #expect(response.headers["Content-Disposition"]?.hasPrefix("attachment;") == true)
        #expect(text(response).contains("FN:Katie Bell"))
        #expect(browser.send("GET", "/web/books/contacts/people/999").status == 404)
        #expect(browser.send("GET", "/web/books/contacts/people/x.vcf").status == 404)
    }

    @Test func everyAnswerCarriesTheSecurityHeaders() throws {
        let browser = WebBrowser(try ServedBooks())
        browser.signIn("alice")

        for target in ["/web/", "/web/books/contacts/", "/web/nowhere", WebAssets.stylePath] {
            let response = browser.send("GET", target)
            #expect(response.headers["Content-Security-Policy"]?.contains("frame-ancestors 'none'") == true, "\(target)")
            #expect(response.headers["Content-Security-Policy"]?.contains("script-src 'self'") == true, "\(target)")
            #expect(response.headers["X-Content-Type-Options"] == "nosniff", "\(target)")
        }
    }

    @Test func signingOutNeedsTheFormTokenAndEndsTheSession() throws {
        let browser = WebBrowser(try ServedBooks())
        browser.signIn("alice")
        let token = try browser.formToken(on: "/web/books/contacts/")

        let forged = browser.send("POST", "/web/signout", form: [])
        #expect(forged.status == 403)
        #expect(browser.send("GET", "/web/books/contacts/").status == 200)

        let signedOut = browser.send("POST", "/web/signout", form: [(WebForm.tokenField, token)])
        #expect(signedOut.status == 303)
        #expect(browser.cookie == nil)
        #expect(browser.send("GET", "/web/books/contacts/").status == 303)
    }

    @Test func aFormPostedFromAnotherSiteIsRefusedEvenWithTheToken() throws {
        let browser = WebBrowser(try ServedBooks())
        browser.signIn("alice")
        let token = try browser.formToken(on: "/web/books/contacts/")

        let otherOrigin = browser.send(
            "POST", "/web/signout", form: [(WebForm.tokenField, token)], headers: [("Origin", "http://evil.example")])
        let otherSite = browser.send(
            "POST", "/web/signout", form: [(WebForm.tokenField, token)], headers: [("Sec-Fetch-Site", "cross-site")])
        let signIn = browser.send(
            "POST", "/web/signin", form: [("user", "alice"), ("password", "alice-pw")], headers: [("Origin", "http://evil.example")])

        #expect(otherOrigin.status == 403)
        #expect(otherSite.status == 403)
        #expect(signIn.status == 403)
        #expect(browser.send("GET", "/web/books/contacts/").status == 200)
    }

    @Test func repeatedWrongPasswordsAreThrottledAsOverCardDAV() throws {
        let browser = WebBrowser(try ServedBooks())

        var statuses: [Int] = []
        for _ in 0..<40 {
            statuses.append(browser.send("POST", "/web/signin", form: [("user", "alice"), ("password", "nope")]).status)
        }

        #expect(statuses.first == 401)
        #expect(statuses.last == 429)
    }
}
