import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct CardDAVServiceSyncCollectionTests {
    private func changes(_ answer: WebDAVMultistatus, _ server: CardDAVTestStore) -> (changed: Set<String>, removed: Set<String>) {
        let name = { (href: String) in String(href.dropFirst(server.collectionPath.count)).removingPercentEncoding ?? href }
        return (
            Set(answer.responses.filter { $0.status == nil }.map { name($0.href) }),
            Set(answer.responses.filter { $0.status == 404 }.map { name($0.href) })
        )
    }

    @Test func aFirstSyncListsEveryCardThenOnlyChangesAndRemovals() throws {
        let server = try CardDAVTestStore()
        server.put("k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell"))
        server.put("a.vcf", CardDAVTestStore.card(uid: "a", first: "Alicia", last: "Spinnet"))
        server.put("o.vcf", CardDAVTestStore.card(uid: "o", first: "Oliver", last: "Wood"))
        let first = try server.multistatus(server.syncCollection(""))
        #expect(changes(first, server).changed == ["k.vcf", "a.vcf", "o.vcf"])
        let token = try #require(first.syncToken)
        let unchanged = try server.multistatus(server.syncCollection(token))
        #expect(unchanged.responses.isEmpty)
        #expect(unchanged.syncToken == token)

        server.put("k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Weasley"))
        #expect(server.send("DELETE", server.cardPath("o.vcf")).status == 204)
        server.put("n.vcf", CardDAVTestStore.card(uid: "n", first: "New", last: "Person"))
        let next = try server.multistatus(server.syncCollection(token, properties: ["d:getetag", "card:address-data"]))
        #expect(changes(next, server).changed == ["k.vcf", "n.vcf"])
        #expect(changes(next, server).removed == ["o.vcf"])
        #expect(next.responses.first { $0.href == server.cardPath("k.vcf") }?.property(.cardDAV("address-data"))?.text.contains("Weasley") == true)
        #expect(next.syncToken != token)
        let etags = try server.etags()
        #expect(next.responses.first { $0.href == server.cardPath("n.vcf") }?.property(.dav("getetag"))?.text == etags[server.cardPath("n.vcf")])
    }

    @Test func changesMadeOutsideTheServerAreSeen() throws {
        let server = try CardDAVTestStore()
        let katie = try server.addPerson("Katie", "Bell", uid: "k")
        let oliver = try server.addPerson("Oliver", "Wood", uid: "o")
        let first = try server.multistatus(server.syncCollection(""))
        let token = try #require(first.syncToken)
        let ctag = try server.propfind(server.collectionPath, depth: "0", ["cs:getctag"]).responses.first?.property(.calendarServer("getctag"))?.text

        try server.editPerson(katie) { $0.lastName = "Weasley" }
        let book = try server.store.openBook()
        try book.remove(try #require(book.person(withID: oliver)))
        try book.save()
        try server.addPerson("New", "Person", uid: "n")

        let next = try server.multistatus(server.syncCollection(token))
        #expect(changes(next, server).changed == ["k.vcf", "n.vcf"])
        #expect(changes(next, server).removed == ["o.vcf"])
        let newCtag = try server.propfind(server.collectionPath, depth: "0", ["cs:getctag"]).responses.first?.property(.calendarServer("getctag"))?.text
        #expect(newCtag != ctag)
    }

    @Test func anEditOfAFileByHandIsSeen() throws {
        let server = try CardDAVTestStore()
        let katie = try server.addPerson("Katie", "Bell", uid: "k")
        let token = try #require(try server.multistatus(server.syncCollection("")).syncToken)
        let book = try server.store.openBook()
        let path = server.store.path(try server.store.personFile(try #require(book.person(withID: katie))))
        let text = try String(contentsOf: path, encoding: .utf8).replacingOccurrences(of: "\"Bell\"", with: "\"Bell-Weasley\"")
        // Written in place, as an editor may.
        let handle = try FileHandle(forWritingTo: path)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        let next = try server.multistatus(server.syncCollection(token, properties: ["card:address-data"]))
        #expect(changes(next, server).changed == ["k.vcf"])
        #expect(next.responses.first?.property(.cardDAV("address-data"))?.text.contains("Bell-Weasley") == true)
    }

    @Test func tokensSurviveARestart() throws {
        let server = try CardDAVTestStore()
        server.put("k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell"))
        server.put("client name.vcf", CardDAVTestStore.card(uid: "c", first: "Cho", last: "Chang"))
        let token = try #require(try server.multistatus(server.syncCollection("")).syncToken)
        let etags = try server.etags()
        try server.restart()
        #expect(try server.etags() == etags)
        let unchanged = try server.multistatus(server.syncCollection(token))
        #expect(unchanged.responses.isEmpty)
        // A change made while the server is stopped is seen by the next one.
        let book = try server.store.openBook()
        try #require(book.allPeople().first { $0.firstName == "Katie" }).lastName = "Weasley"
        try book.save()
        try server.restart()
        let next = try server.multistatus(server.syncCollection(token))
        #expect(changes(next, server).changed == ["k.vcf"])
        #expect(try server.etags().keys.contains(server.cardPath("client name.vcf")))
    }

    @Test func aTokenTheServerCannotAnswerIsRefusedWithValidSyncToken() throws {
        let server = try CardDAVTestStore()
        server.put("k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell"))
        let token = try #require(try server.multistatus(server.syncCollection("")).syncToken)
        let parsed = try #require(CardDAVSyncToken(uri: token))
        let invalid = [
            "http://example.com/other-server-token", CardDAVSyncToken(instance: "0000", sequence: parsed.sequence).uri,
            CardDAVSyncToken(instance: parsed.instance, sequence: parsed.sequence + 100).uri,
        ]
        for text in invalid {
            let response = server.syncCollection(text)
            #expect(response.status == 403)
            #expect(String(decoding: response.body, as: UTF8.self).contains("valid-sync-token"))
        }
        // The state file lost: the server starts a new history, and old tokens are refused.
        try FileManager.default.removeItem(at: CardDAVStateFile.url(in: StoreLayout(root: server.store.storeURL)))
        try server.restart()
        #expect(server.syncCollection(token).status == 403)
        #expect(try server.etags().count == 1)
    }

    @Test func aLimitAnswersTheFirstChangesAndATokenToGoOn() throws {
        let server = try CardDAVTestStore()
        for index in 0..<5 { server.put("\(index).vcf", CardDAVTestStore.card(uid: "\(index)", first: "P", last: "\(index)")) }
        let limit = "<d:limit><d:nresults>2</d:nresults></d:limit>"
        var seen: Set<String> = []
        var token = ""
        for _ in 0..<3 {
            let answer = try server.multistatus(server.syncCollection(token, extra: limit))
            seen.formUnion(changes(answer, server).changed)
            token = try #require(answer.syncToken)
        }
        #expect(seen == ["0.vcf", "1.vcf", "2.vcf", "3.vcf", "4.vcf"])
        #expect(try server.multistatus(server.syncCollection(token)).responses.isEmpty)
    }

    @Test func aRenameKeepsTheHref() throws {
        let server = try CardDAVTestStore()
        server.put("Chosen By Client.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell"))
        let id = try #require(try server.store.openBook().allPeople().first?.recordID)
        let token = try #require(try server.multistatus(server.syncCollection("")).syncToken)
        try server.editPerson(id) { person in
            person.firstName = "Katherine"
            person.lastName = "Weasley"
        }
        server.put("Chosen By Client.vcf", CardDAVTestStore.card(uid: "k", first: "Kate", last: "Weasley"))
        try server.restart()
        let next = try server.multistatus(server.syncCollection(token))
        #expect(changes(next, server) == (["Chosen By Client.vcf"], []))
        #expect(try server.etags().keys.sorted() == [server.cardPath("Chosen By Client.vcf")])
    }
}
