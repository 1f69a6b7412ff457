import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// Requests that clients which cannot run here are published to send, replayed against the
/// server: every property asked for is answered or listed as not found in its own `propstat`,
/// never a failed request. The source of each body is named beside it.
@Suite struct ClientRequestReplayTests {
    /// The headers iOS's and macOS's `dataaccessd` send with every discovery `PROPFIND`.
    private static let appleHeaders = [("Brief", "t"), ("Prefer", "return=minimal"), ("Content-Type", "text/xml")]

    /// Every property of `body`'s `prop` element, by name.
    private static func askedFor(_ body: String) throws -> [WebDAVElement.Name] {
        let root = try WebDAVXML.parse(Data(body.utf8), maximumDepth: 16)
        return root.child(.dav("prop"))?.children.map(\.name) ?? []
    }

    /// Checks that each asked-for property is either found or has a status of its own.
    private func expectEveryPropertyAccounted(
        _ response: WebDAVMultistatus.Response, _ asked: [WebDAVElement.Name], minimal: Bool
    ) {
        for name in asked {
            let found = response.properties[name] != nil
            let failed = response.failedProperties[name]
            // With `Prefer: return=minimal` a server may leave out what it does not have (RFC 8144).
            #expect(found || failed == 404 || (minimal && failed == nil), "\(name) on \(response.href)")
        }
    }

    @Test func iOSAsksTheRootForItsPrincipalWithBriefAndPreferMinimal() throws {
        // iOS 18.1.1 dataaccessd, as logged in emersion/go-webdav pull request #150.
        let body = """
            <?xml version="1.0" encoding="UTF-8"?>
            <A:propfind xmlns:A="DAV:">
              <A:prop>
                <A:current-user-principal/>
                <A:principal-URL/>
                <A:resourcetype/>
              </A:prop>
            </A:propfind>
            """
        let server = try CardDAVTestStore(user: "alice")
        let answer = try server.multistatus(
            server.send("PROPFIND", "/", headers: Self.appleHeaders + [("Depth", "0")], body: body))
        let root = try #require(answer.responses.first)
        #expect(root.property(.dav("current-user-principal"))?.child(.dav("href"))?.text == "/alice/")
        expectEveryPropertyAccounted(root, try Self.askedFor(body), minimal: true)
    }

    @Test func macOSAsksThePrincipalForDirectoryAndEmailProperties() throws {
        // macOS Contacts, as captured in sabre-io/dav issue #1315.
        let body = """
            <?xml version="1.0" encoding="UTF-8"?>
            <A:propfind xmlns:A="DAV:">
              <A:prop>
                <B:addressbook-home-set xmlns:B="urn:ietf:params:xml:ns:carddav"/>
                <B:directory-gateway xmlns:B="urn:ietf:params:xml:ns:carddav"/>
                <A:displayname/>
                <C:email-address-set xmlns:C="http://calendarserver.org/ns/"/>
                <A:principal-collection-set/>
                <A:principal-URL/>
                <A:resource-id/>
                <A:supported-report-set/>
              </A:prop>
            </A:propfind>
            """
        let server = try CardDAVTestStore(user: "alice")
        for headers in [[("Depth", "0")], Self.appleHeaders + [("Depth", "0")]] {
            let answer = try server.multistatus(server.send("PROPFIND", "/alice/", headers: headers, body: body))
            let principal = try #require(answer.responses.first)
            #expect(principal.property(.cardDAV("addressbook-home-set"))?.child(.dav("href"))?.text == "/alice/")
            expectEveryPropertyAccounted(principal, try Self.askedFor(body), minimal: headers.count > 1)
        }
    }

    @Test func appleAddressBookClientDiscoveryAndPollingFromCalDAVTester() throws {
        // Apple's CalDAVTester, scripts/tests/CardDAV/ab-client.xml with
        // Resource/CardDAV/vab-client/1.xml (principal, Depth 0) and 2.xml (home, Depth 1).
        let discovery = """
            <?xml version="1.0" encoding="utf-8"?>
            <x0:propfind xmlns:x2="http://calendarserver.org/ns/" xmlns:x1="urn:ietf:params:xml:ns:carddav" xmlns:x0="DAV:">
             <x0:prop>
              <x1:addressbook-home-set/>
              <x0:displayname/>
             </x0:prop>
            </x0:propfind>
            """
        let polling = """
            <?xml version="1.0" encoding="utf-8"?>
            <x0:propfind xmlns:x1="http://calendarserver.org/ns/" xmlns:x0="DAV:" xmlns:x2="urn:ietf:params:xml:ns:carddav">
             <x0:prop>
              <x1:getctag/>
              <x2:addressbook-home-set/>
             </x0:prop>
            </x0:propfind>
            """
        let server = try CardDAVTestStore(user: "alice")
        try server.addPerson("Katie", "Bell")
        let principal = try server.multistatus(server.send("PROPFIND", "/alice/", headers: [("Depth", "0")], body: discovery))
        let found = try #require(principal.responses.first)
        #expect(found.property(.cardDAV("addressbook-home-set")) != nil)
        expectEveryPropertyAccounted(found, try Self.askedFor(discovery), minimal: false)
        let home = try server.multistatus(server.send("PROPFIND", "/alice/", headers: [("Depth", "1")], body: polling))
        let book = try #require(home.responses.first { $0.href == server.collectionPath })
        #expect(book.property(.calendarServer("getctag"))?.text.isEmpty == false)
        for response in home.responses { expectEveryPropertyAccounted(response, try Self.askedFor(polling), minimal: false) }
    }

    @Test func aSyncTokenTheClientInventedIsRefusedAsRFC6578Says() throws {
        // macOS Contacts sends sync-collection with a token of its own making on a server it has
        // not synced with; RFC 6578 §3.2: 403 with the DAV:valid-sync-token precondition, after
        // which clients start over with an empty token.
        let server = try CardDAVTestStore()
        try server.addPerson("Katie", "Bell")
        let refused = server.syncCollection("http://example.com/ns/sync/1234")
        #expect(refused.status == 403)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("valid-sync-token"))
        let fresh = try server.multistatus(server.syncCollection(""))
        #expect(fresh.responses.count == 1)
        #expect(fresh.syncToken?.isEmpty == false)
    }

    @Test func davx5AsksForTheCollectionStateThenSyncs() throws {
        // DAVx5 (bitfireAT/davx5) before each sync: the collection's CTag and sync token at
        // Depth 0, then sync-collection from its last token.
        let body = """
            <?xml version='1.0' encoding='UTF-8' ?>
            <propfind xmlns="DAV:" xmlns:CARD="urn:ietf:params:xml:ns:carddav" xmlns:CS="http://calendarserver.org/ns/">
              <prop>
                <CARD:supported-address-data />
                <CS:getctag />
                <sync-token />
              </prop>
            </propfind>
            """
        let server = try CardDAVTestStore()
        try server.addPerson("Katie", "Bell")
        let state = try server.multistatus(server.send("PROPFIND", server.collectionPath, headers: [("Depth", "0")], body: body))
        let book = try #require(state.responses.first)
        expectEveryPropertyAccounted(book, try Self.askedFor(body), minimal: false)
        let token = try #require(book.property(.dav("sync-token"))?.text)
        try server.addPerson("John", "Appleseed")
        let changes = try server.multistatus(server.syncCollection(token))
        #expect(changes.responses.count == 1)
    }

    @Test func davx5FetchesCardsThatCameAs3AsVCard4OnceTheServerOffersIt() throws {
        // DAVx5 reads supported-address-data (above) and, when the address book offers
        // text/vcard 4.0, fetches cards with this multiget: bitfireAT/dav4jvm
        // src/main/kotlin/at/bitfire/dav4jvm/DavAddressBook.kt, multiget(urls, vCard4 = true),
        // commit 1f48a6620c806c218eb8cd8c31e0025f44b5a933 (getcontenttype "to determine the
        // character set", Depth 0, hrefs as encoded paths).
        let server = try CardDAVTestStore()
        server.put("k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell", extra: ["EMAIL;TYPE=WORK:katie@example.com"]))
        server.put("a.vcf", CardDAVTestStore.card(uid: "a", first: "Alicia", last: "Spinnet", extra: ["TEL;TYPE=CELL:+44 555 0101"]))
        let offered = try server.propfind(server.collectionPath, depth: "0", ["card:supported-address-data"])
        let types = offered.responses.first?.property(.cardDAV("supported-address-data"))?.children ?? []
        #expect(types.contains { $0.attributes["content-type"] == "text/vcard" && $0.attributes["version"] == "4.0" })
        let body = """
            <?xml version='1.0' encoding='UTF-8' ?>
            <CARD:addressbook-multiget xmlns="DAV:" xmlns:CARD="urn:ietf:params:xml:ns:carddav">
              <prop>
                <getcontenttype />
                <getetag />
                <CARD:address-data content-type="text/vcard" version="4.0" />
              </prop>
              <href>\(server.cardPath("k.vcf"))</href>
              <href>\(server.cardPath("a.vcf"))</href>
            </CARD:addressbook-multiget>
            """
        let etags = try server.etags()
        let answer = try server.multistatus(server.send("REPORT", server.collectionPath, headers: [("Depth", "0")], body: body))
        #expect(answer.responses.count == 2)
        for response in answer.responses {
            let card = try #require(response.property(.cardDAV("address-data"))?.text)
            #expect(card.hasPrefix("BEGIN:VCARD\r\nVERSION:4.0\r\n"), "\(response.href)")
            #expect(card.contains("UID:k") || card.contains("UID:a"))
            #expect(response.property(.dav("getetag"))?.text == etags[response.href])
            #expect(response.property(.dav("getcontenttype"))?.text.hasPrefix("text/vcard") == true)
            expectEveryPropertyAccounted(response, try Self.askedFor(body), minimal: false)
        }
        let katie = try #require(answer.responses.first { $0.href == server.cardPath("k.vcf") }?.property(.cardDAV("address-data"))?.text)
        #expect(katie.contains("katie@example.com"))
        // Asked by GET without a version afterwards, the card is still the 3.0 the client sent.
        #expect(String(decoding: server.send("GET", server.cardPath("k.vcf")).body, as: UTF8.self).contains("VERSION:3.0"))
    }

    @Test func vdirsyncerWithUseVCard4GetsVCard4() throws {
        // vdirsyncer 0.21 CardDAVStorage.get_multi_template (vdirsyncer/storage/dav.py) with
        // `use_vcard_4 = true`: it spells the attribute `Content-Type`, which XML does not read
        // as `content-type`; its `version` alone asks for 4.0. Without the option it sends
        // `<C:address-data />` and gets each card as it came in.
        let server = try CardDAVTestStore()
        server.put("k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell"))
        for (attributes, version) in [("Content-Type=\"text/vcard\" version=\"4.0\"", "4.0"), ("", "3.0")] {
            let body = """
                <?xml version="1.0" encoding="utf-8" ?>
                    <C:addressbook-multiget xmlns="DAV:"
                            xmlns:C="urn:ietf:params:xml:ns:carddav">
                        <prop>
                            <getetag/>
                            <C:address-data \(attributes)/>
                        </prop>
                        <href>\(server.cardPath("k.vcf"))</href>
                    </C:addressbook-multiget>
                """
            let answer = try server.multistatus(server.send("REPORT", server.collectionPath, headers: [("Depth", "1")], body: body))
            let card = try #require(answer.responses.first?.property(.cardDAV("address-data"))?.text)
            #expect(card.hasPrefix("BEGIN:VCARD\r\nVERSION:\(version)\r\n"))
        }
    }
}
