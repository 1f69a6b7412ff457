import Foundation
import Testing
@testable import PlainContacts

@Suite("VCardParser")
struct VCardParserTests {
    @Test("a text value over the limit is left out of its card and noted with its line")
    func oversizedTextValueIsLeftOut() throws {
        let long = String(repeating: "é", count: VCardParser.maximumTextValueBytes / 2 + 1)
        let photo = String(repeating: "QUJD", count: VCardParser.maximumTextValueBytes / 2)
        let text = "BEGIN:VCARD\nVERSION:3.0\nFN:A\nNOTE:\(long)\nTEL:1\nPHOTO;ENCODING=b;TYPE=JPEG:\(photo)\nEND:VCARD\n"
        let cards = try VCardReader.parse(Data(text.utf8), source: "long.vcf")
        let card = try #require(cards.first)
        #expect(card.properties.map(\.name) == ["FN", "TEL", "PHOTO"])
        #expect(card.leftOut.map(\.name) == ["NOTE"])
        #expect(card.leftOut.map(\.line) == [4])
        #expect(card.leftOut.first?.warning(source: "long.vcf").path == "long.vcf")
    }

    @Test("a text value at the limit is kept")
    func textValueAtTheLimitIsKept() throws {
        let text = "BEGIN:VCARD\nVERSION:3.0\nFN:A\nNOTE:\(String(repeating: "a", count: VCardParser.maximumTextValueBytes))\nEND:VCARD\n"
        let card = try #require(try VCardReader.parse(Data(text.utf8), source: "long.vcf").first)
        #expect(card.properties.map(\.name) == ["FN", "NOTE"])
        #expect(card.leftOut.isEmpty)
    }
}
