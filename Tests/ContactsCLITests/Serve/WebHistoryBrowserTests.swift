import DAVTestSupport
import Foundation
import TestTags
import Testing

/// The history and duplicates parts of the web pages in a real browser (headless Chromium over
/// WebDriver, as ``WebPagesBrowserTests``): a person with a photo and a group removed and
/// restored from the removed people's page with both, the history in words, and a duplicate pair merged with a choice for a field.
/// Each step is checked in the store and in the commits `serve --commit` makes; screenshots at
/// a phone's and a desktop's width are saved under `.build/web-screenshots/`.
@Suite(.serialized) struct WebHistoryBrowserTests {
    @Test(
        .tags(.slow), .slowTestsEnabled,
        .enabled(if: WebDriverBrowser.available || ProcessInfo.processInfo.environment["CI"] != nil, "\(WebDriverBrowser.installHint)"))
    func aBrowserRemovesAndRestoresAPersonAndMergesADuplicatePair() throws {
        try #require(WebDriverBrowser.available, "\(WebDriverBrowser.installHint)")
        let book = try ServedBook()
        let browser = try WebDriverBrowser(profile: book.sandbox.temporary)
        defer { browser.quit() }
        let web = book.server.url.appending(path: "web/")
        let people = web.appending(path: "books/contacts/")
        func webCommits(_ count: Int) throws -> [String] {
            try ServedBook.serveCommits(count: count) {
                try book.git.git(["log", "--format=%s"], in: book.sandbox.root).lines.filter { $0.hasPrefix("contacts: web: ") }
            }
        }

        try browser.go(to: web)
        try browser.type(ServedBook.user, into: "#user")
        try browser.type(ServedBook.password, into: "#password")
        try browser.click("button[type=submit]")
        try browser.wait("the people list") { try browser.count("#people li") == 4 }

        // Katie Bell, in the group Friends, given a photo.
        let katie = try book.id("Katie Bell")
        let photo = ServedBook.image(7)
        let photoFile = book.sandbox.temporary.appending(path: "katie.png")
        try photo.write(to: photoFile)
        try browser.go(to: people.appending(path: "people/\(katie)/edit"))
        try browser.wait("her form") { try browser.count("#photo") == 1 }
        try browser.type(photoFile.path(percentEncoded: false), into: "#photo")
        try browser.click("form.person button[value=save]")
        try browser.wait("her page") { try browser.title == "Katie Bell" }
        #expect(try webCommits(1) == ["contacts: web: edit Katie Bell by \(ServedBook.user)"])
        #expect(try book.images().contains(photo))

        // Removing her: gone from the store with her photo and membership, the removal committed.
        try browser.go(to: people.appending(path: "people/\(katie)/remove"))
        try browser.click("main form button[type=submit]")
        try browser.wait("the list without her") { try browser.count("#people li") == 3 }
        #expect(try !book.names().contains("Katie Bell"))
        #expect(try webCommits(2).first == "contacts: web: remove Katie Bell by \(ServedBook.user)")
        #expect(try !book.images().contains(photo))

        // Found on the removed people's page, with her last version, and restored.
        try browser.go(to: people.appending(path: "removed/"))
        try browser.wait("the removed people") { try browser.count("ul.people li") == 1 }
        #expect(try browser.text(of: "ul.people").contains("Katie Bell"))
        try browser.shoot("removed")
        try browser.click("ul.people a")
        try browser.wait("her last version") { try browser.text(of: "h1") == "Katie Bell" }
        #expect(try browser.pageText.contains("katie@example.com"))
        #expect(try browser.text(of: "dl.person").contains("Friends"))
        try browser.click("main form button[type=submit]")
        try browser.wait("her page again") { try browser.title == "Katie Bell" && browser.currentURL.hasSuffix("/people/\(katie)") }
        #expect(try book.names().contains("Katie Bell"))
        #expect(try book.sandbox.succeed(["show", katie]).stdout.contains("katie@example.com"))
        #expect(try webCommits(3).first == "contacts: web: restore Katie Bell by \(ServedBook.user)")
        // Back with her photo and in Friends, both in the store and in the restore's commit.
        #expect(try book.images().contains(photo))
        #expect(try book.sandbox.succeed(["list", "--group", "Friends"]).stdout.contains("Katie Bell"))
        let restoredFiles = try book.git.git(["show", "--name-only", "--format=", "HEAD"], in: book.sandbox.root).lines
        #expect(restoredFiles.contains { $0.hasPrefix("book/people/") && $0.hasSuffix(".png") })
        #expect(restoredFiles.contains { $0.hasPrefix("book/groups/") && $0.hasSuffix(".members") })

        // Her history says each change in words, with who made it and how.
        try browser.click("a[href$='/history']")
        try browser.wait("her history") { try browser.title == "History of Katie Bell" }
        let history = try browser.text(of: "ol.history")
        #expect(history.contains("removed Katie Bell"))
        #expect(history.contains("created"))
        #expect(history.contains("added katie@example.com"))
        #expect(history.contains("\(ServedBook.user) · web pages"))
        try browser.shoot("history")

        // Katie Bell entered again with another address, committed; the pair merged keeping
        // the second one's address.
        _ = try book.sandbox.add(["Katie Bell", "--email", "kb@example.org"])
        try book.git.git(["add", "book"], in: book.sandbox.root)
        try book.git.git(["commit", "--quiet", "-m", "Add Katie Bell again"], in: book.sandbox.root)
        try browser.go(to: people.appending(path: "duplicates/"))
        try browser.wait("the pair") { try browser.count("ul.people li") == 1 }
        try browser.shoot("duplicates")
        try browser.click("ul.people a")
        try browser.wait("the pair side by side") { try browser.title == "Merge Katie Bell into Katie Bell" }
        try browser.click("#emails-1")
        try browser.shoot("merge")
        try browser.click("form.merge button[type=submit]")
        try browser.wait("the person who stayed") { try browser.title == "Katie Bell" }
        #expect(try book.names().filter { $0 == "Katie Bell" }.count == 1)
        let kept = try book.sandbox.succeed(["show", try book.id("Katie Bell")]).stdout
        #expect(kept.contains("kb@example.org"))
        #expect(!kept.contains("katie@example.com"))
        #expect(try webCommits(4).first == "contacts: web: merge Katie Bell into Katie Bell by \(ServedBook.user)")
        #expect(try !book.hasUncommittedChanges())
    }
}
