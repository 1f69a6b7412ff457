import DAVTestSupport
import Foundation
import TestTags
import Testing

/// The web pages used with the keyboard alone in a real browser (headless Chromium over
/// WebDriver, as ``WebPagesBrowserTests``): every step a key press sent to whatever has the
/// focus (Tab, Shift+Tab, Enter, typing), never a click, with the focus checked where each
/// step expects it, and the change checked in the store and in Git.
@Suite(.serialized) struct WebKeyboardBrowserTests {
    private typealias Key = WebDriverBrowser.Key

    @Test(
        .tags(.slow), .slowTestsEnabled,
        .enabled(if: WebDriverBrowser.available || ProcessInfo.processInfo.environment["CI"] != nil, "\(WebDriverBrowser.installHint)"))
    func aKeyboardAloneSignsInSearchesOpensAPersonAndEditsAPhone() throws {
        try #require(WebDriverBrowser.available, "\(WebDriverBrowser.installHint)")
        let book = try ServedBook()
        let oliver = try book.sandbox.add(["Oliver", "Wood", "--phone", "mobile:+1 555 0100"])
        try book.git.git(["add", "book"], in: book.sandbox.root)
        try book.git.git(["commit", "--quiet", "-m", "Add Oliver Wood"], in: book.sandbox.root)
        let browser = try WebDriverBrowser(profile: book.sandbox.temporary)
        defer { browser.quit() }

        // Signing in: the user field has the focus; going back, the header's link, then the
        // link that skips to the content, the first of the page.
        try browser.go(to: book.server.url.appending(path: "web/"))
        try browser.wait("the sign-in page") { try browser.title == "Sign in" }
        #expect(try browser.hasFocus("#user"))
        try browser.press(Key.tab, holding: Key.shift)
        #expect(try browser.hasFocus("header a.home"))
        try browser.press(Key.tab, holding: Key.shift)
        #expect(try browser.hasFocus("a.skip"))
        #expect(try browser.tab(to: "#user") == 2)
        try browser.press(ServedBook.user)
        try browser.tab(to: "#password")
        try browser.press(ServedBook.password + Key.enter)
        try browser.wait("the people list") { try browser.count("#people ul.people > li") == 5 }

        // Searching: the first Tab reaches the skip link, then the search field; the list
        // follows what is typed.
        try browser.press(Key.tab)
        #expect(try browser.hasFocus("a.skip"))
        try browser.tab(to: "form.search input[type=search]")
        try browser.press("Oliver")
        try browser.wait("the list for Oliver") { try browser.count("#people ul.people > li") == 1 }
        #expect(try browser.text(of: "#people ul.people").contains("Oliver Wood"))

        // Opening him, and his edit form, by Enter on each link.
        try browser.tab(to: "#people ul.people a")
        try browser.press(Key.enter)
        try browser.wait("his page") { try browser.title == "Oliver Wood" }
        try browser.tab(to: "a[href$='/edit']")
        try browser.press(Key.enter)
        try browser.wait("his form") { try browser.title == "Edit Oliver Wood" }

        // Shift+Tab goes back a control, Tab forward again; Enter in a field presses Save.
        try browser.tab(to: "input[name='phones.0.value']")
        try browser.press(Key.tab, holding: Key.shift)
        #expect(try !browser.hasFocus("input[name='phones.0.value']"))
        try browser.press(Key.tab)
        #expect(try browser.hasFocus("input[name='phones.0.value']"))
        try browser.press("a", holding: Key.control)
        try browser.press("+1 555 0199")
        try browser.shoot("keyboard-edit")
        try browser.press(Key.enter)
        try browser.wait("his page again") { try browser.title == "Oliver Wood" }

        let shown = try book.sandbox.succeed(["show", oliver]).stdout
        #expect(shown.contains("+1 555 0199"))
        #expect(!shown.contains("+1 555 0100"))
        let commits = try ServedBook.serveCommits(count: 1) {
            try book.git.git(["log", "--format=%s"], in: book.sandbox.root).lines.filter { $0.hasPrefix("contacts: web: ") }
        }
        #expect(commits == ["contacts: web: edit Oliver Wood by \(ServedBook.user)"])
    }
}
