import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// Uploading a file into a book: the store's import in one save, its report shown; refused
/// for a read-only grant, without the form token, over the size limit, and for a file that
/// holds no contact.
@Suite struct WebImportTests {
    private static let csv = "First Name,Last Name,E-mail Address\nKatie,Bell,katie@example.org\n<script>alert(1)</script>,Öberg,asa@example.se\n"

    private func signedIn(_ user: String = "alice") throws -> WebBrowser {
        let browser = WebBrowser(try ServedBooks())
        browser.signIn(user)
        return browser
    }

    private func upload(_ browser: WebBrowser, _ text: String, name: String = "friends.csv", book: String = "contacts", extra: [(String, String)] = []) throws
        -> HTTPServerResponse
    {
        let token = try browser.formToken(on: "/web/books/\(book)/")
        return browser.sendMultipart(
            "/web/books/\(book)/import", fields: [(WebForm.tokenField, token)] + extra,
            files: [.init(field: "file", name: name, type: "text/csv", data: Data(text.utf8))])
    }

    @Test func aCSVFileIsImportedAndItsReportShowsWhoWasAddedMergedAndSkipped() throws {
        let browser = try signedIn()
        let book = try browser.books.alice.openBook()
        let katie = Person()
        katie.firstName = "Katie"
        katie.lastName = "Bell"
        try book.add(katie)
        try book.save()

        let form = text(browser.send("GET", "/web/books/contacts/import"))
        let response = try upload(browser, Self.csv)
        let page = text(response)

        #expect(form.contains("<input type=\"file\" id=\"file\" name=\"file\""))
        #expect(form.contains("enctype=\"multipart/form-data\""))
        #expect(response.status == 200)
        #expect(page.contains("<h1>Imported 2 people</h1>"))
        #expect(page.contains("From friends.csv: 1 added, 1 matched and merged, 0 matched and skipped"))
        #expect(page.contains("<a href=\"people/\(katie.recordID.rawValue)\">Katie Bell</a>"))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt; Öberg"))
        #expect(!page.contains("<script>alert"))
        let stored = try browser.books.alice.openBook()
        #expect(stored.person(withID: katie.recordID)?.emails.values == ["katie@example.org"])
        #expect(stored.people(matchingName: "Öberg").count == 1)
    }

    @Test func skippingMatchesLeavesThePersonAsTheyAre() throws {
        let browser = try signedIn()
        let book = try browser.books.alice.openBook()
        let katie = Person()
        katie.firstName = "Katie"
        katie.lastName = "Bell"
        try book.add(katie)
        try book.save()

        let page = text(try upload(browser, Self.csv, extra: [("onMatch", "skip")]))

        #expect(page.contains("1 added, 0 matched and merged, 1 matched and skipped"))
        #expect(try browser.books.alice.openBook().person(withID: katie.recordID)?.emails.isEmpty == true)
    }

    @Test func aFileWithNoContactIsShownBesideTheFieldAndNothingIsSaved() throws {
        let browser = try signedIn()

        let response = try upload(browser, "just some words\n", name: "notes.vcf")

        #expect(response.status == 422)
        #expect(text(response).contains("<p class=\"error\" id=\"file-problem\" role=\"alert\">Nothing was imported"))
        #expect(try browser.books.alice.openBook().personCount == 0)
    }

    @Test func aReadOnlyGrantAMissingTokenAndTooLargeAFileAreRefused() throws {
        let browser = try signedIn("bob")
        let token = try browser.formToken(on: "/web/books/family/")

        let page = browser.send("GET", "/web/books/family/import")
        let forged = browser.sendMultipart(
            "/web/books/family/import", fields: [(WebForm.tokenField, token)],
            files: [.init(field: "file", name: "x.csv", type: "text/csv", data: Data(Self.csv.utf8))])
        let list = text(browser.send("GET", "/web/books/family/"))
        let tokenless = browser.sendMultipart(
            "/web/books/bob/import", fields: [], files: [.init(field: "file", name: "x.csv", type: "text/csv", data: Data(Self.csv.utf8))])
        let large = Data(repeating: UInt8(ascii: "a"), count: WebForm.maximumBodySize + 1)
        let tooLarge = browser.sendMultipart(
            "/web/books/bob/import", fields: [(WebForm.tokenField, token)], files: [.init(field: "file", name: "x.csv", type: "text/csv", data: large)])

        #expect(page.status == 403)
        #expect(forged.status == 403)
        #expect(!list.contains("href=\"import\""))
        #expect(tokenless.status == 403)
        #expect(tooLarge.status == 413)
        #expect(try browser.books.family.openBook().personCount == 0)
        #expect(try browser.books.bob.openBook().personCount == 0)
    }
}
