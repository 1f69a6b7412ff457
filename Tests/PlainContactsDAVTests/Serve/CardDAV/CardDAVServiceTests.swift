import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// The service's URL space and methods: discovery, OPTIONS, refusals, hostile paths and bodies.
@Suite struct CardDAVServiceTests {
    @Test func optionsNamesTheDAVClassesAndMethods() throws {
        let server = try CardDAVTestStore()
        for target in ["*", "/", server.collectionPath, server.cardPath("x.vcf")] {
            let response = server.send("OPTIONS", target)
            #expect(response.status == 200)
            #expect(response.headers["DAV"] == "1, 3, addressbook")
            #expect(response.headers["Allow"]?.contains("PROPFIND") == true)
            #expect(response.headers["Allow"]?.contains("PROPPATCH") == true)
            #expect(response.headers["Allow"]?.contains("REPORT") == true)
        }
    }

    @Test func wellKnownRedirectsToTheContextPathWithTheProxyPrefix() throws {
        let server = try CardDAVTestStore(user: "alice")
        for target in ["/.well-known/carddav", "/.well-known/carddav/"] {
            let plain = server.send("PROPFIND", target, headers: [("Depth", "0")])
            #expect(plain.status == 301)
            #expect(plain.headers["Location"] == "/")
        }
        let proxied = server.send("GET", "/.well-known/carddav", headers: [("X-Script-Name", "/dav")])
        #expect(proxied.headers["Location"] == "/dav/")
    }

    @Test func theWellKnownFolderIsAnEmptyCollection() throws {
        let server = try CardDAVTestStore(user: "alice")
        let page = server.send("GET", "/.well-known/")
        #expect(page.status == 200)
        #expect(String(decoding: page.body, as: UTF8.self).contains("href=\"/.well-known/carddav\""))
        let answer = try server.multistatus(server.send("PROPFIND", "/.well-known/", headers: [("Depth", "1")]))
        #expect(answer.responses.map(\.href) == ["/.well-known/"])
        #expect(answer.responses.first?.property(.dav("resourcetype"))?.children.map(\.name) == [.dav("collection")])
    }

    @Test func theAddressBookAndThePrincipalAnswerGetWithAPageOfLinks() throws {
        let server = try CardDAVTestStore(user: "alice")
        server.put("k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell"))
        server.put("a b.vcf", CardDAVTestStore.card(uid: "a", first: "Alicia", last: "Spinnet"))
        let book = server.send("GET", server.collectionPath)
        #expect(book.status == 200)
        #expect(book.headers["Content-Type"] == "text/html; charset=utf-8")
        let text = String(decoding: book.body, as: UTF8.self)
        #expect(text.contains("2 cards") && text.contains("href=\"\(server.cardPath("k.vcf"))\""))
        #expect(text.contains("href=\"\(server.cardPath("a b.vcf"))\"") && server.cardPath("a b.vcf").hasSuffix("a%20b.vcf"))
        let principal = String(decoding: server.send("GET", "/alice/").body, as: UTF8.self)
        #expect(principal.contains("href=\"\(server.collectionPath)\""))
        #expect(server.send("HEAD", server.collectionPath).status == 200)
        // Each page's length is its getcontentlength (RFC 4918 section 15.4).
        for path in [server.collectionPath, "/alice/", "/"] {
            let answer = try server.propfind(path, depth: "0", ["d:getcontentlength"])
            let length = answer.responses.first?.property(.dav("getcontentlength"))?.text
            #expect(length == String(server.send("GET", path).body.count), "\(path)")
        }
    }

    @Test func unsupportedMethodsAre405WithAllow() throws {
        let server = try CardDAVTestStore()
        for method in ["MKCOL", "MOVE", "COPY", "LOCK", "POST", "TRACE"] {
            let response = server.send(method, server.collectionPath)
            #expect(response.status == 405)
            #expect(response.headers["Allow"] == CardDAVService.allowedMethods)
        }
        #expect(server.send("PUT", server.collectionPath, body: "x").status == 405)
        #expect(server.send("DELETE", server.collectionPath).status == 405)
    }

    @Test func traversalNeverReachesAFile() throws {
        let server = try CardDAVTestStore()
        try server.addPerson("Katie", "Bell")
        let before = try server.snapshot()
        let base = server.collectionPath
        let attempts = [
            base + "..", base + "%2e%2e/store.json", base + "..%2fstore.json", base + "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
            base + "..\\store.json", base + "x%00.vcf", base + "%c0%ae%c0%ae/store.json", "/../../etc/passwd",
            "/me/contacts/../../store.json", "/people/", "/store.json", "http://evil/../store.json",
        ]
        for target in attempts {
            for method in ["GET", "PUT", "DELETE", "PROPFIND"] {
                let response = server.send(method, target, body: method == "PUT" ? CardDAVTestStore.card(uid: "u", first: "A", last: "B") : "")
                #expect([400, 404, 405].contains(response.status), "\(method) \(target) gave \(response.status)")
            }
        }
        #expect(try server.snapshot() == before)
    }

    @Test func xmlWithADocumentTypeOrExternalEntitiesIsRefused() throws {
        let server = try CardDAVTestStore()
        try server.addPerson("Katie", "Bell")
        let before = try server.snapshot()
        let bodies = [
            """
            <?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>\
            <d:propfind xmlns:d="DAV:"><d:prop><d:displayname>&x;</d:displayname></d:prop></d:propfind>
            """,
            """
            <?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY a "aaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>\
            <d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>
            """,
            "<d:propfind xmlns:d=\"DAV:\"><d:prop><d:getetag/></d:prop>",
            "not xml at all",
            "<d:propfind xmlns:d=\"DAV:\"><d:prop><x:y xmlns:x=\"X\"></d:prop></d:propfind>",
            String(repeating: "<a>", count: 200) + String(repeating: "</a>", count: 200),
        ]
        for body in bodies {
            #expect(server.send("PROPFIND", server.collectionPath, headers: [("Depth", "1")], body: body).status == 400)
            #expect(server.send("REPORT", server.collectionPath, body: body).status == 400)
        }
        #expect(try server.snapshot() == before)
    }

    @Test func aMalformedProxyPrefixIs400() throws {
        let server = try CardDAVTestStore()
        #expect(server.send("PROPFIND", "/", headers: [("X-Script-Name", "/a/../b")]).status == 400)
    }

    @Test func aPathOfAnotherUserNamesNothing() throws {
        let server = try CardDAVTestStore(user: "alice")
        #expect(server.send("PROPFIND", "/bob/contacts/", headers: [("Depth", "0")]).status == 404)
    }
}
