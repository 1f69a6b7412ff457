import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// What a client puts, it gets back: the card as sent, under the ETag of the `PUT`, by every
/// way of reading it, until the record changes by another path.
@Suite struct CardDAVServiceSentCardTests {
    private static let namespaces = #"xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav""#

    /// Cards as clients write them, each unlike the card the store would make.
    static let cards: [String] = [
        // Another property order than the store's.
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Katie Bell\r\nUID:k\r\nN:Bell;Katie;;;\r\nEND:VCARD\r\n",
        // Bare line feeds.
        "BEGIN:VCARD\nVERSION:3.0\nUID:k\nN:Bell;Katie;;;\nFN:Katie Bell\nEND:VCARD\n",
        // A folded line the store writes unfolded.
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:k\r\nN:Bell;Katie;;;\r\nFN:Katie\r\n  Bell\r\nEND:VCARD\r\n",
        // A revision the store writes in its own form.
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:k\r\nN:Bell;Katie;;;\r\nFN:Katie Bell\r\nREV:2020-01-01T00:00:00Z\r\nEND:VCARD\r\n",
        // Parameters in lower case, and a type the store spells otherwise.
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:k\r\nN:Bell;Katie;;;\r\nFN:Katie Bell\r\ntel;type=cell,voice:+44 555 0100\r\nEND:VCARD\r\n",
        // Apple's grouped lines with a custom label, and unknown X- lines.
        "BEGIN:VCARD\r\nVERSION:3.0\r\nPRODID:-//Apple Inc.//iOS 17.0//EN\r\nN:Bell;Katie;;;\r\nFN:Katie Bell\r\n"
            + "item1.EMAIL;type=INTERNET;type=pref:katie@hogwarts.example\r\nitem1.X-ABLabel:Quidditch\r\n"
            + "X-SOCIALPROFILE;type=twitter:x-apple:katiebell\r\nX-UNKNOWN-THING;X-PARAM=1:kept\r\nUID:k\r\nEND:VCARD\r\n",
        // A photo.
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:k\r\nN:Bell;Katie;;;\r\nFN:Katie Bell\r\n"
            + "PHOTO;ENCODING=b;TYPE=PNG:iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk\r\n"
            + " +M/wHwAEAQH/jxYZbQAAAABJRU5ErkJggg==\r\nEND:VCARD\r\n",
        // A vCard 4.0 card.
        "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:urn:uuid:8f2a1c3e-5b7d-4e9f-a1b2-c3d4e5f60718\r\nFN:Katie Bell\r\nN:Bell;Katie;;;\r\n"
            + "TEL;VALUE=uri;TYPE=\"voice,cell\":tel:+44-555-0100\r\nKIND:individual\r\nEND:VCARD\r\n",
    ]

    private func multiget(_ server: CardDAVTestStore, _ name: String) throws -> (etag: String?, data: String?) {
        let body = "<card:addressbook-multiget \(Self.namespaces)><d:prop><d:getetag/><card:address-data/></d:prop>"
            + "<d:href>\(server.cardPath(name))</d:href></card:addressbook-multiget>"
        let answer = try server.multistatus(server.send("REPORT", server.collectionPath, headers: [("Depth", "1")], body: body))
        let response = try #require(answer.responses.first)
        return (response.property(.dav("getetag"))?.text, response.property(.cardDAV("address-data"))?.text)
    }

    private func query(_ server: CardDAVTestStore) throws -> (etag: String?, data: String?) {
        let body = "<card:addressbook-query \(Self.namespaces)><d:prop><d:getetag/><card:address-data/></d:prop>"
            + "<card:filter><card:prop-filter name=\"FN\"><card:text-match>Katie</card:text-match></card:prop-filter></card:filter>"
            + "</card:addressbook-query>"
        let answer = try server.multistatus(server.send("REPORT", server.collectionPath, headers: [("Depth", "1")], body: body))
        let response = try #require(answer.responses.first)
        return (response.property(.dav("getetag"))?.text, response.property(.cardDAV("address-data"))?.text)
    }

    private func changes(_ server: CardDAVTestStore) throws -> (etag: String?, data: String?) {
        let answer = try server.multistatus(server.syncCollection("", properties: ["d:getetag", "card:address-data"]))
        let response = try #require(answer.responses.first { $0.href == server.cardPath("k.vcf") })
        return (response.property(.dav("getetag"))?.text, response.property(.cardDAV("address-data"))?.text)
    }

    /// Every way a client reads the card gives `card` under `etag`.
    private func expectServedAsSent(_ server: CardDAVTestStore, _ card: String, etag: String) throws {
        let got = server.send("GET", server.cardPath("k.vcf"))
        #expect(got.body == Data(card.utf8))
        #expect(got.headers["ETag"] == etag)
        #expect(try server.etags()[server.cardPath("k.vcf")] == etag)
        for (read, way) in [(try multiget(server, "k.vcf"), "multiget"), (try query(server), "query"), (try changes(server), "sync-collection")] {
            #expect(read.etag == etag, "\(way)")
            #expect(read.data == card, "\(way)")
        }
    }

    @Test(arguments: cards)
    func aCardIsServedAsSentUnderTheETagOfThePut(card: String) throws {
        let server = try CardDAVTestStore()
        let created = server.put("k.vcf", card)
        #expect(created.status == 201)
        let etag = try #require(created.headers["ETag"])
        #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
        try expectServedAsSent(server, card, etag: etag)

        // Put again as it was read: the same card, the same ETag.
        let replaced = server.put("k.vcf", card, headers: [("If-Match", etag)])
        #expect(replaced.status == 204)
        #expect(replaced.headers["ETag"] == etag)

        try server.restart()
        try expectServedAsSent(server, card, etag: etag)
        #expect(try server.store.openBook().allPeople().count == 1)
    }

    @Test func aBulkChangeBesideItListsTheSentCardUnderItsETag() throws {
        let server = try CardDAVTestStore()
        let card = Self.cards[5]
        let etag = try #require(server.put("k.vcf", card).headers["ETag"])
        // More people than a listing makes cards for, and a server without its state file: every
        // record is listed anew, the sent card's ETag from the listing of its record file alone.
        let book = try server.store.openBook()
        for index in 0..<(CardDAVRefresher.bulkChange + 10) { try book.add(makePerson("Bulk", "\(index)")) }
        try book.save()
        try FileManager.default.removeItem(at: CardDAVStateFile.url(in: StoreLayout(root: server.store.storeURL)))
        try server.restart()
        let listing = try server.service.collection.listing()
        #expect(listing.entries["k.vcf"]?.etag == etag.trimmingCharacters(in: ["\""]))
        try expectServedAsSent(server, card, etag: etag)
    }

    @Test func aCardWithoutUIDIsCompletedAndAnsweredWithoutAnETag() throws {
        let server = try CardDAVTestStore()
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Bell;Katie;;;\r\nFN:Katie Bell\r\nEND:VCARD\r\n"
        let created = server.put("k.vcf", card)
        #expect(created.status == 201)
        #expect(created.headers["ETag"] == nil)
        let served = String(decoding: server.send("GET", server.cardPath("k.vcf")).body, as: UTF8.self)
        #expect(served.contains("UID:k\r\n"))
    }

    @Test func anEditByAnotherPathChangesTheETagOnceAndServesTheStoresCard() throws {
        let server = try CardDAVTestStore()
        let card = Self.cards[5]
        let etag = try #require(server.put("k.vcf", card).headers["ETag"])
        let book = try server.store.openBook()
        let person = try #require(book.allPeople().first)
        person.note = "Chaser"
        try book.save()

        let edited = server.send("GET", server.cardPath("k.vcf"))
        let newETag = try #require(edited.headers["ETag"])
        #expect(newETag != etag)
        let text = String(decoding: edited.body, as: UTF8.self)
        #expect(text.contains("NOTE:Chaser") && text.contains("katie@hogwarts.example") && text.contains("X-UNKNOWN-THING;X-PARAM=1:kept"))
        #expect(!text.contains("X-PLAINCONTACTS-KEY"))
        #expect(server.send("GET", server.cardPath("k.vcf")).headers["ETag"] == newETag)
        #expect(try server.etags()[server.cardPath("k.vcf")] == newETag)
        try server.restart()
        #expect(server.send("GET", server.cardPath("k.vcf")).headers["ETag"] == newETag)
        #expect(server.send("GET", server.cardPath("k.vcf")).body == edited.body)
        // The card sent is forgotten with its file.
        let sent = CardDAVStateFile.folder(in: StoreLayout(root: server.store.storeURL)).appending(path: "sent")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sent.path(percentEncoded: false)).isEmpty)
    }

    @Test func aRemovedCardTakesItsSentCardAlong() throws {
        let server = try CardDAVTestStore()
        let etag = try #require(server.put("k.vcf", Self.cards[0]).headers["ETag"])
        #expect(server.send("DELETE", server.cardPath("k.vcf"), headers: [("If-Match", etag)]).status == 204)
        let sent = CardDAVStateFile.folder(in: StoreLayout(root: server.store.storeURL)).appending(path: "sent")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sent.path(percentEncoded: false)).isEmpty)
        #expect(server.send("GET", server.cardPath("k.vcf")).status == 404)
    }

    @Test func aCardWhoseRecordWentWhileTheServerWasStoppedIsForgotten() throws {
        let server = try CardDAVTestStore()
        #expect(server.put("k.vcf", Self.cards[0]).headers["ETag"] != nil)
        let book = try server.store.openBook()
        try book.remove(try #require(book.allPeople().first))
        try book.save()
        try FileManager.default.removeItem(at: CardDAVStateFile.url(in: StoreLayout(root: server.store.storeURL)))
        try server.restart()
        let sent = CardDAVStateFile.folder(in: StoreLayout(root: server.store.storeURL)).appending(path: "sent")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sent.path(percentEncoded: false)).isEmpty)
    }

    @Test func aCardTheStoreMadeCarriesNoLineOfItsOwn() throws {
        let server = try CardDAVTestStore()
        try server.addPerson("Katie", "Bell", email: "katie@example.com", uid: "katie")
        let text = String(decoding: server.send("GET", server.cardPath("katie.vcf")).body, as: UTF8.self)
        #expect(!text.contains("X-PLAINCONTACTS"))
    }

    @Test func theCardInTheOtherVersionIsMadeFromTheRecordUnderTheSameETag() throws {
        let server = try CardDAVTestStore()
        let card = Self.cards[4]
        let etag = try #require(server.put("k.vcf", card).headers["ETag"])
        let asked = server.send("GET", server.cardPath("k.vcf"), headers: [("Accept", "text/vcard; version=4.0")])
        let text = String(decoding: asked.body, as: UTF8.self)
        #expect(text.contains("VERSION:4.0") && text.contains("555 0100"))
        #expect(asked.headers["ETag"] == etag)
        #expect(server.send("GET", server.cardPath("k.vcf")).body == Data(card.utf8))
    }
}
