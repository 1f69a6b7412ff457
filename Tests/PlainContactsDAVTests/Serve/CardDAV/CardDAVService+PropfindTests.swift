import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct CardDAVServicePropfindTests {
    @Test func discoveryLeadsFromTheRootToTheAddressBook() throws {
        let server = try CardDAVTestStore(user: "alice")
        let root = try server.propfind("/", depth: "0", ["d:current-user-principal"])
        #expect(root.responses.first?.property(.dav("current-user-principal"))?.child(.dav("href"))?.text == "/alice/")
        let principal = try server.propfind(
            "/alice/", depth: "0", ["card:addressbook-home-set", "d:principal-URL", "d:resourcetype"])
        let response = try #require(principal.responses.first)
        #expect(response.href == "/alice/")
        #expect(response.property(.cardDAV("addressbook-home-set"))?.child(.dav("href"))?.text == "/alice/")
        #expect(response.property(.dav("principal-URL"))?.child(.dav("href"))?.text == "/alice/")
        #expect(response.property(.dav("resourcetype"))?.child(.dav("principal")) != nil)
        let home = try server.propfind("/alice/", depth: "1", ["d:resourcetype", "d:displayname"])
        let book = try #require(home.responses.first { $0.href == "/alice/contacts/" })
        #expect(book.property(.dav("resourcetype"))?.child(.cardDAV("addressbook")) != nil)
        #expect(book.property(.dav("displayname"))?.text == "Contacts")
    }

    @Test func theAddressBookHasEveryPropertyClientsAskFor() throws {
        let server = try CardDAVTestStore()
        try server.addPerson("Katie", "Bell")
        let properties = [
            "d:resourcetype", "d:displayname", "cs:getctag", "d:sync-token", "d:supported-report-set",
            "d:current-user-privilege-set", "card:supported-address-data", "card:max-resource-size",
            "d:current-user-principal", "x:unknown xmlns:x=\"urn:example\"", "d:getetag",
        ]
        let answer = try server.propfind(server.collectionPath, depth: "0", properties)
        #expect(answer.responses.count == 1)
        let book = try #require(answer.responses.first)
        #expect(book.href == server.collectionPath)
        #expect(book.property(.calendarServer("getctag"))?.text.isEmpty == false)
        #expect(book.property(.dav("sync-token"))?.text.hasPrefix("data:,plaincontacts-") == true)
        let reports = book.property(.dav("supported-report-set"))?.children.compactMap { $0.child(.dav("report"))?.children.first?.name }
        #expect(reports == [.cardDAV("addressbook-multiget"), .cardDAV("addressbook-query"), .dav("sync-collection")])
        let privileges = book.property(.dav("current-user-privilege-set"))?.children.compactMap { $0.children.first?.name.local }
        #expect(privileges?.contains("write-content") == true && privileges?.contains("bind") == true)
        #expect(book.property(.cardDAV("supported-address-data"))?.children.first?.attributes["content-type"] == "text/vcard")
        #expect(book.property(.cardDAV("max-resource-size"))?.text == String(CardDAVService.maximumCardSize))
        #expect(book.failedProperties[.init(namespace: "urn:example", local: "unknown")] == 404)
        #expect(book.failedProperties[.dav("getetag")] == 404)
    }

    @Test func depthOneListsEveryCardWithItsETag() throws {
        let server = try CardDAVTestStore()
        for index in 0..<5 { try server.addPerson("Person", "\(index)") }
        let answer = try server.propfind(server.collectionPath, depth: "1", ["d:getetag", "d:getcontenttype", "d:resourcetype"])
        #expect(answer.responses.count == 6)
        for card in answer.responses where card.href != server.collectionPath {
            #expect(card.href.hasPrefix(server.collectionPath) && card.href.hasSuffix(".vcf"))
            let etag = try #require(card.property(.dav("getetag"))?.text)
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && !etag.hasPrefix("W/"))
            #expect(card.property(.dav("getcontenttype"))?.text == "text/vcard; charset=utf-8")
            #expect(card.property(.dav("resourcetype"))?.children.isEmpty == true)
        }
    }

    @Test func aCardAnswersItsOwnProperties() throws {
        let server = try CardDAVTestStore()
        try server.addPerson("Katie", "Bell", uid: "katie-uid")
        let answer = try server.propfind(
            server.cardPath("katie-uid.vcf"), depth: "0",
            ["d:getetag", "d:getcontentlength", "d:getlastmodified", "card:address-data", "cs:getctag"])
        let card = try #require(answer.responses.first)
        #expect(card.href == server.cardPath("katie-uid.vcf"))
        let data = try #require(card.property(.cardDAV("address-data"))?.text)
        #expect(data.contains("UID:katie-uid"))
        #expect(card.property(.dav("getcontentlength"))?.text == String(data.utf8.count))
        #expect(card.property(.dav("getlastmodified"))?.text.hasSuffix(" GMT") == true)
        #expect(card.failedProperties[.calendarServer("getctag")] == 404)
        #expect(server.send("PROPFIND", server.cardPath("nobody.vcf"), headers: [("Depth", "0")]).status == 404)
    }

    @Test func allpropAndPropnameAnswerTheResourcesProperties() throws {
        let server = try CardDAVTestStore()
        try server.addPerson("Katie", "Bell", uid: "k")
        let all = try server.multistatus(
            server.send("PROPFIND", server.cardPath("k.vcf"), headers: [("Depth", "0")], body: "<d:propfind xmlns:d=\"DAV:\"><d:allprop/></d:propfind>"))
        #expect(all.responses.first?.property(.dav("getetag")) != nil)
        #expect(all.responses.first?.property(.cardDAV("address-data")) == nil)
        let empty = try server.multistatus(server.send("PROPFIND", server.collectionPath, headers: [("Depth", "0")]))
        #expect(empty.responses.first?.property(.dav("sync-token")) != nil)
        let names = try server.multistatus(
            server.send("PROPFIND", server.collectionPath, headers: [("Depth", "0")], body: "<propfind xmlns=\"DAV:\"><propname/></propfind>"))
        let book = try #require(names.responses.first)
        #expect(book.properties[.dav("sync-token")]?.text == "")
        #expect(book.properties[.calendarServer("getctag")] != nil)
    }

    @Test(arguments: [
        "<d:propfind xmlns:d=\"DAV:\"><d:prop><d:getetag/></d:prop>",
        "<d:propfind xmlns:d=\"DAV:\"><d:prop><d:getetag></d:prop></d:propfind>",
        "getetag",
        "<d:propfind xmlns:d=\"DAV:\"><d:prop>getetag</d:prop></d:propfind>",
        "<d:propfind xmlns:d=\"DAV:\"><d:prop><d:getetag/>displayname</d:prop></d:propfind>",
        "<d:propfind xmlns:d=\"DAV:\"><d:prop><![CDATA[getetag]]></d:prop></d:propfind>",
        "<d:propfind xmlns:d=\"DAV:\">allprop</d:propfind>",
        "<d:propfind xmlns:d=\"DAV:\"><d:getetag/></d:propfind>",
        "<d:propfind xmlns:d=\"DAV:\"><d:prop><d:getetag/></d:prop><d:allprop/></d:propfind>",
        "<d:propfind xmlns:d=\"DAV:\"><d:propname/><d:include><d:getetag/></d:include></d:propfind>",
        "<d:propfind xmlns:d=\"DAV:\"><d:allprop/><d:include>getetag</d:include></d:propfind>",
        "<propfind><prop><getetag/></prop></propfind>",
        "<x:propfind xmlns:x=\"urn:example\"><x:prop/></x:propfind>",
        "<d:propertyupdate xmlns:d=\"DAV:\"/>",
    ])
    func aMalformedBodyIs400(body: String) throws {
        let server = try CardDAVTestStore()
        try server.addPerson("Katie", "Bell", uid: "k")
        for (path, depth) in [("/", "0"), (server.collectionPath, "0"), (server.collectionPath, "1"), (server.cardPath("k.vcf"), "0")] {
            let response = server.send("PROPFIND", path, headers: [("Depth", depth)], body: body)
            #expect(response.status == 400, "\(path) at depth \(depth) gave \(response.status)")
        }
    }

    @Test(arguments: [
        "<d:propfind xmlns:d=\"DAV:\"><d:allprop/></d:propfind>",
        "<d:propfind xmlns:d=\"DAV:\"><d:allprop/><d:include><d:sync-token/></d:include></d:propfind>",
        "<d:propfind xmlns:d=\"DAV:\"><d:propname/></d:propfind>",
        "<d:propfind xmlns:d=\"DAV:\"><d:prop><d:getetag/><d:displayname/></d:prop></d:propfind>",
        "<d:propfind xmlns:d=\"DAV:\"><d:prop/></d:propfind>",
        "<d:propfind xmlns:d=\"DAV:\"/>",
        "<?xml version=\"1.0\"?>\n<propfind xmlns=\"DAV:\">\n  <prop>\n    <getetag/>\n  </prop>\n</propfind>\n",
        " \r\n",
    ])
    func aWellFormedBodyIs207(body: String) throws {
        let server = try CardDAVTestStore()
        try server.addPerson("Katie", "Bell", uid: "k")
        for (path, depth) in [("/", "0"), (server.collectionPath, "0"), (server.collectionPath, "1"), (server.cardPath("k.vcf"), "0")] {
            let response = server.send("PROPFIND", path, headers: [("Depth", depth)], body: body)
            #expect(response.status == 207, "\(path) at depth \(depth) gave \(response.status)")
        }
    }

    @Test func datesAreHTTPDates() {
        #expect(CardDAVService.httpDate(nanoseconds: 784_111_777_000_000_000) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(CardDAVService.httpDate(nanoseconds: 1_764_115_200_500_000_000) == "Wed, 26 Nov 2025 00:00:00 GMT")
    }

    @Test func depthInfinityIsRefusedWithFiniteDepth() throws {
        let server = try CardDAVTestStore()
        let response = server.send("PROPFIND", server.collectionPath, headers: [("Depth", "infinity")])
        #expect(response.status == 403)
        let error = try WebDAVXML.parse(response.body, maximumDepth: 8)
        #expect(error.name == .dav("error"))
        #expect(error.child(.dav("propfind-finite-depth")) != nil)
        #expect(server.send("PROPFIND", server.collectionPath, headers: [("Depth", "2")]).status == 400)
    }

    @Test func hrefsCarryTheProxyPrefix() throws {
        let server = try CardDAVTestStore()
        try server.addPerson("Katie", "Bell", uid: "k")
        let response = server.send(
            "PROPFIND", server.collectionPath, headers: [("Depth", "1"), ("X-Script-Name", "/dav")],
            body: "<d:propfind xmlns:d=\"DAV:\"><d:prop><d:getetag/><d:current-user-principal/></d:prop></d:propfind>")
        let answer = try server.multistatus(response)
        #expect(Set(answer.responses.map(\.href)) == ["/dav/me/contacts/", "/dav/me/contacts/k.vcf"])
        #expect(answer.responses.first?.property(.dav("current-user-principal"))?.child(.dav("href"))?.text == "/dav/me/")
    }
}
