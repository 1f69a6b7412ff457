import Foundation
import Synchronization
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct CardDAVServicePutTests {
    @Test func aNewCardIsSavedAsAPersonKeepingItsUIDAndHref() throws {
        let server = try CardDAVTestStore()
        let card = CardDAVTestStore.card(
            uid: "F00D-1", first: "Katie", last: "Bell", extra: ["EMAIL;TYPE=HOME:katie@example.com", "X-UNKNOWN:kept"])
        let response = server.put("client-chosen name.vcf", card, headers: [("If-None-Match", "*")])
        #expect(response.status == 201)
        let etag = try #require(server.send("GET", server.cardPath("client-chosen name.vcf")).headers["ETag"])
        let people = try server.store.openBook().allPeople()
        #expect(people.count == 1)
        #expect(people.first?.firstName == "Katie")
        #expect(people.first.flatMap { VCardRecordFields.uid(of: $0.state) } == "F00D-1")
        #expect(try server.etags() == [server.cardPath("client-chosen name.vcf"): etag])
        let text = String(decoding: server.send("GET", server.cardPath("client-chosen name.vcf")).body, as: UTF8.self)
        #expect(text.contains("UID:F00D-1") && text.contains("X-UNKNOWN:kept") && text.contains("katie@example.com"))
    }

    @Test func replacingACardKeepsWhatTheModelDoesNotKnow() throws {
        let server = try CardDAVTestStore()
        let original = CardDAVTestStore.card(
            uid: "k", first: "Katie", last: "Bell", extra: ["ROLE:Chaser", "X-SIP:katie@sip.example", "TEL;TYPE=CELL:555 0100"])
        #expect(server.put("k.vcf", original).status == 201)
        let etag = try #require(server.send("GET", server.cardPath("k.vcf")).headers["ETag"])
        // The client edits what it got and sends it back.
        var text = String(decoding: server.send("GET", server.cardPath("k.vcf")).body, as: UTF8.self)
        text = text.replacingOccurrences(of: "555 0100", with: "555 0199")
        let replaced = server.put("k.vcf", text, headers: [("If-Match", etag)])
        #expect(replaced.status == 204)
        #expect(replaced.headers["ETag"] != etag)
        let after = String(decoding: server.send("GET", server.cardPath("k.vcf")).body, as: UTF8.self)
        #expect(after.contains("555 0199") && !after.contains("555 0100"))
        #expect(after.contains("ROLE:Chaser") && after.contains("X-SIP:katie@sip.example"))
        #expect(try server.store.openBook().allPeople().count == 1)
    }

    @Test func aReplacementKeepsTheRecordAndItsID() throws {
        let server = try CardDAVTestStore()
        let id = try server.addPerson("Katie", "Bell", uid: "katie")
        let text = CardDAVTestStore.card(uid: "katie", first: "Katie", last: "Weasley")
        #expect(server.put("katie.vcf", text).status == 204)
        let book = try server.store.openBook()
        #expect(book.person(withID: id)?.lastName == "Weasley")
        #expect(book.allPeople().count == 1)
    }

    @Test func aCardStoredAsSentIsAnsweredWithItsETag() throws {
        let server = try CardDAVTestStore()
        server.put("k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell", extra: ["TEL;TYPE=CELL:555 0100"]))
        let read = server.send("GET", server.cardPath("k.vcf"))
        let etag = try #require(read.headers["ETag"])
        // The client sends back the card it read: the store serves it as sent.
        let replaced = server.send(
            "PUT", server.cardPath("k.vcf"), headers: [("Content-Type", "text/vcard"), ("If-Match", etag)],
            body: String(decoding: read.body, as: UTF8.self))
        #expect(replaced.status == 204)
        #expect(replaced.headers["ETag"] == etag)
        #expect(server.send("GET", server.cardPath("k.vcf")).body == read.body)
    }

    @Test func preconditionsThatFailAre412AndWriteNothing() throws {
        let server = try CardDAVTestStore()
        server.put("k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell"))
        let before = try server.snapshot()
        let card = CardDAVTestStore.card(uid: "k", first: "Katie", last: "Weasley")
        #expect(server.put("k.vcf", card, headers: [("If-None-Match", "*")]).status == 412)
        #expect(server.put("k.vcf", card, headers: [("If-Match", "\"stale\"")]).status == 412)
        #expect(server.put("k.vcf", card, headers: [("If-Match", "W/\"stale\"")]).status == 412)
        #expect(server.put("new.vcf", CardDAVTestStore.card(uid: "n", first: "N", last: "N"), headers: [("If-Match", "*")]).status == 412)
        #expect(server.send("DELETE", server.cardPath("k.vcf"), headers: [("If-Match", "\"stale\"")]).status == 412)
        #expect(try server.snapshot() == before)
    }

    @Test(arguments: [
        "not a vcard",
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:No end\r\n",
        "BEGIN:VCARD\r\nVERSION:3.0\r\nthis line has no colon\r\nEND:VCARD\r\n",
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nEND:VCARD\r\nBEGIN:VCARD\r\nVERSION:3.0\r\nFN:B\r\nEND:VCARD\r\n",
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nPHOTO;ENCODING=b:!!!notbase64!!!\r\nEND:VCARD\r\n",
        "BEGIN:VCARD\r\nVERSION:3.0\r\nX-ADDRESSBOOKSERVER-KIND:group\r\nEND:VCARD\r\n",
        "",
    ])
    func aMalformedCardIs400AndWritesNothing(body: String) throws {
        let server = try CardDAVTestStore()
        try server.addPerson("Katie", "Bell", uid: "katie")
        _ = try server.etags()
        let before = try server.snapshot()
        let new = server.put("x.vcf", body)
        #expect(new.status == 400)
        #expect(server.put("katie.vcf", body).status == 400)
        #expect(try server.snapshot() == before)
    }

    @Test func anotherContentTypeIs415() throws {
        let server = try CardDAVTestStore()
        let card = CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell")
        let before = try server.snapshot()
        let response = server.send("PUT", server.cardPath("k.vcf"), headers: [("Content-Type", "application/json")], body: card)
        #expect(response.status == 415)
        #expect(try server.snapshot() == before)
        #expect(server.send("PUT", server.cardPath("k.vcf"), headers: [("Content-Type", "text/x-vcard")], body: card).status == 201)
    }

    @Test func aUIDOfAnotherCardIs409NamingIt() throws {
        let server = try CardDAVTestStore()
        server.put("a.vcf", CardDAVTestStore.card(uid: "same", first: "Katie", last: "Bell"))
        let response = server.put("b.vcf", CardDAVTestStore.card(uid: "same", first: "Other", last: "Person"))
        #expect(response.status == 409)
        let error = try WebDAVXML.parse(response.body, maximumDepth: 8)
        #expect(error.child(.cardDAV("no-uid-conflict"))?.child(.dav("href"))?.text == server.cardPath("a.vcf"))
        #expect(try server.store.openBook().allPeople().count == 1)
    }

    @Test func aCardWithoutUIDTakesItsNameAsUID() throws {
        let server = try CardDAVTestStore()
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Bell;Katie;;;\r\nFN:Katie Bell\r\nEND:VCARD\r\n"
        #expect(server.put("abc.vcf", card).status == 201)
        #expect(String(decoding: server.send("GET", server.cardPath("abc.vcf")).body, as: UTF8.self).contains("UID:abc"))
    }

    @Test func aVCard4CardIsAcceptedAndKeepsItsUID() throws {
        let server = try CardDAVTestStore()
        let card = "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:urn:uuid:v4\r\nFN:Katie Bell\r\nN:Bell;Katie;;;\r\nEMAIL:k@example.com\r\nEND:VCARD\r\n"
        #expect(server.put("v4.vcf", card).status == 201)
        let text = String(decoding: server.send("GET", server.cardPath("v4.vcf")).body, as: UTF8.self)
        #expect(text.contains("k@example.com") && text.contains("UID:urn:uuid:v4"))
    }

    @Test func anOversizedCardIsRefused() throws {
        let server = try CardDAVTestStore()
        let card = CardDAVTestStore.card(
            uid: "k", first: "K", last: "B", extra: ["NOTE:" + String(repeating: "x", count: CardDAVService.maximumCardSize)])
        let response = server.put("k.vcf", card)
        #expect(response.status == 403)
        #expect(String(decoding: response.body, as: UTF8.self).contains("max-resource-size"))
    }

    @Test func deleteRemovesThePersonAndTheCard() throws {
        let server = try CardDAVTestStore()
        #expect(server.put("k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell")).status == 201)
        let etag = try #require(server.send("GET", server.cardPath("k.vcf")).headers["ETag"])
        #expect(server.send("DELETE", server.cardPath("k.vcf"), headers: [("If-Match", etag)]).status == 204)
        #expect(try server.store.openBook().allPeople().isEmpty)
        #expect(server.send("GET", server.cardPath("k.vcf")).status == 404)
        #expect(server.send("DELETE", server.cardPath("k.vcf")).status == 404)
    }
}

@Suite struct CardDAVServiceAfterWriteTests {
    @Test func eachSavedWriteIsReportedOnceAndFailuresAreNot() throws {
        let server = try CardDAVTestStore()
        let writes = Mutex<[CardDAVWrite]>([])
        let service = try CardDAVService(storeURL: server.store.storeURL, afterWrite: { write in writes.withLock { $0.append(write) } })
        func send(_ method: String, _ name: String, _ body: String = "", _ headers: HTTPHeaderFields = [:]) -> Int {
            var headers = headers
            headers.append("User-Agent", "DAVx5/4.4")
            return service.respond(
                to: HTTPServerRequest(method: method, target: server.cardPath(name), headers: headers, body: Data(body.utf8)),
                user: nil
            ).status
        }
        #expect(send("PUT", "k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell")) == 201)
        #expect(send("PUT", "bad.vcf", "BEGIN:VCARD") == 400)
        #expect(send("DELETE", "k.vcf", "", ["If-Match": "\"stale\""]) == 412)
        #expect(send("DELETE", "k.vcf") == 204)
        let recorded = writes.withLock { $0 }
        #expect(recorded.map(\.method) == ["PUT", "DELETE"])
        #expect(recorded.allSatisfy { $0.userAgent == "DAVx5/4.4" && $0.record.kind == .person })
    }
}
