import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

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
        // The card is kept as sent: the ETag of the PUT is the card's.
        #expect(response.headers["ETag"] != nil)
        #expect(server.send("GET", server.cardPath("g.vcf")).headers["ETag"] == response.headers["ETag"])
    }

    @Test func aCardChangingFromPersonToGroupOrBackIsRefusedWith403() throws {
        let server = try CardDAVTestStore()
        server.put("k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell"))
        server.put("g.vcf", Self.appleGroup(uid: "g", name: "Chasers", members: ["k"]))
        let before = try server.snapshot()
        #expect(server.put("k.vcf", Self.appleGroup(uid: "k", name: "Katie", members: [])).status == 403)
        // Whatever its UID: the kind is checked before the UID's uniqueness.
        #expect(server.put("k.vcf", Self.appleGroup(uid: "g", name: "Chasers", members: [])).status == 403)
        #expect(server.put("g.vcf", CardDAVTestStore.card(uid: "g", first: "Chasers", last: "Team")).status == 403)
        #expect(try server.snapshot() == before)
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

    /// CalDAVTester's `Resource/CardDAV/vcardput/19.vcf` (put.xml, PUT groups 4): an `N` that
    /// is not the `FN`, members that are not `urn:uuid:` of a UID, `PRODID` and `REV`.
    private static let calDAVTesterGroup = [
        "BEGIN:VCARD", "VERSION:3.0", "X-ADDRESSBOOKSERVER-KIND:group",
        "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:8424B7F0-C878-4722-B522-EBB07CF48AD7:ABPerson",
        "X-ADDRESSBOOKSERVER-MEMBER:user03@example.com", "PRODID:-//Apple Inc.//AddressBook 6.1//EN",
        "UID:760d9b28-5a13-4880-b7eb-5769e6600fa3", "FN:Changed Group", "N:ChangedGroup;;;;", "REV:20120503T194243Z",
        "END:VCARD", "",
    ].joined(separator: "\r\n")

    /// The content lines of a served card, without the store's key line.
    private static func contentLines(_ response: HTTPServerResponse) -> [String] {
        String(decoding: response.body, as: UTF8.self).replacingOccurrences(of: "\r\n ", with: "")
            .components(separatedBy: "\r\n").filter { !$0.isEmpty && !$0.hasPrefix(CardMapping.keyProperty) }
    }

    @Test func aGroupCardIsReadBackAsSent() throws {
        let server = try CardDAVTestStore()
        #expect(server.put("16.vcf", Self.appleGroup(uid: "760d9b28-5a13-4880-b7eb-5769e6600fa3", name: "Group", members: [])).status == 201)
        let replaced = server.put("16.vcf", Self.calDAVTesterGroup)
        #expect(replaced.status == 204)
        let read = server.send("GET", server.cardPath("16.vcf"))
        #expect(Self.contentLines(read) == Self.calDAVTesterGroup.components(separatedBy: "\r\n").filter { !$0.isEmpty })
        // Put back as read, the card is stored as sent: the answer has its ETag.
        let again = server.put("16.vcf", String(decoding: read.body, as: UTF8.self))
        #expect(again.headers["ETag"] == read.headers["ETag"])
        #expect(server.send("GET", server.cardPath("16.vcf")).body == read.body)
        let book = try server.store.openBook()
        #expect(book.groups(named: "Changed Group").count == 1)
    }

    @Test func aGroupCardKeptAsSentIsMadeAfreshOnceTheGroupChanges() throws {
        let server = try CardDAVTestStore()
        server.put("k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell"))
        server.put("16.vcf", Self.calDAVTesterGroup)
        let book = try server.store.openBook()
        let group = try #require(book.groups(named: "Changed Group").first)
        group.name = "Renamed"
        try book.save()
        let renamed = Self.contentLines(server.send("GET", server.cardPath("16.vcf")))
        #expect(renamed.contains("FN:Renamed") && renamed.contains { $0.hasPrefix("N:Renamed") })
        #expect(!renamed.contains("N:ChangedGroup;;;;") && !renamed.contains { $0.hasPrefix("PRODID") })
        // The members the store has no person for are still written as sent.
        #expect(renamed.contains("X-ADDRESSBOOKSERVER-MEMBER:user03@example.com"))
        #expect(renamed.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:8424B7F0-C878-4722-B522-EBB07CF48AD7:ABPerson"))
        group.name = "Changed Group"
        try group.addMember(try #require(book.allPeople().first))
        try book.save()
        let joined = Self.contentLines(server.send("GET", server.cardPath("16.vcf")))
        #expect(joined.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:k") && joined.contains("FN:Changed Group"))
        #expect(!joined.contains("N:ChangedGroup;;;;"))
    }

    @Test func aGroupCardSentAgainWithOtherMembersIsReadBackAsSentAgain() throws {
        let server = try CardDAVTestStore()
        server.put("k.vcf", CardDAVTestStore.card(uid: "k", first: "Katie", last: "Bell"))
        server.put("g.vcf", Self.calDAVTesterGroup)
        let withKatie = Self.calDAVTesterGroup.replacingOccurrences(
            of: "PRODID:", with: "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:k\r\nPRODID:")
        #expect(server.put("g.vcf", withKatie).status == 204)
        #expect(try memberNames(server, group: "Changed Group") == ["Katie"])
        #expect(Self.contentLines(server.send("GET", server.cardPath("g.vcf"))) == withKatie.components(separatedBy: "\r\n").filter { !$0.isEmpty })
    }
}
