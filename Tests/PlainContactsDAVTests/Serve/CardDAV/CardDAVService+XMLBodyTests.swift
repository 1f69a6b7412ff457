import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// Bodies no XML parser should be handed: each is refused with 400 before one reads it, the
/// store stays as it was, and the next request is answered.
@Suite struct CardDAVServiceXMLBodyTests {
    /// Where `§` stands in a body, the byte 0xFF goes: never UTF-8, and once a crash of the
    /// XML parser the server used.
    private static let bodies: [(method: String, depth: String, body: String)] = [
        ("PROPFIND", "0", #"<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop><d:§/></d:prop></d:propfind>"#),
        ("PROPFIND", "0", #"<propfind xmlns="DAV:"><prop><§/></prop></propfind>"#),
        ("PROPFIND", "1", #"<d:propfind xmlns:d="DAV:"><d:prop><§:getetag xmlns:§="DAV:"/></d:prop></d:propfind>"#),
        ("PROPFIND", "0", #"<d:propfind xmlns:d="DAV:§"><d:prop><d:getetag/></d:prop></d:propfind>"#),
        ("PROPFIND", "0", #"<d:propfind xmlns:d="DAV:"><d:prop d:§="1"><d:getetag/></d:prop></d:propfind>"#),
        ("PROPFIND", "0", #"<d:propfind xmlns:d="DAV:"><d:prop §="1"><d:getetag/></d:prop></d:propfind>"#),
        ("PROPFIND", "0", #"<?xml version="1.0" encoding="§"?><d:propfind xmlns:d="DAV:"><d:allprop/></d:propfind>"#),
        ("REPORT", "1", """
            <c:addressbook-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav">\
            <d:prop><d:getetag/><c:§/></d:prop><d:href>/me/contacts/a.vcf</d:href></c:addressbook-multiget>
            """),
        ("REPORT", "1", """
            <c:addressbook-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav">\
            <d:prop><d:getetag/></d:prop><d:href>/me/contacts/§.vcf</d:href></c:addressbook-multiget>
            """),
        ("REPORT", "1", """
            <c:addressbook-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/></d:prop>\
            <c:filter><c:prop-filter name="FN"><c:text-match collation="i;unicode-casemap" match-type="contains">§\
            </c:text-match></c:prop-filter></c:filter></c:addressbook-query>
            """),
        ("REPORT", "1", """
            <c:addressbook-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/></d:prop>\
            <c:filter><c:prop-filter §="FN"/></c:filter></c:addressbook-query>
            """),
        ("REPORT", "0", """
            <d:sync-collection xmlns:d="DAV:"><d:sync-token></d:sync-token><d:sync-level>1</d:sync-level>\
            <d:prop><d:§/></d:prop></d:sync-collection>
            """),
        ("PROPPATCH", "0", """
            <d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>Family §</d:displayname></d:prop></d:set>\
            </d:propertyupdate>
            """),
        ("PROPPATCH", "0", """
            <d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:§>x</d:§></d:prop></d:set></d:propertyupdate>
            """),
    ]

    private static func bytes(_ body: String) -> Data {
        Data(body.utf8.flatMap { $0 == 0xA7 ? [] : $0 == 0xC2 ? [0xFF] : [$0] })
    }

    @Test(arguments: bodies.indices)
    func aBodyThatIsNotUTF8IsAnswered400AndTheNextRequestIsServed(_ index: Int) throws {
        let server = try CardDAVTestStore()
        try server.addPerson("Katie", "Bell")
        let before = try server.snapshot()
        let (method, depth, body) = Self.bodies[index]
        let data = Self.bytes(body)
        #expect(data.contains(0xFF) && !data.contains(0xC2))

        let response = server.service.respond(
            to: HTTPServerRequest(
                method: method, target: server.collectionPath,
                headers: HTTPHeaderFields([("Depth", depth), ("Content-Type", "application/xml; charset=utf-8")]), body: data),
            user: nil)

        #expect(response.status == 400)
        #expect(String(decoding: response.body, as: UTF8.self).contains("UTF-8"))
        #expect(try server.snapshot() == before)
        #expect(try server.etags().count == 1)
    }

    @Test func aBodyInADeclaredEncodingOtherThanUTF8IsRead() throws {
        let server = try CardDAVTestStore()
        try server.addPerson("Zoé", "Bell")
        try server.addPerson("Zoe", "Hart")
        let query = Data(#"<?xml version="1.0" encoding="ISO-8859-1"?>"#.utf8)
            + Data(#"<c:addressbook-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/></d:prop>"#.utf8)
            + Data(#"<c:filter><c:prop-filter name="FN"><c:text-match match-type="starts-with">Zo"#.utf8) + Data([0xE9])
            + Data("</c:text-match></c:prop-filter></c:filter></c:addressbook-query>".utf8)

        let response = server.service.respond(
            to: HTTPServerRequest(method: "REPORT", target: server.collectionPath, headers: HTTPHeaderFields([("Depth", "1")]), body: query),
            user: nil)

        #expect(try server.multistatus(response).responses.count == 1)
    }
}
