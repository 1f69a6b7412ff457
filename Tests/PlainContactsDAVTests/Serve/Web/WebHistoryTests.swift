import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// A person's history on the web pages, the people removed, and the restore of either as a
/// new change through the book's writer.
@Suite struct WebHistoryTests {
    /// Katie Bell saved with a mobile phone, then edited to a new phone and a job title; both
    /// versions recorded in the history.
    private func katie(signedInAs user: String = "alice") throws -> (WebBrowser, RecordedHistory, Person, String) {
        let books = try ServedBooks()
        let history = RecordedHistory()
        let book = try books.alice.openBook()
        let person = Person()
        person.firstName = "Katie"
        person.lastName = "Bell"
        person.phones = MultiValue([("+1 555 0100", .mobile)])
        try book.add(person)
        try book.save()
        let path = StoreRepository.path(ofPersonWithKey: try #require(person.key))
        history.record("contacts: add Katie Bell", path: path, in: books.alice, before: nil, author: "sam")
        let first = Data(try books.alice.read(path).utf8)
        var phones = person.phones
        phones.replaceValue(at: 0, with: "+1 555 0199")
        person.phones = phones
        person.jobTitle = "<script>alert(1)</script>"
        try book.save()
        history.record("contacts: web: edit Katie Bell by kim", path: path, in: books.alice, before: first, author: "server")
        let browser = WebBrowser(books, history: history)
        browser.signIn(user)
        return (browser, history, person, "/web/books/contacts/people/\(person.recordID.rawValue)")
    }

    @Test func theHistorySaysWhenWhoWithWhatAndWhatChangedInWords() throws {
        let (browser, _, _, page) = try katie()

        let response = browser.send("GET", page + "/history")
        let shown = text(response)

        #expect(response.status == 200)
        #expect(shown.contains("<li>phone mobile +1 555 0100 → +1 555 0199</li>"))
        #expect(shown.contains("job title added &lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!shown.contains("<script>alert"))
        #expect(shown.contains(" · kim · web pages</p>"))
        #expect(shown.contains(" · sam · contacts command</p>"))
        #expect(shown.contains("<li>created</li>"))
        // Only the earlier version, not the one in place now, can be restored.
        #expect(shown.components(separatedBy: "Restore this version").count == 2)
        #expect(text(browser.send("GET", page)).contains("/history\">History</a>"))
    }

    @Test func restoringAnEarlierVersionIsANewSaveOfThatVersionsValues() throws {
        let (browser, history, person, page) = try katie()
        let path = StoreRepository.path(ofPersonWithKey: try #require(person.key))
        let earliest = try #require(try history.versions(ofFile: path, inStoreAt: browser.books.alice.storeURL).last)
        let form = [(WebForm.tokenField, try browser.formToken(on: page + "/history")), ("commit", earliest.commit)]

        let restored = browser.send("POST", page + "/history", form: form)

        #expect(restored.status == 303)
        #expect(restored.headers["Location"] == page)
        let stored = try #require(try browser.books.alice.openBook().person(withID: person.recordID))
        #expect(stored.phones.values == ["+1 555 0100"])
        #expect(stored.jobTitle == nil)
        #expect(stored.key == person.key)
    }

    @Test func aPersonChangedSinceTheHistoryWasShownIsNotRestored() throws {
        let (browser, history, person, page) = try katie()
        let path = StoreRepository.path(ofPersonWithKey: try #require(person.key))
        let earliest = try #require(try history.versions(ofFile: path, inStoreAt: browser.books.alice.storeURL).last)
        let shown = text(browser.send("GET", page + "/history"))
        let etag = try #require(shown.components(separatedBy: "name=\"etag\" value=\"").dropFirst().first?.prefix { $0 != "\"" })
        let book = try browser.books.alice.openBook()
        try #require(book.person(withID: person.recordID)).note = "changed meanwhile"
        try book.save()

        let form = [(WebForm.tokenField, try browser.formToken(on: page)), ("commit", earliest.commit), ("etag", String(etag))]
        let stale = browser.send("POST", page + "/history", form: form)

        #expect(stale.status == 409)
        #expect(text(stale).contains("Someone changed this person since the page was shown"))
        #expect(try browser.books.alice.openBook().person(withID: person.recordID)?.note == "changed meanwhile")
    }

    @Test func aRestoreWithoutTheTokenOrOnAReadOnlyGrantIsRefused() throws {
        let (browser, history, person, page) = try katie()
        let path = StoreRepository.path(ofPersonWithKey: try #require(person.key))
        let earliest = try #require(try history.versions(ofFile: path, inStoreAt: browser.books.alice.storeURL).last)

        let tokenless = browser.send("POST", page + "/history", form: [("commit", earliest.commit)])

        #expect(tokenless.status == 403)
        #expect(try browser.books.alice.openBook().person(withID: person.recordID)?.jobTitle != nil)

        let books = browser.books
        let family = try books.family.openBook()
        let gran = Person()
        gran.firstName = "Gran"
        try family.add(gran)
        try family.save()
        let granPath = StoreRepository.path(ofPersonWithKey: try #require(gran.key))
        history.record("contacts: add Gran", path: granPath, in: books.family, before: nil)
        let bob = WebBrowser(books, history: history)
        bob.signIn("bob")
        let granPage = "/web/books/family/people/\(gran.recordID.rawValue)"
        let shown = text(bob.send("GET", granPage + "/history"))
        let forged = bob.send("POST", granPage + "/history", form: [(WebForm.tokenField, try bob.formToken(on: granPage)), ("commit", "0")])

        let removal = bob.send("POST", "/web/books/family/removed/gran", form: [(WebForm.tokenField, try bob.formToken(on: granPage)), ("commit", "0")])

        #expect(!shown.contains("Restore this version"))
        #expect(forged.status == 403)
        #expect(removal.status == 403)
    }

    @Test func aRemovedPersonIsListedWithTheirLastVersionAndComesBackAsANewChange() throws {
        let (browser, history, person, page) = try katie()
        let path = StoreRepository.path(ofPersonWithKey: try #require(person.key))
        let last = Data(try browser.books.alice.read(path).utf8)
        let removePage = page + "/remove"
        #expect(browser.send("POST", removePage, form: [(WebForm.tokenField, try browser.formToken(on: removePage))]).status == 303)
        history.record("contacts: web: remove Katie Bell by kim", path: path, in: browser.books.alice, before: last)
        let key = try #require(person.key).rawValue

        let list = text(browser.send("GET", "/web/books/contacts/removed/"))
        let shown = text(browser.send("GET", "/web/books/contacts/removed/\(key)"))
        let commit = try #require(try history.removedFiles(inFolder: "people", inStoreAt: browser.books.alice.storeURL).first).commit
        let token = try browser.formToken(on: "/web/books/contacts/removed/\(key)")
        let restored = browser.send("POST", "/web/books/contacts/removed/\(key)", form: [(WebForm.tokenField, token), ("commit", commit)])

        #expect(list.contains("href=\"\(key)\">Katie Bell<span class=\"detail\">removed "))
        #expect(shown.contains("+1 555 0199"))
        #expect(shown.contains("&lt;script&gt;"))
        #expect(restored.status == 303)
        #expect(restored.headers["Location"] == page)
        let back = try #require(try browser.books.alice.openBook().person(withID: person.recordID))
        #expect(back.key == person.key)
        #expect(back.phones.values == ["+1 555 0199"])
        // Restored, the person is no longer listed as removed, and the form cannot be sent again.
        let again = browser.send("POST", "/web/books/contacts/removed/\(key)", form: [(WebForm.tokenField, token), ("commit", commit)])
        #expect(again.status == 404)
    }

    @Test func aRemovedPersonComesBackWithTheirPhotoAndGroupsAndThePageSaysWhichGroupsAreGone() throws {
        let (browser, history, person, page) = try katie()
        let path = StoreRepository.path(ofPersonWithKey: try #require(person.key))
        let book = try browser.books.alice.openBook()
        let katie = try #require(book.person(withID: person.recordID))
        let photo = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array("photo".utf8))
        katie.setImageData(photo)
        let (chasers, team) = (Group(), Group())
        chasers.name = "Chasers"
        team.name = "Team <b>"
        try book.add(chasers)
        try book.add(team)
        try book.save()
        try chasers.addMember(katie)
        try team.addMember(katie)
        try book.save()
        let last = Data(try browser.books.alice.read(path).utf8)
        history.record("contacts: web: edit Katie Bell by kim", path: path, in: browser.books.alice, before: nil)
        let removePage = page + "/remove"
        #expect(browser.send("POST", removePage, form: [(WebForm.tokenField, try browser.formToken(on: removePage))]).status == 303)
        let reopened = try browser.books.alice.openBook()
        try reopened.remove(try #require(reopened.group(withID: chasers.recordID)))
        try reopened.save()
        history.record("contacts: web: remove Katie Bell by kim", path: path, in: browser.books.alice, before: last)
        let key = try #require(person.key).rawValue

        let shown = text(browser.send("GET", "/web/books/contacts/removed/\(key)"))
        let commit = try #require(try history.removedFiles(inFolder: "people", inStoreAt: browser.books.alice.storeURL).first).commit
        let token = try browser.formToken(on: "/web/books/contacts/removed/\(key)")
        let restored = browser.send("POST", "/web/books/contacts/removed/\(key)", form: [(WebForm.tokenField, token), ("commit", commit)])

        #expect(shown.contains("<dt>groups</dt><dd>Team &lt;b&gt;</dd>"))
        #expect(shown.contains("<dt>groups removed since</dt><dd class=\"gone\">Chasers</dd>"))
        #expect(shown.contains("<dt>photo</dt>"))
        #expect(!shown.contains("are not brought back"))
        #expect(restored.status == 303)
        let reread = try browser.books.alice.openBook()
        let back = try #require(reread.person(withID: person.recordID))
        #expect(try back.imageData() == photo)
        #expect(reread.groups(containing: back).map(\.name) == ["Team <b>"])
    }

    @Test func restoringAnEarlierVersionBringsBackItsPhoto() throws {
        let (browser, history, person, page) = try katie()
        let path = StoreRepository.path(ofPersonWithKey: try #require(person.key))
        let book = try browser.books.alice.openBook()
        let katie = try #require(book.person(withID: person.recordID))
        let photo = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array("first".utf8))
        katie.setImageData(photo)
        try book.save()
        let before = Data(try browser.books.alice.read(path).utf8)
        history.record("contacts: web: edit Katie Bell by kim", path: path, in: browser.books.alice, before: nil)
        let commit = try #require(try history.versions(ofFile: path, inStoreAt: browser.books.alice.storeURL).first).commit
        katie.setImageData(Data([0xFF, 0xD8, 0xFF, 0xE0] + Array("second".utf8)))
        katie.note = "later"
        try book.save()
        history.record("contacts: web: edit Katie Bell by kim", path: path, in: browser.books.alice, before: before)

        let form = [(WebForm.tokenField, try browser.formToken(on: page + "/history")), ("commit", commit)]
        let restored = browser.send("POST", page + "/history", form: form)

        #expect(restored.status == 303)
        let back = try #require(try browser.books.alice.openBook().person(withID: person.recordID))
        #expect(try back.imageData() == photo)
        #expect(back.note == nil)
    }

    @Test func aLongHistoryIsShownFiftyAtATimeWithLinksToOlderAndNewerChanges() throws {
        let (browser, history, person, page) = try katie()
        let path = StoreRepository.path(ofPersonWithKey: try #require(person.key))
        let book = try browser.books.alice.openBook()
        let katie = try #require(book.person(withID: person.recordID))
        for number in 1...60 {
            let before = Data(try browser.books.alice.read(path).utf8)
            katie.note = "note \(number)"
            try book.save()
            history.record("contacts: edit Katie Bell", path: path, in: browser.books.alice, before: before)
        }

        let first = text(browser.send("GET", page + "/history"))
        let second = text(browser.send("GET", page + "/history?skip=50"))
        let older = try #require(try history.versions(ofFile: path, skipping: 50, limit: nil, inStoreAt: browser.books.alice.storeURL).first)
        let form = [(WebForm.tokenField, try browser.formToken(on: page + "/history")), ("commit", older.commit), ("skip", "50")]
        let restored = browser.send("POST", page + "/history", form: form)

        #expect(first.components(separatedBy: "<li><p class=\"when\">").count == 51)
        #expect(first.contains("<a href=\"history?skip=50\" rel=\"next\">Older changes</a>"))
        #expect(!first.contains("Newer changes"))
        #expect(first.contains("<li>note note 59 → note 60</li>"))
        #expect(second.components(separatedBy: "<li><p class=\"when\">").count == 13)
        #expect(second.contains("<ol class=\"history\" start=\"51\">"))
        #expect(second.contains("<a href=\"history\" rel=\"prev\">Newer changes</a>"))
        #expect(!second.contains("Older changes"))
        #expect(second.contains("<li>created</li>"))
        #expect(second.contains("name=\"skip\" value=\"50\""))
        #expect(restored.status == 303)
        #expect(try browser.books.alice.openBook().person(withID: person.recordID)?.note == "note 10")
    }

    @Test func aMergeSaysMergedAndWhatItChangedAgainstItsFirstParent() throws {
        let version = StoreHistoryVersion(
            commit: "abc", date: Date(timeIntervalSince1970: 1_795_000_000), author: "kim", headline: "Merge branch 'phone'",
            path: "people/katie-bell-9dw42k.json", before: Data(#"{"id": 1, "firstName": "Katie", "note": "here"}"#.utf8),
            after: Data(#"{"id": 1, "firstName": "Katie", "jobTitle": "Pilot", "note": "here"}"#.utf8), isMerge: true)

        let html = WebService.versionHTML(version, format: .firstNameFirst)

        #expect(html.contains("<li>merged: job title added Pilot</li>"))
        #expect(html.contains(" · kim · Git</p>"))
    }

    @Test func aServerWithoutHistorySaysSoAndAnEmptySearchPointsToTheRemoved() throws {
        let books = try ServedBooks()
        let browser = WebBrowser(books)
        browser.signIn("alice")

        let removed = text(browser.send("GET", "/web/books/contacts/removed/"))
        let nobody = text(browser.send("GET", "/web/books/contacts/?q=nobody"))

        #expect(removed.contains("There is no history to show: this server keeps no history."))
        #expect(nobody.contains("Someone removed may be among the <a href=\"removed/\">removed people</a>."))
    }

    @Test func theSourceOfAChangeIsReadFromItsHeadline() {
        func source(_ headline: String) -> String {
            StoreHistoryVersion(commit: "", date: Date(), author: "", headline: headline, path: "", before: nil, after: nil).source
        }
        #expect(source("contacts: web: edit Katie Bell by kim") == "web pages")
        #expect(source("contacts: web family: add Gran by kim") == "web pages")
        #expect(source("contacts: serve: PUT by kim with DAVx5/4.4.2") == "CardDAV (DAVx5/4.4.2)")
        #expect(source("contacts: serve: DELETE") == "CardDAV")
        #expect(source("contacts: edit Katie Bell") == "contacts command")
        #expect(source("Fix a typo by hand") == "Git")
    }

    @Test func whoMadeAServersChangeIsTheUserItsHeadlineNames() {
        func who(_ headline: String) -> String {
            StoreHistoryVersion(commit: "", date: Date(), author: "server", headline: headline, path: "", before: nil, after: nil).who
        }
        #expect(who("contacts: web: edit Stand by Me by kim") == "kim")
        #expect(who("contacts: serve: PUT by kim with DAVx5/4.4.2") == "kim")
        #expect(who("contacts: serve: PUT with DAVx5/4.4.2") == "server")
        #expect(who("contacts: edit Stand by Me") == "server")
    }
}
