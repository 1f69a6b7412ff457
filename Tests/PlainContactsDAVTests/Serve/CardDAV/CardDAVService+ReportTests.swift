import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct CardDAVServiceReportTests {
    private static let namespaces = "xmlns:d=\"DAV:\" xmlns:card=\"urn:ietf:params:xml:ns:carddav\""

    private func multiget(_ server: CardDAVTestStore, _ hrefs: [String]) throws -> WebDAVMultistatus {
        let body = "<card:addressbook-multiget \(Self.namespaces)><d:prop><d:getetag/><card:address-data/></d:prop>"
            + hrefs.map { "<d:href>\($0)</d:href>" }.joined() + "</card:addressbook-multiget>"
        return try server.multistatus(server.send("REPORT", server.collectionPath, headers: [("Depth", "1")], body: body))
    }

    private func query(_ server: CardDAVTestStore, _ filter: String, limit: Int? = nil) throws -> [String] {
        let limitElement = limit.map { "<card:limit><card:nresults>\($0)</card:nresults></card:limit>" } ?? ""
        let body = "<card:addressbook-query \(Self.namespaces)><d:prop><d:getetag/></d:prop>"
            + "<card:filter \(filter)</card:filter>\(limitElement)</card:addressbook-query>"
        let answer = try server.multistatus(server.send("REPORT", server.collectionPath, headers: [("Depth", "1")], body: body))
        return answer.responses.filter { $0.status == nil }.map { String($0.href.split(separator: "/").last ?? "") }.sorted()
    }

    private func addTeam(_ server: CardDAVTestStore) {
        server.put("k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell", extra: ["EMAIL:katie@hogwarts.example", "TEL:+44 555 0100"]))
        server.put("a.vcf", CardDAVTestStore.card(uid: "a", first: "Alicia", last: "Spinnet", extra: ["EMAIL:alicia@quidditch.example"]))
        server.put("o.vcf", CardDAVTestStore.card(uid: "o", first: "Oliver", last: "Wood"))
    }

    @Test func multigetAnswersEachHrefWithItsCardOr404() throws {
        let server = try CardDAVTestStore()
        addTeam(server)
        let etags = try server.etags()
        let answer = try multiget(server, [server.cardPath("k.vcf"), server.cardPath("missing.vcf"), "a.vcf", "/elsewhere/x.vcf"])
        #expect(answer.responses.count == 4)
        let katie = try #require(answer.responses.first { $0.href == server.cardPath("k.vcf") })
        #expect(katie.property(.dav("getetag"))?.text == etags[server.cardPath("k.vcf")])
        let data = try #require(katie.property(.cardDAV("address-data"))?.text)
        #expect(data.contains("UID:k") && data.contains("katie@hogwarts.example"))
        #expect(Data(data.utf8) == server.send("GET", server.cardPath("k.vcf")).body)
        #expect(answer.responses.first { $0.href == server.cardPath("missing.vcf") }?.status == 404)
        #expect(answer.responses.first { $0.href == "/elsewhere/x.vcf" }?.status == 404)
        #expect(answer.responses.first { $0.href == server.cardPath("a.vcf") }?.property(.cardDAV("address-data")) != nil)
    }

    @Test func addressDataNamingPropertiesGivesOnlyThose() throws {
        let server = try CardDAVTestStore()
        addTeam(server)
        let body = "<card:addressbook-multiget \(Self.namespaces)><d:prop><card:address-data>"
            + "<card:prop name=\"EMAIL\"/><card:prop name=\"uid\"/></card:address-data></d:prop>"
            + "<d:href>\(server.cardPath("k.vcf"))</d:href></card:addressbook-multiget>"
        let answer = try server.multistatus(server.send("REPORT", server.collectionPath, body: body))
        let data = try #require(answer.responses.first?.property(.cardDAV("address-data"))?.text)
        #expect(data.contains("UID:k") && data.contains("EMAIL") && data.contains("VERSION:3.0"))
        #expect(!data.contains("FN:") && !data.contains("TEL"))
    }

    @Test func queryMatchesTextOfTheNamedProperties() throws {
        let server = try CardDAVTestStore()
        addTeam(server)
        #expect(try query(server, "><card:prop-filter name=\"FN\"><card:text-match>katie</card:text-match></card:prop-filter>") == ["k.vcf"])
        #expect(
            try query(server, "><card:prop-filter name=\"EMAIL\"><card:text-match match-type=\"ends-with\">.example</card:text-match></card:prop-filter>")
                == ["a.vcf", "k.vcf"])
        #expect(
            try query(server, "><card:prop-filter name=\"TEL\"><card:text-match match-type=\"starts-with\">+44</card:text-match></card:prop-filter>")
                == ["k.vcf"])
        #expect(
            try query(server, "><card:prop-filter name=\"UID\"><card:text-match match-type=\"equals\">o</card:text-match></card:prop-filter>")
                == ["o.vcf"])
        #expect(
            try query(server, "><card:prop-filter name=\"FN\"><card:text-match negate-condition=\"yes\">a</card:text-match></card:prop-filter>")
                == ["o.vcf"])
        #expect(try query(server, "><card:prop-filter name=\"EMAIL\"><card:is-not-defined/></card:prop-filter>") == ["o.vcf"])
        #expect(
            try query(server, "><card:prop-filter name=\"FN\"><card:text-match collation=\"i;octet\">katie</card:text-match></card:prop-filter>")
                == [])
    }

    @Test func queryJoinsFiltersWithAnyofOrAllof() throws {
        let server = try CardDAVTestStore()
        addTeam(server)
        let filters = """
            <card:prop-filter name="FN"><card:text-match>Katie</card:text-match></card:prop-filter>\
            <card:prop-filter name="EMAIL"><card:text-match>quidditch</card:text-match></card:prop-filter>
            """
        #expect(try query(server, " test=\"anyof\">" + filters) == ["a.vcf", "k.vcf"])
        #expect(try query(server, " test=\"allof\">" + filters) == [])
        let both = """
            <card:prop-filter name="FN" test="allof"><card:text-match>Ali</card:text-match>\
            <card:text-match match-type="ends-with">net</card:text-match></card:prop-filter>
            """
        #expect(try query(server, ">" + both) == ["a.vcf"])
    }

    @Test func queryHonoursTheLimitAndSaysItCut() throws {
        let server = try CardDAVTestStore()
        addTeam(server)
        let body = "<card:addressbook-query \(Self.namespaces)><d:prop><d:getetag/></d:prop><card:filter/>"
            + "<card:limit><card:nresults>2</card:nresults></card:limit></card:addressbook-query>"
        let answer = try server.multistatus(server.send("REPORT", server.collectionPath, headers: [("Depth", "1")], body: body))
        #expect(answer.responses.filter { $0.status == nil }.count == 2)
        #expect(answer.responses.first { $0.href == server.collectionPath }?.status == 507)
    }

    @Test func anUnknownCollationIsRefused() throws {
        let server = try CardDAVTestStore()
        let body = "<card:addressbook-query \(Self.namespaces)><d:prop><d:getetag/></d:prop><card:filter>"
            + "<card:prop-filter name=\"FN\"><card:text-match collation=\"x-unknown\">a</card:text-match></card:prop-filter>"
            + "</card:filter></card:addressbook-query>"
        #expect(server.send("REPORT", server.collectionPath, body: body).status == 403)
    }

    @Test(arguments: [
        "<d:prop><d:getetag/>",
        "<d:prop>getetag</d:prop>",
        "<d:prop><d:getetag/>address-data</d:prop>",
        "<d:prop><d:getetag/></d:prop><d:allprop/>",
        "<d:prop><d:getetag/></d:prop><d:prop><d:getetag/></d:prop>",
        "junk<d:prop><d:getetag/></d:prop>",
    ])
    func aMalformedReportBodyIs400(properties: String) throws {
        let server = try CardDAVTestStore()
        addTeam(server)
        let href = "<d:href>\(server.cardPath("k.vcf"))</d:href>"
        let bodies = [
            "<card:addressbook-multiget \(Self.namespaces)>\(properties)\(href)</card:addressbook-multiget>",
            "<card:addressbook-query \(Self.namespaces)>\(properties)<card:filter/></card:addressbook-query>",
            "<d:sync-collection \(Self.namespaces)><d:sync-token/><d:sync-level>1</d:sync-level>\(properties)</d:sync-collection>",
        ]
        for body in bodies {
            let response = server.send("REPORT", server.collectionPath, headers: [("Depth", "1")], body: body)
            #expect(response.status == 400, "\(body.prefix(40)) gave \(response.status)")
        }
    }

    @Test(arguments: ["<d:prop><d:getetag/><card:address-data/></d:prop>", "<d:prop/>", "<d:allprop/>", "<d:propname/>", ""])
    func aWellFormedReportBodyIs207(properties: String) throws {
        let server = try CardDAVTestStore()
        addTeam(server)
        let href = "\n  <d:href>\(server.cardPath("k.vcf"))</d:href>\n"
        let bodies = [
            "<card:addressbook-multiget \(Self.namespaces)>\n  \(properties)\(href)</card:addressbook-multiget>",
            "<card:addressbook-query \(Self.namespaces)>\(properties)<card:filter/></card:addressbook-query>",
            "<d:sync-collection \(Self.namespaces)><d:sync-token/><d:sync-level>1</d:sync-level>\(properties)</d:sync-collection>",
        ]
        for body in bodies {
            let response = server.send("REPORT", server.collectionPath, headers: [("Depth", "1")], body: body)
            #expect(response.status == 207, "\(body.prefix(40)) gave \(response.status)")
        }
    }

    @Test func anUnknownReportIsRefusedWithSupportedReport() throws {
        let server = try CardDAVTestStore()
        let response = server.send("REPORT", server.collectionPath, body: "<d:expand-property xmlns:d=\"DAV:\"/>")
        #expect(response.status == 403)
        #expect(String(decoding: response.body, as: UTF8.self).contains("supported-report"))
        #expect(server.send("REPORT", server.collectionPath).status == 400)
    }

    @Test func aQueryOnOneCardTestsThatCardAlone() throws {
        let server = try CardDAVTestStore()
        addTeam(server)
        func query(_ card: String, _ text: String) -> HTTPServerResponse {
            let body = "<card:addressbook-query \(Self.namespaces)><d:prop><d:getetag/></d:prop><card:filter>"
                + "<card:prop-filter name=\"FN\"><card:text-match>\(text)</card:text-match></card:prop-filter>"
                + "</card:filter></card:addressbook-query>"
            return server.send("REPORT", server.cardPath(card), headers: [("Depth", "0")], body: body)
        }
        let match = try server.multistatus(query("k.vcf", "katie"))
        #expect(match.responses.map(\.href) == [server.cardPath("k.vcf")])
        #expect(try server.multistatus(query("a.vcf", "katie")).responses.isEmpty)
        #expect(query("missing.vcf", "katie").status == 404)
        let sync = server.send("REPORT", server.cardPath("k.vcf"), body: "<d:sync-collection xmlns:d=\"DAV:\"><d:sync-token/><d:prop><d:getetag/></d:prop></d:sync-collection>")
        #expect(sync.status == 403)
    }
}
