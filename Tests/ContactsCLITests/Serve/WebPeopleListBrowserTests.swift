import DAVTestSupport
import Foundation
import TestTags
import Testing

/// The people list's script in a real browser (headless Chromium over WebDriver, as
/// ``WebPagesBrowserTests``): in a book of more than one page, scrolling to the end of the list
/// adds the next page's rows below it and updates the count of people shown.
@Suite(.serialized) struct WebPeopleListBrowserTests {
    /// How many people the test adds to the four of ``ServedBook``: more than a page of 200.
    private static let added = 250

    @Test(
        .tags(.slow), .slowTestsEnabled,
        .enabled(if: WebDriverBrowser.available || ProcessInfo.processInfo.environment["CI"] != nil, "\(WebDriverBrowser.installHint)"))
    func scrollingToTheEndOfALongListAddsTheNextPage() throws {
        try #require(WebDriverBrowser.available, "\(WebDriverBrowser.installHint)")
        let book = try ServedBook()
        let cards = book.sandbox.temporary.appending(path: "many.vcf")
        let text = (1...Self.added).map { number in
            let last = "Zz" + String(number + 1000).dropFirst()
            return "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:filler-\(number)\r\nFN:Filler \(last)\r\nN:\(last);Filler;;;\r\nEND:VCARD\r\n"
        }.joined()
        try Data(text.utf8).write(to: cards)
        try book.sandbox.succeed(["import", cards.path(percentEncoded: false)])
        let total = Self.added + 4
        let browser = try WebDriverBrowser(profile: book.sandbox.temporary)
        defer { browser.quit() }

        try browser.go(to: book.server.url.appending(path: "web/"))
        try browser.type(ServedBook.user, into: "#user")
        try browser.type(ServedBook.password, into: "#password")
        try browser.click("button[type=submit]")
        try browser.wait("the first page") { try browser.count("#people ul.people > li") == 200 }
        #expect(try browser.text(of: "#people .count").contains("1–200 shown"))
        #expect(try browser.count("#people nav.pages a[rel=next]") == 1)

        try browser.scrollToEnd()
        try browser.wait("the next page's rows") { try browser.count("#people ul.people > li") == total }

        #expect(try browser.text(of: "#people .count").contains("1–\(total) shown"))
        #expect(try browser.count("#people nav.pages a[rel=next]") == 0)
        #expect(try browser.text(of: "#people ul.people > li:last-child").contains("Filler Zz\(Self.added)"))
        try browser.shoot("people-next-page")
    }
}
