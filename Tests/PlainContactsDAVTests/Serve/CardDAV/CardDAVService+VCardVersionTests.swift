import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// Cards in the vCard version each client asks for: `address-data`'s `version` in reports,
/// `Accept` in `GET`; the card's one ETag for every version; nothing lost either way.
@Suite struct CardDAVServiceVCardVersionTests {
    private static let namespaces = "xmlns:d=\"DAV:\" xmlns:card=\"urn:ietf:params:xml:ns:carddav\""

    /// A rich card in vCard 3.0, as iOS writes one.
    private static let richCard3 = """
        BEGIN:VCARD\r
        VERSION:3.0\r
        PRODID:-//Apple Inc.//iPhone OS 18.1//EN\r
        UID:rich3\r
        N:Bell;Katie;Anne;Dr.;PhD\r
        FN:Dr. Katie Anne Bell PhD\r
        NICKNAME:Kat\r
        ORG:Holyhead Harpies;Chasers\r
        TITLE:Chaser\r
        EMAIL;TYPE=INTERNET;TYPE=WORK;TYPE=pref:katie@harpies.example\r
        EMAIL;TYPE=INTERNET;TYPE=HOME:katie@home.example\r
        TEL;TYPE=CELL;TYPE=VOICE:+44 555 0100\r
        TEL;TYPE=WORK;TYPE=VOICE:+44 555 0199\r
        item1.ADR;TYPE=HOME:;;1 Pitch Lane;Holyhead;Anglesey;LL65;United Kingdom\r
        item1.X-ABADR:gb\r
        URL;TYPE=WORK:https://harpies.example/katie\r
        BDAY:1986-10-10\r
        NOTE:Plays\\, and trains.\\nTwice a week.\r
        X-CUSTOM-THING:kept as is\r
        END:VCARD\r

        """

    /// A rich card in vCard 4.0, as DAVx5 writes one.
    private static let richCard4 = """
        BEGIN:VCARD\r
        VERSION:4.0\r
        PRODID:ez-vcard 0.12.1\r
        UID:urn:uuid:rich4\r
        N:Wood;Oliver;;;\r
        FN:Oliver Wood\r
        NICKNAME:Ollie\r
        ORG:Puddlemere United\r
        EMAIL;TYPE=home:oliver@home.example\r
        EMAIL;TYPE=work:oliver@puddlemere.example\r
        TEL;TYPE=cell:+44 555 0300\r
        ADR;TYPE=work:;;Stadium Road;Puddlemere;;PM1 1AA;United Kingdom\r
        URL:https://puddlemere.example/oliver\r
        BDAY:19750510\r
        ANNIVERSARY:20100612\r
        NOTE:Keeper\\; captain.\r
        X-CUSTOM-THING:also kept\r
        END:VCARD\r

        """

    private func get(_ server: CardDAVTestStore, _ name: String, accept: String?) -> HTTPServerResponse {
        server.send("GET", server.cardPath(name), headers: accept.map { [("Accept", $0)] } ?? [])
    }

    private func multiget(_ server: CardDAVTestStore, _ names: [String], addressData: String) throws -> WebDAVMultistatus {
        let body = "<card:addressbook-multiget \(Self.namespaces)><d:prop><d:getetag/>\(addressData)</d:prop>"
            + names.map { "<d:href>\(server.cardPath($0))</d:href>" }.joined() + "</card:addressbook-multiget>"
        return try server.multistatus(server.send("REPORT", server.collectionPath, headers: [("Depth", "0")], body: body))
    }

    private static func version(_ text: String) -> String? {
        text.components(separatedBy: "\r\n").first { $0.hasPrefix("VERSION:") }.map { String($0.dropFirst(8)) }
    }

    /// The person a fetched card holds, as a snapshot (the file key it carries is dropped).
    private static func snapshot(ofCard data: Data) throws -> [String] {
        guard case .person(let state, _, _) = try CardMapping.read(data, href: "fetched.vcf") else {
            Issue.record("not a person's card")
            return []
        }
        let person = Person()
        person.state = state
        return try PersonSnapshot.lines(person)
    }

    @Test func theAddressBookAdvertisesVCard3And4() throws {
        let server = try CardDAVTestStore()
        let answer = try server.propfind(server.collectionPath, depth: "0", ["card:supported-address-data"])
        let types = try #require(answer.responses.first?.property(.cardDAV("supported-address-data")))
        let offered = types.children.map { "\($0.attributes["content-type"] ?? "") \($0.attributes["version"] ?? "")" }
        #expect(offered == ["text/vcard 3.0", "text/vcard 4.0"])
    }

    @Test func getWithoutAVersionGivesTheCardInTheVersionItCameIn() throws {
        let server = try CardDAVTestStore()
        #expect(server.put("r3.vcf", Self.richCard3).status == 201)
        #expect(server.put("r4.vcf", Self.richCard4).status == 201)
        for accept in [nil, "*/*", "text/vcard", "text/vcard; charset=utf-8", "text/*"] {
            let three = get(server, "r3.vcf", accept: accept)
            let four = get(server, "r4.vcf", accept: accept)
            #expect(three.status == 200 && four.status == 200)
            #expect(Self.version(String(decoding: three.body, as: UTF8.self)) == "3.0")
            #expect(Self.version(String(decoding: four.body, as: UTF8.self)) == "4.0")
            #expect(three.headers["Content-Type"] == "text/vcard; charset=utf-8")
            #expect(three.headers["Vary"] == "Accept")
        }
    }

    @Test(arguments: [("3.0", "r4.vcf"), ("4.0", "r3.vcf"), ("3.0", "r3.vcf"), ("4.0", "r4.vcf")])
    func getWithAVersionGivesThatVersionWithTheSameETag(_ version: String, _ name: String) throws {
        let server = try CardDAVTestStore()
        server.put("r3.vcf", Self.richCard3)
        server.put("r4.vcf", Self.richCard4)
        let plain = get(server, name, accept: nil)
        let asked = get(server, name, accept: "text/vcard; version=\(version)")
        #expect(asked.status == 200)
        #expect(asked.headers["Content-Type"] == "text/vcard; charset=utf-8; version=\(version)")
        #expect(asked.headers["Vary"] == "Accept")
        #expect(Self.version(String(decoding: asked.body, as: UTF8.self)) == version)
        #expect(asked.headers["ETag"] == plain.headers["ETag"])
        #expect(asked.headers["ETag"] == (try server.etags())[server.cardPath(name)])
        let head = server.send("HEAD", server.cardPath(name), headers: [("Accept", "text/vcard; version=\(version)")])
        #expect(head.headers["Content-Type"] == asked.headers["Content-Type"])
        // The ETag a client keeps after reading one version answers its conditional requests.
        let etag = try #require(asked.headers["ETag"])
        let again = server.send("GET", server.cardPath(name), headers: [("Accept", "text/vcard; version=\(version)"), ("If-None-Match", etag)])
        #expect(again.status == 304)
        #expect(again.headers["Vary"] == "Accept")
    }

    @Test func anAcceptAdmittingNoVCardIs406() throws {
        let server = try CardDAVTestStore()
        server.put("r3.vcf", Self.richCard3)
        let response = get(server, "r3.vcf", accept: "application/vcard+json")
        #expect(response.status == 406)
        #expect(String(decoding: response.body, as: UTF8.self).contains("text/vcard; version=4.0"))
        #expect(get(server, "missing.vcf", accept: "application/vcard+json").status == 404)
    }

    @Test(arguments: [("r3.vcf", VCardVersion.v3), ("r3.vcf", .v4), ("r4.vcf", .v3), ("r4.vcf", .v4)])
    func aCardFetchedInEitherVersionLosesNothing(_ name: String, _ version: VCardVersion) throws {
        let server = try CardDAVTestStore()
        server.put("r3.vcf", Self.richCard3)
        server.put("r4.vcf", Self.richCard4)
        let stored = try #require(server.store.openBook().allPeople().first { person in
            VCardRecordFields.uid(of: person.state).map(VCardRecordFields.matchKey) == (name == "r3.vcf" ? "rich3" : "rich4")
        })
        let fetched = get(server, name, accept: "text/vcard; version=\(version.rawValue)")
        let text = String(decoding: fetched.body, as: UTF8.self)
        #expect(Self.version(text) == version.rawValue)
        #expect(try Self.snapshot(ofCard: fetched.body) == (try PersonSnapshot.lines(stored)))
        #expect(text.contains("X-CUSTOM-THING:"))
        // Read back in the version it came in, the card is the one served by default.
        #expect(get(server, name, accept: nil).body == get(server, name, accept: "text/vcard; version=\(name == "r3.vcf" ? "3.0" : "4.0")").body)
    }

    @Test func multigetGivesEachCardInTheVersionAskedWithItsETag() throws {
        let server = try CardDAVTestStore()
        server.put("r3.vcf", Self.richCard3)
        server.put("r4.vcf", Self.richCard4)
        let etags = try server.etags()
        for (attributes, expected) in [
            (" content-type=\"text/vcard\" version=\"4.0\"", ["r3.vcf": "4.0", "r4.vcf": "4.0"]),
            (" content-type=\"text/vcard\" version=\"3.0\"", ["r3.vcf": "3.0", "r4.vcf": "3.0"]),
            ("", ["r3.vcf": "3.0", "r4.vcf": "4.0"]),
        ] {
            let answer = try multiget(server, ["r3.vcf", "r4.vcf"], addressData: "<card:address-data\(attributes)/>")
            for (name, version) in expected {
                let response = try #require(answer.responses.first { $0.href == server.cardPath(name) })
                let data = try #require(response.property(.cardDAV("address-data"))?.text)
                #expect(Self.version(data) == version, "\(name) with \(attributes)")
                #expect(response.property(.dav("getetag"))?.text == etags[server.cardPath(name)])
                #expect(Data(data.utf8) == get(server, name, accept: "text/vcard; version=\(version)").body)
            }
        }
    }

    @Test func queryAndSyncCollectionGiveTheVersionAsked() throws {
        let server = try CardDAVTestStore()
        server.put("r3.vcf", Self.richCard3)
        server.put("r4.vcf", Self.richCard4)
        let query = "<card:addressbook-query \(Self.namespaces)><d:prop><d:getetag/>"
            + "<card:address-data content-type=\"text/vcard\" version=\"4.0\"/></d:prop>"
            + "<card:filter><card:prop-filter name=\"NICKNAME\"><card:text-match>Kat</card:text-match></card:prop-filter></card:filter>"
            + "</card:addressbook-query>"
        let found = try server.multistatus(server.send("REPORT", server.collectionPath, headers: [("Depth", "1")], body: query))
        #expect(found.responses.map(\.href) == [server.cardPath("r3.vcf")])
        #expect(Self.version(try #require(found.responses.first?.property(.cardDAV("address-data"))?.text)) == "4.0")

        let synced = try server.multistatus(
            server.syncCollection("", properties: ["d:getetag", "card:address-data content-type=\"text/vcard\" version=\"3.0\""]))
        let cards = synced.responses.filter { $0.href != server.collectionPath }
        #expect(cards.count == 2)
        for card in cards { #expect(Self.version(try #require(card.property(.cardDAV("address-data"))?.text)) == "3.0") }
    }

    @Test(arguments: [
        "<card:address-data content-type=\"text/vcard\" version=\"2.1\"/>",
        "<card:address-data content-type=\"application/vcard+json\" version=\"4.0\"/>",
    ])
    func reportsRefuseAnAddressDataTypeNotMade(_ addressData: String) throws {
        let server = try CardDAVTestStore()
        server.put("r3.vcf", Self.richCard3)
        let multiget = "<card:addressbook-multiget \(Self.namespaces)><d:prop>\(addressData)</d:prop>"
            + "<d:href>\(server.cardPath("r3.vcf"))</d:href></card:addressbook-multiget>"
        let query = "<card:addressbook-query \(Self.namespaces)><d:prop>\(addressData)</d:prop><card:filter/></card:addressbook-query>"
        for body in [multiget, query] {
            let response = server.send("REPORT", server.collectionPath, headers: [("Depth", "1")], body: body)
            #expect(response.status == 403)
            #expect(String(decoding: response.body, as: UTF8.self).contains("supported-address-data"))
        }
    }

    @Test func aGroupIsGivenInEitherForm() throws {
        let server = try CardDAVTestStore()
        server.put("k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell"))
        let group = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Chasers;;;;\r\nFN:Chasers\r\nX-ADDRESSBOOKSERVER-KIND:group\r\nUID:g\r\n"
            + "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:k\r\nEND:VCARD\r\n"
        #expect(server.put("g.vcf", group).status == 201)
        let four = String(decoding: get(server, "g.vcf", accept: "text/vcard; version=4.0").body, as: UTF8.self)
        #expect(four.contains("VERSION:4.0") && four.contains("KIND:group") && four.contains("MEMBER:urn:uuid:k"))
        #expect(!four.contains("X-ADDRESSBOOKSERVER"))
        let three = String(decoding: get(server, "g.vcf", accept: "text/vcard; version=3.0").body, as: UTF8.self)
        #expect(three.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:k") && three.contains("N:Chasers;;;;"))
        #expect(get(server, "g.vcf", accept: "text/vcard; version=4.0").headers["ETag"] == get(server, "g.vcf", accept: nil).headers["ETag"])
    }
}
