import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct CardDAVServiceProppatchTests {
    /// A `propertyupdate` body around `instructions`.
    private static func update(_ instructions: String) -> String {
        #"<?xml version="1.0" encoding="utf-8"?><d:propertyupdate xmlns:d="DAV:" xmlns:a="http://apple.com/ns/ical/">"#
            + instructions + "</d:propertyupdate>"
    }

    /// The single `propstat` of a `PROPPATCH` answer.
    private static func propstat(_ response: HTTPServerResponse) throws -> WebDAVElement {
        let root = try WebDAVXML.parse(response.body, maximumDepth: 16)
        let answers = root.children.filter { $0.name == .dav("response") }
        #expect(answers.count == 1)
        let propstats = try #require(answers.first).children.filter { $0.name == .dav("propstat") }
        #expect(propstats.count == 1)
        return try #require(propstats.first)
    }

    @Test func settingTheAddressBooksDisplayNameIsRefusedAsProtected() throws {
        let server = try CardDAVTestStore()
        try server.addPerson("Katie", "Bell")
        _ = try server.etags()
        let before = try server.snapshot()
        let response = server.send(
            "PROPPATCH", server.collectionPath,
            body: Self.update("<d:set><d:prop><d:displayname>Work</d:displayname></d:prop></d:set>"))
        let answer = try server.multistatus(response)
        let book = try #require(answer.responses.first)
        #expect(answer.responses.count == 1)
        #expect(book.href == server.collectionPath)
        #expect(book.failedProperties == [.dav("displayname"): 403])
        #expect(book.properties.isEmpty)
        let propstat = try Self.propstat(response)
        #expect(propstat.child(.dav("error"))?.children.map(\.name) == [.dav("cannot-modify-protected-property")])
        #expect(try server.snapshot() == before)
        let names = try server.propfind(server.collectionPath, depth: "0", ["d:displayname"])
        #expect(names.responses.first?.property(.dav("displayname"))?.text == "Contacts")
    }

    @Test func everyPropertySetOrRemovedIsRefusedOnce() throws {
        let server = try CardDAVTestStore()
        let body = Self.update(
            """
            <d:set><d:prop><d:displayname>Work</d:displayname><a:addressbook-color>#FF0000</a:addressbook-color>\
            </d:prop></d:set>\
            <d:remove><d:prop><x:note xmlns:x="urn:example"/><d:displayname/></d:prop></d:remove>\
            <x:ignored xmlns:x="urn:example"><d:prop><d:getetag/></d:prop></x:ignored>
            """)
        let response = server.send("PROPPATCH", server.collectionPath, body: body)
        let answer = try server.multistatus(response)
        let book = try #require(answer.responses.first)
        let color = WebDAVElement.Name(namespace: "http://apple.com/ns/ical/", local: "addressbook-color")
        let note = WebDAVElement.Name(namespace: "urn:example", local: "note")
        #expect(book.failedProperties == [.dav("displayname"): 403, color: 403, note: 403])
        let refused = try #require(Self.propstat(response).child(.dav("prop"))).children.map(\.name)
        #expect(refused == [.dav("displayname"), color, note])
    }

    @Test func aCardsPropertiesAreRefusedAndTheCardKeepsItsETag() throws {
        let server = try CardDAVTestStore()
        try server.addPerson("Katie", "Bell")
        let etags = try server.etags()
        let href = try #require(etags.keys.first)
        let before = try server.snapshot()
        let body = Self.update("<d:set><d:prop><d:getetag>\"x\"</d:getetag></d:prop></d:set>")
        let answer = try server.multistatus(server.send("PROPPATCH", href, body: body))
        #expect(answer.responses.first?.href == href)
        #expect(answer.responses.first?.failedProperties == [.dav("getetag"): 403])
        #expect(try server.etags() == etags)
        #expect(try server.snapshot() == before)
    }

    @Test func theRootAndThePrincipalRefuseToo() throws {
        let server = try CardDAVTestStore(user: "alice")
        let body = Self.update("<d:remove><d:prop><d:displayname/></d:prop></d:remove>")
        for path in ["/", "/alice/"] {
            let answer = try server.multistatus(server.send("PROPPATCH", path, body: body))
            #expect(answer.responses.first?.href == path)
            #expect(answer.responses.first?.failedProperties == [.dav("displayname"): 403])
        }
    }

    @Test func aCardThatDoesNotExistIs404() throws {
        let server = try CardDAVTestStore()
        let body = Self.update("<d:set><d:prop><d:displayname>X</d:displayname></d:prop></d:set>")
        #expect(server.send("PROPPATCH", server.cardPath("missing.vcf"), body: body).status == 404)
    }

    @Test func aBodyThatIsNotAPropertyUpdateIs400AndWritesNothing() throws {
        let server = try CardDAVTestStore()
        try server.addPerson("Katie", "Bell")
        _ = try server.etags()
        let before = try server.snapshot()
        let bodies = [
            "",
            "not xml at all",
            "<d:propertyupdate xmlns:d=\"DAV:\"><d:set><d:prop><d:displayname>X</d:displayname></d:prop></d:set>",
            "<d:propfind xmlns:d=\"DAV:\"><d:prop><d:displayname/></d:prop></d:propfind>",
            Self.update("<d:set><d:prop/></d:set>"),
            Self.update(""),
            Self.update("<d:set><d:prop>displayname</d:prop></d:set>"),
            Self.update("<d:set><d:prop>junk<d:displayname>X</d:displayname></d:prop></d:set>"),
            Self.update("junk<d:set><d:prop><d:displayname>X</d:displayname></d:prop></d:set>"),
            Self.update("<d:set>junk<d:prop><d:displayname>X</d:displayname></d:prop></d:set>"),
            Self.update("<d:set><d:displayname>X</d:displayname></d:set>"),
            Self.update("<d:set><d:prop><d:displayname>X</d:displayname></d:prop></d:set><d:remove/>"),
            Self.update("<d:remove><d:prop><d:displayname/></d:prop><d:prop><d:owner/></d:prop></d:remove>"),
            """
            <?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>\
            <d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>&x;</d:displayname></d:prop></d:set>\
            </d:propertyupdate>
            """,
            String(repeating: "<a>", count: 200) + String(repeating: "</a>", count: 200),
        ]
        for body in bodies {
            #expect(server.send("PROPPATCH", server.collectionPath, body: body).status == 400, "\(body.prefix(40))")
        }
        #expect(try server.snapshot() == before)
    }
}
