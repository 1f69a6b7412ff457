import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct CardDAVServiceGetTests {
    @Test func getGivesTheCardAsExportMakesItWithItsETag() throws {
        let server = try CardDAVTestStore()
        let id = try server.addPerson("Katie", "Bell", email: "katie@example.com", uid: "katie")
        let response = server.send("GET", server.cardPath("katie.vcf"))
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "text/vcard; charset=utf-8")
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(text.hasPrefix("BEGIN:VCARD\r\nVERSION:3.0\r\n"))
        #expect(text.contains("UID:katie") && text.contains("katie@example.com") && text.contains("FN:Katie Bell"))
        let book = try server.store.openBook()
        let person = try #require(book.person(withID: id))
        #expect(response.body == (CardMapping.data(for: person, imageData: try person.imageData(), carryingKey: false)))
        let etags = try server.etags()
        #expect(response.headers["ETag"] == etags[server.cardPath("katie.vcf")])
        #expect(response.headers["Last-Modified"] != nil)
    }

    @Test func headGivesTheHeadersOfGet() throws {
        let server = try CardDAVTestStore()
        try server.addPerson("Katie", "Bell", uid: "katie")
        let get = server.send("GET", server.cardPath("katie.vcf"))
        let head = server.send("HEAD", server.cardPath("katie.vcf"))
        #expect(head.status == 200)
        #expect(head.headers["ETag"] == get.headers["ETag"])
        #expect(head.headers["Content-Type"] == get.headers["Content-Type"])
    }

    @Test func conditionalGetsAnswer304And412() throws {
        let server = try CardDAVTestStore()
        try server.addPerson("Katie", "Bell", uid: "katie")
        let etag = try #require(server.send("GET", server.cardPath("katie.vcf")).headers["ETag"])
        #expect(server.send("GET", server.cardPath("katie.vcf"), headers: [("If-None-Match", etag)]).status == 304)
        #expect(server.send("GET", server.cardPath("katie.vcf"), headers: [("If-None-Match", "\"other\"")]).status == 200)
        #expect(server.send("GET", server.cardPath("katie.vcf"), headers: [("If-Match", "\"other\"")]).status == 412)
    }

    @Test func theETagChangesExactlyWhenTheCardChanges() throws {
        let server = try CardDAVTestStore()
        let id = try server.addPerson("Katie", "Bell", uid: "katie")
        let first = try #require(server.send("GET", server.cardPath("katie.vcf")).headers["ETag"])
        // A save that does not change the card (the same value set again) keeps the ETag.
        try server.editPerson(id) { $0.lastName = "Bell" }
        #expect(server.send("GET", server.cardPath("katie.vcf")).headers["ETag"] == first)
        try server.editPerson(id) { $0.lastName = "Weasley" }
        let second = server.send("GET", server.cardPath("katie.vcf"))
        #expect(second.headers["ETag"] != first)
        #expect(String(decoding: second.body, as: UTF8.self).contains("Weasley"))
    }

    @Test func aMissingCardIs404() throws {
        let server = try CardDAVTestStore()
        #expect(server.send("GET", server.cardPath("nobody.vcf")).status == 404)
    }

    @Test func aGroupIsACardInApplesFormByDefault() throws {
        let server = try CardDAVTestStore()
        let katie = try server.addPerson("Katie", "Bell", uid: "katie")
        let book = try server.store.openBook()
        let friends = Group(name: "Friends")
        try book.add(friends)
        try book.save()
        try friends.addMember(try #require(book.person(withID: katie)))
        try book.save()
        let names = try server.etags().keys.map { $0.replacingOccurrences(of: server.collectionPath, with: "") }
        let groupName = try #require(names.first { $0 != "katie.vcf" })
        let text = String(decoding: server.send("GET", server.cardPath(groupName)).body, as: UTF8.self)
        #expect(text.contains("X-ADDRESSBOOKSERVER-KIND:group"))
        #expect(text.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:katie"))
        #expect(text.contains("FN:Friends"))
    }
}
