import DAVTestSupport
import Foundation
import TestTags
import Testing

/// The web pages of `contacts serve` in a real browser: headless Chromium, driven over
/// WebDriver, signs in, searches as it types (the page's script running under the pages'
/// Content-Security-Policy), opens a person, edits a phone (saved in the store and committed by
/// `serve --commit` as a web change), is refused a form posted from another origin, and signs
/// out. Screenshots at a phone's and a desktop's width are saved under
/// `.build/web-screenshots/`.
@Suite(.serialized) struct WebPagesBrowserTests {
    /// Skipped on a machine without Chromium, except under CI (`CI` set), where its absence
    /// fails the test: `.ci/run` installs it.
    @Test(
        .tags(.slow), .slowTestsEnabled,
        .enabled(if: WebDriverBrowser.available || ProcessInfo.processInfo.environment["CI"] != nil, "\(WebDriverBrowser.installHint)"))
    func aBrowserSignsInSearchesOpensAPersonAndSignsOut() throws {
        try #require(WebDriverBrowser.available, "\(WebDriverBrowser.installHint)")
        let book = try ServedBook()
        let browser = try WebDriverBrowser(profile: book.sandbox.temporary)
        defer { browser.quit() }
        let web = book.server.url.appending(path: "web/")

        try browser.go(to: web)
        #expect(try browser.title == "Sign in")
        try browser.type(ServedBook.user, into: "#user")
        try browser.type(ServedBook.password, into: "#password")
        try browser.click("button[type=submit]")

        // One book: the user lands on its people.
        try browser.wait("the people list") { try browser.count("#people li") == 4 }
        #expect(try browser.currentURL.hasSuffix("/web/books/contacts/"))
        let everyone = try browser.text(of: "#people")
        #expect(everyone.contains("Katie Bell"))
        #expect(everyone.contains("Zoë Ångström"))
        try browser.shoot("people")

        // Typing searches without a page load: the script runs under the page's policy.
        try browser.type("ång", into: "#q")
        try browser.wait("the search as you type") { try browser.count("#people li") == 1 }
        #expect(try browser.text(of: "#people").contains("Zoë Ångström"))
        #expect(try browser.currentURL.hasSuffix("/web/books/contacts/?q=%C3%A5ng"))

        try browser.go(to: web.appending(path: "books/contacts/").absoluteString + "?q=katie")
        try browser.click("#people a")
        try browser.wait("Katie Bell's page") { try browser.text(of: "h1") == "Katie Bell" }
        #expect(try browser.attribute("href", of: "dl.person a") == "mailto:katie@example.com")
        #expect(try browser.pageText.contains("Friends"))
        try browser.shoot("person")

        // Editing a phone: one save, committed as a web change by the user.
        try browser.click("a[href$='/edit']")
        try browser.wait("the edit form") { try browser.title == "Edit Katie Bell" }
        try browser.shoot("edit")
        try browser.type("+1 555 0199", into: "input[name='phones.0.value']")
        try browser.type("mobile", into: "input[name='phones.0.label']")
        try browser.click("form.person button[type=submit]")
        try browser.wait("Katie Bell's page again") { try browser.text(of: "h1") == "Katie Bell" }
        #expect(try browser.attribute("href", of: "dl.person a[href^='tel:']") == "tel:+15550199")
        #expect(try book.sandbox.succeed(["show", try book.id("Katie Bell")]).stdout.contains("+1 555 0199"))
        let edits = try ServedBook.serveCommits(count: 1) {
            try book.git.git(["log", "--format=%s"], in: book.sandbox.root).lines.filter { $0.hasPrefix("contacts: web: ") }
        }
        #expect(edits == ["contacts: web: edit Katie Bell by \(ServedBook.user)"])

        // A form another origin posts to the server, as a page of another site could.
        let signout = web.appending(path: "signout").absoluteString
        let forged = "<form method=post action=\"\(signout)\"><input name=token value=guess></form>"
            + "<script>document.forms[0].submit()</script>"
        try browser.go(to: "data:text/html," + (forged.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
        try browser.wait("the refusal") { try browser.pageText.contains("refused") }
        try browser.go(to: web)
        try browser.wait("the list, still signed in") { try browser.count("#people li") == 4 }

        try browser.click("header form button")
        try browser.wait("the sign-in page") { try browser.title == "Sign in" }
        try browser.go(to: web.appending(path: "books/contacts/"))
        #expect(try browser.title == "Sign in")
    }
}
