import Foundation
import Testing
@testable import PlainContacts

@Suite struct GroupCardTests {
    private func read(_ text: String) throws -> GroupCard {
        let card = try #require(try VCardReader.parse(Data(text.utf8), source: "g.vcf").first)
        return try #require(GroupCard(card: card, href: "/me/g.vcf"))
    }

    @Test func appleGroupCardsAreReadWithTheirMembersAndOtherLines() throws {
        let group = try read(
            "BEGIN:VCARD\r\nVERSION:3.0\r\nPRODID:-//Apple Inc.//iOS 17//EN\r\nN:Friends\r\nFN:Friends\r\n"
                + "X-ADDRESSBOOKSERVER-KIND:group\r\nX-ADDRESSBOOKSERVER-MEMBER:urn:uuid:B\r\n"
                + "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:A\r\nUID:g-1\r\nX-CUSTOM:kept\r\nEND:VCARD\r\n")
        #expect(group.name == "Friends")
        #expect(group.uid == "g-1")
        #expect(group.members == ["A", "B"])
        #expect(group.form == .apple)
        #expect(group.lines == ["X-CUSTOM:kept"])
    }

    @Test func rfc6350GroupCardsAreReadInTheirForm() throws {
        let group = try read("BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nFN:Team\r\nMEMBER:urn:uuid:A\r\nUID:g-2\r\nEND:VCARD\r\n")
        #expect(group.form == .rfc6350)
        #expect(group.members == ["A"])
    }

    @Test func eachFormIsWrittenBackAsItCame() throws {
        for form in [GroupCard.Form.apple, .rfc6350] {
            let group = GroupCard(name: "Team", uid: "g-3", members: ["A", "mailto:x@example.com"], form: form, lines: ["X-CUSTOM:kept"])
            let text = String(decoding: group.serialized(), as: UTF8.self)
            #expect(text.contains("\(form.memberProperty):urn:uuid:A"))
            #expect(text.contains("\(form.memberProperty):mailto:x@example.com"))
            #expect(text.contains("VERSION:\(form.version.rawValue)"))
            #expect(try read(text) == group)
        }
    }

    @Test func aMemberLineIsRecognizedWhateverItsGroupOrCase() {
        #expect(GroupCard.memberKey(ofLine: "item1.x-addressbookserver-member:urn:uuid:A") == "A")
        #expect(GroupCard.memberKey(ofLine: "MEMBER;PID=1:urn:uuid:B") == "B")
        #expect(GroupCard.memberKey(ofLine: "X-CUSTOM:urn:uuid:C") == nil)
    }
}
