import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV
import PlainContactsSystem

/// The web pages' kept people list: caught up with each change, by whatever path it came, it
/// lists what a fresh read of the book lists.
@Suite struct WebBookListTests {
    private static let firstNames = ["Katie", "Oliver", "Angelina", "Lee", "Alicia", "Fred", "George", "Cho"]
    private static let lastNames = ["Bell", "Wood", "Johnson", "Jordan", "Spinnet", "Weasley", "Chang", "Adams"]

    /// Alice's book with 40 people (some sharing names, some with a phone or an email) and a
    /// group of every third, and a browser signed in as Alice.
    private func book() throws -> (ServedBooks, WebBrowser, Group) {
        let books = try ServedBooks()
        let book = try books.alice.openBook()
        var people: [Person] = []
        for index in 0..<40 {
            let person = Person()
            person.firstName = Self.firstNames[index % Self.firstNames.count]
            person.lastName = Self.lastNames[(index / 3) % Self.lastNames.count]
            if index % 2 == 0 { person.phones = MultiValue([("+1 555 01\(String(format: "%02d", index))", .mobile)]) }
            if index % 5 == 0 { person.emails = MultiValue([("p\(index)@example.com", .home)]) }
            try book.add(person)
            people.append(person)
        }
        let team = Group(name: "Team")
        try book.add(team)
        try book.save()
        for person in people.enumerated() where person.offset % 3 == 0 { try team.addMember(person.element) }
        try book.save()
        let browser = WebBrowser(books)
        browser.signIn("alice")
        return (books, browser, team)
    }

    /// The list the web pages give for `query`, read through the pages' kept lists.
    private func listed(_ browser: WebBrowser, _ books: ServedBooks, _ query: String = "") throws -> WebListingCache.Read {
        try browser.web.listing(CardDAVService.Target(book: books.service.home, access: .readWrite), query: WebForm(query))
    }

    /// Expects the kept lists to be what a fresh read of the book gives: everyone, searches,
    /// the group's members, the people with photos.
    private func expectFresh(_ browser: WebBrowser, _ books: ServedBooks, _ team: Group, _ comment: Comment) throws {
        let fresh = try books.alice.openBook()
        let everyone = try listed(browser, books)
        #expect(everyone.rows == fresh.listing(), comment)
        #expect(everyone.withPhotos == fresh.recordIDsWithSavedImages(), comment)
        for words in ["bel", "a", "katie wood", "zed", "o"] {
            #expect(try listed(browser, books, "q=" + WebForm.encoded(words)).rows == fresh.listing(matchingName: words), comment)
        }
        let group = try #require(fresh.group(withID: team.recordID))
        let members = Set(group.members().map(\.recordID))
        let inTeam = try listed(browser, books, "group=\(team.recordID.rawValue)")
        #expect(inTeam.chosen == team.recordID, comment)
        #expect(inTeam.rows == fresh.listing().filter { members.contains($0.recordID) }, comment)
        let found = try listed(browser, books, "q=bel&group=\(team.recordID.rawValue)").rows
        #expect(found == fresh.listing(matchingName: "bel").filter { members.contains($0.recordID) }, comment)
    }

    @Test func theKeptListIsTheBooksAfterChangesByEveryPath() throws {
        let (books, browser, team) = try book()
        try expectFresh(browser, books, team, "at first")
        let writer = books.service.home.writer
        let client = CardDAVWriter.Client(user: "alice", userAgent: nil)

        // Saved by another program, as `contacts set` does: a name that moves the person, a
        // phone, a person added, a person removed, a photo.
        let other = try books.alice.openBook()
        let people = other.allPeople()
        let memberIDs = Set(try #require(other.group(withID: team.recordID)).members().map(\.recordID))
        let outsiders = people.filter { !memberIDs.contains($0.recordID) }
        people[3].lastName = "Aardvark"
        people[7].phones = MultiValue([("+1 555 0777", .work)])
        people[9].setImageData(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let zed = Person()
        zed.firstName = "Zed"
        zed.lastName = "Bellamy"
        try other.add(zed)
        try other.remove(outsiders[5])
        try other.save()
        let reads = writer.bookReads
        try expectFresh(browser, books, team, "after another program's save")
        #expect(writer.bookReads == reads)

        // A file rewritten as `git pull` or an editor would.
        let file = books.alice.path(try books.alice.personFile(people[20]))
        let bytes = try String(contentsOf: file, encoding: .utf8)
        try bytes.replacingOccurrences(of: "\"\(people[20].firstName ?? "")\"", with: "\"Zacharias\"").write(
            to: file, atomically: true, encoding: .utf8)
        try expectFresh(browser, books, team, "after a file was rewritten")

        // A web edit, through the writer's operation the edit page calls.
        let key = try #require(people[25].key)
        _ = try writer.edit(personWithKey: key, ifMatch: nil, summary: { _ in "edit" }, client: client) { person in
            person.firstName = "Abigail"
            person.emails = MultiValue([("abigail@example.com", .work)])
        }
        try expectFresh(browser, books, team, "after a web edit")

        // A CardDAV client's new card, a card changed and a card removed.
        let card = CardDAVTestStore.card(uid: "new-1", first: "Lee", last: "Bellweather", extra: ["TEL;TYPE=CELL:+1 555 0999"])
        #expect(books.send("alice", "PUT", "/alice/contacts/new-1.vcf", body: card).status == 201)
        let changed = CardDAVTestStore.card(uid: "new-1", first: "Lee", last: "Abbott")
        #expect(books.send("alice", "PUT", "/alice/contacts/new-1.vcf", body: changed).status == 204)
        let gone = CardDAVEntry.Record(kind: .person, key: try #require(outsiders[8].key))
        let removed = try #require(try books.service.collection.listing().entries.values.first { $0.record == gone }?.name)
        #expect(books.send("alice", "DELETE", "/alice/contacts/\(removed)").status == 204)
        try expectFresh(browser, books, team, "after CardDAV writes")
    }

    @Test func theKeptListIsMadeAgainWhenTheSortOrderChanges() throws {
        let (books, browser, team) = try book()
        try expectFresh(browser, books, team, "at first")

        let other = try books.alice.openBook()
        other.sortOrdering = other.sortOrdering == .firstName ? .lastName : .firstName
        try other.save()

        try expectFresh(browser, books, team, "after the sort order changed")
    }

    @Test func aGroupChangedElsewhereIsListedAsTheBookHasIt() throws {
        let (books, browser, team) = try book()
        try expectFresh(browser, books, team, "at first")

        let other = try books.alice.openBook()
        let group = try #require(other.group(withID: team.recordID))
        let memberIDs = Set(group.members().map(\.recordID))
        let outsider = try #require(other.allPeople().first { !memberIDs.contains($0.recordID) })
        try group.addMember(outsider)
        try other.save()

        try expectFresh(browser, books, team, "after a member was added elsewhere")
    }

    @Test func theListsAreMadeWhenTheServerStarts() throws {
        let (books, browser, _) = try book()

        #expect(browser.web.prepareLists() == 40)

        let kept = try #require(browser.web.listings.whole(of: .home))
        #expect(kept.read(words: "", group: nil).rows == (try books.alice.openBook().listing()))
        #expect(kept.token == (try books.service.home.collection.token()))
    }

    // MARK: Kept between runs

    /// The list file of Alice's book.
    private func listFile(_ books: ServedBooks) -> URL {
        WebBookListFile.url(in: books.service.home.layout)
    }

    /// Starts a new service on the same stores, as a restarted server would, and makes its
    /// lists as the server does when it starts; gives its browser.
    private func restart(_ books: ServedBooks) throws -> WebBrowser {
        try books.restart()
        let browser = WebBrowser(books)
        browser.web.prepareLists()
        browser.web.listFiles.flush()
        return browser
    }

    /// Renames, adds and removes people in Alice's book as another program would while the
    /// server is stopped.
    private func changeElsewhere(_ books: ServedBooks, _ team: Group, _ round: Int) throws {
        let other = try books.alice.openBook()
        let memberIDs = Set(try #require(other.group(withID: team.recordID)).members().map(\.recordID))
        let outsiders = other.allPeople().filter { !memberIDs.contains($0.recordID) }
        outsiders[round].lastName = "Aardvark"
        outsiders[round + 1].firstName = "Zacharias"
        outsiders[round + 2].phones = MultiValue([("+1 555 0777", .work)])
        let added = Person()
        added.firstName = "Lee"
        added.lastName = "Bellamy \(round)"
        try other.add(added)
        try other.remove(outsiders[round + 3])
        try other.save()
    }

    @Test func aRestartCatchesTheKeptListUpWithWhatChangedWhileStopped() throws {
        let (books, browser, team) = try book()
        browser.web.prepareLists()
        browser.web.listFiles.flush()
        #expect(WebBookListFile.read(from: listFile(books)) != nil)

        try changeElsewhere(books, team, 0)
        let restarted = try restart(books)

        // The list came from its file, caught up without reading the book.
        #expect(books.service.home.writer.bookReads == 0)
        try expectFresh(restarted, books, team, "after a restart")
        let kept = try #require(WebBookListFile.read(from: listFile(books)))
        #expect(kept.token == (try books.service.home.collection.token()))
        #expect(kept.read(words: "", group: nil).rows == (try books.alice.openBook().listing()))
    }

    @Test func aRestartCatchesUpAListOlderThanTheCollectionsRecord() throws {
        let (books, browser, team) = try book()
        browser.web.prepareLists()
        browser.web.listFiles.flush()
        // The server saw changes (a removal among them) that no page asked for: its record of
        // the cards goes past the list's token.
        try changeElsewhere(books, team, 0)
        _ = try books.service.home.collection.token()
        try changeElsewhere(books, team, 4)
        let restarted = try restart(books)

        #expect(books.service.home.writer.bookReads == 0)
        try expectFresh(restarted, books, team, "after a restart behind the collection")
    }

    @Test func aRestartAfterTheSortOrderOrAGroupChangedMakesTheListAgain() throws {
        let (books, browser, team) = try book()
        browser.web.prepareLists()
        browser.web.listFiles.flush()

        let other = try books.alice.openBook()
        other.sortOrdering = other.sortOrdering == .firstName ? .lastName : .firstName
        try other.save()
        let sorted = try restart(books)
        try expectFresh(sorted, books, team, "after the sort order changed while stopped")
        #expect(WebBookListFile.read(from: listFile(books))?.settings == WebService.settingsSignature(of: books.service.home))

        let again = try books.alice.openBook()
        let group = try #require(again.group(withID: team.recordID))
        let memberIDs = Set(group.members().map(\.recordID))
        try group.addMember(try #require(again.allPeople().first { !memberIDs.contains($0.recordID) }))
        try again.save()
        try expectFresh(try restart(books), books, team, "after a group changed while stopped")
    }

    @Test(arguments: ["damaged", "old version"])
    func anUnreadableListFileIsMadeAgain(_ damage: String) throws {
        let (books, browser, team) = try book()
        browser.web.prepareLists()
        browser.web.listFiles.flush()
        let url = listFile(books)
        var bytes = [UInt8](try Data(contentsOf: url))
        if damage == "damaged" {
            bytes.removeLast(bytes.count / 3)
        } else {
            // The first line names the version: "plaincontacts-web-list\t1\t…".
            let head = Array("plaincontacts-web-list\t\(WebBookListFile.formatVersion)\t".utf8)
            #expect(bytes.starts(with: head))
            bytes[head.count - 2] = UInt8(ascii: "0")
        }
        try Data(bytes).write(to: url)
        #expect(WebBookListFile.read(from: url) == nil)

        let restarted = try restart(books)
        #expect(books.service.home.writer.bookReads == 1)
        try expectFresh(restarted, books, team, "after a restart with a \(damage) list file")
        #expect(WebBookListFile.read(from: url)?.token == (try books.service.home.collection.token()))
    }

    @Test func theListFileIsNotWrittenAgainWhenNothingChanged() throws {
        let (books, browser, team) = try book()
        browser.web.prepareLists()
        browser.web.listFiles.flush()
        let path = listFile(books).path(percentEncoded: false)
        let written = FileSignature.of(path)
        #expect(written != nil)

        let restarted = try restart(books)
        try expectFresh(restarted, books, team, "after a restart")
        restarted.web.listFiles.flush()
        #expect(FileSignature.of(path) == written)

        try changeElsewhere(books, team, 0)
        try expectFresh(restarted, books, team, "after a change")
        restarted.web.listFiles.flush()
        #expect(FileSignature.of(path) != written)
    }
}
