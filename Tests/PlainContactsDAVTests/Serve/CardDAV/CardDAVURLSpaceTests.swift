import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct CardDAVURLSpaceTests {
    private let space = CardDAVURLSpace(user: "alice")

    @Test func pathsNameTheirResources() throws {
        #expect(try space.resource(ofPath: "/") == .root)
        #expect(try space.resource(ofPath: "/.well-known/carddav") == .wellKnown)
        #expect(try space.resource(ofPath: "/alice/") == .principal)
        #expect(try space.resource(ofPath: "/alice") == .principal)
        #expect(try space.resource(ofPath: "/alice/contacts/") == .collection)
        #expect(try space.resource(ofPath: "/alice/contacts/a%20b.vcf") == .card("a b.vcf"))
        #expect(try space.resource(ofPath: "/alice/contacts/caf%C3%A9.vcf") == .card("café.vcf"))
        #expect(try space.resource(ofPath: "/alice/birthdays.ics") == .birthdayCalendar)
        #expect(space.href(of: .birthdayCalendar) == "/alice/birthdays.ics")
    }

    @Test func pathsAreDecodedOnlyOnce() throws {
        #expect(try space.resource(ofPath: "/alice/contacts/%252e%252e") == .card("%2e%2e"))
    }

    @Test(arguments: [
        "/alice/contacts/..", "/alice/contacts/%2e%2e", "/alice/contacts/%2E%2E/x", "/alice/contacts/.",
        "/alice/contacts/..%2fstore.json", "/alice/contacts/a%2fb.vcf", "/alice/contacts/a%5cb.vcf",
        "/alice/contacts/a\\b.vcf", "/alice/contacts/a%00.vcf", "/alice/contacts/%c0%ae%c0%ae",
        "/alice/contacts/%ff.vcf", "/alice/contacts/%e0%80%af", "/alice/contacts/%zz", "/alice/contacts/%4",
        "alice/contacts/x.vcf", "/alice/contacts/a%0d%0a.vcf",
    ])
    func unsafePathsAreRefused(path: String) {
        #expect(throws: CardDAVURLSpace.PathError.malformed) { try space.resource(ofPath: path) }
    }

    @Test(arguments: [
        "/bob/contacts/x.vcf", "/bob/birthdays.ics", "/alice/other/", "/alice/contacts/x/y", "/etc/passwd", "/people/x.json", "/store.json",
    ])
    func pathsOutsideTheLayoutNameNothing(path: String) {
        #expect(throws: CardDAVURLSpace.PathError.notFound) { try space.resource(ofPath: path) }
    }

    @Test func hrefsCarryTheProxyPrefix() throws {
        let request = HTTPServerRequest(method: "PROPFIND", target: "/alice/", headers: ["X-Script-Name": "/dav/"])
        let prefixed = try CardDAVURLSpace(request: request, user: "alice")
        #expect(prefixed.principalHref == "/dav/alice/")
        #expect(prefixed.cardHref("a b.vcf") == "/dav/alice/contacts/a%20b.vcf")
        #expect(try prefixed.resource(ofPath: "/alice/contacts/") == .collection)
        #expect(try prefixed.resource(ofPath: "/dav/alice/contacts/") == .collection)
        let forwarded = HTTPServerRequest(method: "GET", target: "/", headers: ["X-Forwarded-Prefix": "/a/b"])
        #expect(try CardDAVURLSpace(request: forwarded, user: nil).collectionHref == "/a/b/me/contacts/")
    }

    @Test func aPrefixThatIsNotAPlainPathIsRefused() {
        for prefix in ["dav", "/dav/../x", "/%2e%2e", "/a%00"] {
            let request = HTTPServerRequest(method: "GET", target: "/", headers: ["X-Script-Name": prefix])
            #expect(throws: CardDAVURLSpace.PathError.malformed) { try CardDAVURLSpace(request: request, user: nil) }
        }
    }

    @Test func hrefsOfRequestBodiesAreResolvedAgainstTheCollection() throws {
        #expect(try space.resource(ofHref: "http://example.com/alice/contacts/x.vcf") == .card("x.vcf"))
        #expect(try space.resource(ofHref: "x.vcf") == .card("x.vcf"))
        #expect(try space.resource(ofHref: " /alice/contacts/x.vcf\n") == .card("x.vcf"))
        #expect(throws: CardDAVURLSpace.PathError.malformed) { try space.resource(ofHref: "../../store.json") }
    }

    @Test func segmentsAreEncodedForHrefs() {
        #expect(CardDAVURLSpace.encode("a@b.vcf") == "a@b.vcf")
        #expect(CardDAVURLSpace.encode("a b/c&d<.vcf") == "a%20b%2Fc%26d%3C.vcf")
        #expect(CardDAVURLSpace.encode("é") == "%C3%A9")
    }
}
