import Foundation
import Testing
@testable import PlainContacts

/// Groups as cards, in Apple's form (what iOS writes) and RFC 6350's.
@Suite struct CardDAVServiceGroupTests {
    private static func appleGroup(uid: String, name: String, members: [String]) -> String {
        (["BEGIN:VCARD", "VERSION:3.0", "N:\(name);;;;", "FN:\(name)", "X-ADDRESSBOOKSERVER-KIND:group", "UID:\(uid)"]
            + members.map { "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:\($0)" } + ["END:VCARD", ""]).joined(separator: "\r\n")
    }

    private static func rfcGroup(uid: String, name: String, members: [String]) -> String {
        (["BEGIN:VCARD", "VERSION:4.0", "KIND:group", "FN:\(name)", "UID:\(uid)"]
            + members.map { "MEMBER:urn:uuid:\($0)" } + ["END:VCARD", ""]).joined(separator: "\r\n")
    }

    private func memberNames(_ server: CardDAVTestStore, group name: String) throws -> Set<String> {
        let book = try server.store.openBook()
        let group = try #require(book.groups(named: name).first)
        return Set(book.members(of: group).compactMap(\.firstName))
    }

    @Test func anApplesGroupCardCreatesAGroupWithItsMembers() throws {
        let server = try CardDAVTestStore()
        server.put("a.vcf", CardDAVTestStore.card(uid: "a", first: "Alicia", last: "Spinnet"))
        server.put("k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell"))
        let response = server.put("g.vcf", Self.appleGroup(uid: "g", name: "Chasers", members: ["a", "k", "not-here"]))
        #expect(response.status == 201)
        #expect(try memberNames(server, group: "Chasers") == ["Alicia", "Katie"])
        let text = String(decoding: server.send("GET", server.cardPath("g.vcf")).body, as: UTF8.self)
        #expect(text.contains("X-ADDRESSBOOKSERVER-KIND:group"))
        for member in ["a", "k", "not-here"] { #expect(text.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:\(member)")) }
        // The store serves the card with its own key line: no ETag, so that the client reads it back.
        #expect(response.headers["ETag"] == nil)
    }

    @Test func changingMembersAndDeletingTheGroup() throws {
        let server = try CardDAVTestStore()
        server.put("a.vcf", CardDAVTestStore.card(uid: "a", first: "Alicia", last: "Spinnet"))
        server.put("k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell"))
        #expect(server.put("g.vcf", Self.appleGroup(uid: "g", name: "Chasers", members: ["a"])).status == 201)
        let etag = try #require(server.send("GET", server.cardPath("g.vcf")).headers["ETag"])
        let changed = server.put("g.vcf", Self.appleGroup(uid: "g", name: "Chasers", members: ["k"]), headers: [("If-Match", etag)])
        #expect(changed.status == 204)
        #expect(try memberNames(server, group: "Chasers") == ["Katie"])
        #expect(server.send("DELETE", server.cardPath("g.vcf")).status == 204)
        let book = try server.store.openBook()
        #expect(book.allGroups().isEmpty)
        #expect(book.allPeople().count == 2)
    }

    @Test func anRFC6350GroupKeepsItsForm() throws {
        let server = try CardDAVTestStore()
        server.put("k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell"))
        #expect(server.put("g.vcf", Self.rfcGroup(uid: "g4", name: "Team", members: ["k"])).status == 201)
        #expect(try memberNames(server, group: "Team") == ["Katie"])
        let text = String(decoding: server.send("GET", server.cardPath("g.vcf")).body, as: UTF8.self)
        #expect(text.contains("VERSION:4.0") && text.contains("KIND:group") && text.contains("MEMBER:urn:uuid:k"))
        #expect(!text.contains("X-ADDRESSBOOKSERVER"))
    }

    @Test func aGroupChangedByTheCLIChangesItsCard() throws {
        let server = try CardDAVTestStore()
        server.put("k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell"))
        server.put("g.vcf", Self.appleGroup(uid: "g", name: "Chasers", members: []))
        let before = try #require(server.send("GET", server.cardPath("g.vcf")).headers["ETag"])
        let book = try server.store.openBook()
        let group = try #require(book.groups(named: "Chasers").first)
        try group.addMember(try #require(book.allPeople().first))
        try book.save()
        let after = server.send("GET", server.cardPath("g.vcf"))
        #expect(after.headers["ETag"] != before)
        #expect(String(decoding: after.body, as: UTF8.self).contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:k"))
    }

    @Test func removingAMemberPersonChangesTheGroupCard() throws {
        let server = try CardDAVTestStore()
        server.put("k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell"))
        server.put("g.vcf", Self.appleGroup(uid: "g", name: "Chasers", members: ["k"]))
        #expect(server.send("DELETE", server.cardPath("k.vcf")).status == 204)
        let text = String(decoding: server.send("GET", server.cardPath("g.vcf")).body, as: UTF8.self)
        #expect(!text.contains("urn:uuid:k"))
    }
}
