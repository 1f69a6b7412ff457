import Foundation
import Testing

@testable import PlainContacts

/// A card cut down to the properties a request names, as a server's `address-data` gives it.
@Suite struct VCardPropertySubsetTests {
    private let card = Data(
        """
        BEGIN:VCARD\r
        VERSION:3.0\r
        FN:Katie Bell\r
        N:Bell;Katie;;;\r
        EMAIL;TYPE=work:katie@example.com\r
        item1.TEL;TYPE=cell:+1 555 0100\r
        EMAIL:kb@example.org\r
        END:VCARD\r

        """.utf8)

    @Test func onlyTheNamedPropertiesAreKeptInTheirOrderBesideTheVersion() throws {
        let cut = try #require(VCard.firstCard(in: card, keepingPropertiesNamed: ["email", "Tel"]))
        #expect(
            String(decoding: cut, as: UTF8.self)
                == "BEGIN:VCARD\r\nVERSION:3.0\r\nEMAIL;TYPE=work:katie@example.com\r\nitem1.TEL;TYPE=cell:+1 555 0100\r\n"
                + "EMAIL:kb@example.org\r\nEND:VCARD\r\n")
    }

    @Test func namesNoCardHasLeaveOnlyTheVersion() throws {
        let cut = try #require(VCard.firstCard(in: card, keepingPropertiesNamed: ["NICKNAME"]))
        #expect(String(decoding: cut, as: UTF8.self) == "BEGIN:VCARD\r\nVERSION:3.0\r\nEND:VCARD\r\n")
    }

    @Test func bytesWithoutACardGiveNothing() {
        #expect(VCard.firstCard(in: Data("not a card".utf8), keepingPropertiesNamed: ["FN"]) == nil)
    }

    @Test func propertiesByNameMatchCaseInsensitively() throws {
        let parsed = try #require(try VCardReader.parse(card, source: "katie.vcf").first)
        #expect(parsed.properties(named: "email").map(\.text) == ["katie@example.com", "kb@example.org"])
        #expect(parsed.properties(named: "X-NONE").isEmpty)
    }
}
