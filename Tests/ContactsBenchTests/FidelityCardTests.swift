import Foundation
import Testing

@testable import contacts_bench

@Suite("Fidelity card")
struct FidelityCardTests {
    private func texts(_ card: FidelityCard?) -> [String] {
        card?.lines.map(\.text) ?? []
    }

    @Test func unfoldsAndDropsTheLinesEveryWriterMakesItsOwn() {
        let cards = FidelityCard.cards(
            inText: "BEGIN:VCARD\r\nVERSION:3.0\r\nPRODID:x\r\nREV:1\r\nNOTE:a\r\n  b\r\n\tc\r\nEND:VCARD\r\n")
        #expect(cards.count == 1)
        #expect(texts(cards.first) == ["NOTE:a bc"])
        #expect(cards.first?.startLine == 1)
    }

    @Test func splitsLinesAtCRLFLFCRAndCRCRLF() {
        let cards = FidelityCard.cards(inText: "BEGIN:VCARD\r\r\nFN:a\rN:b\nEMAIL:c\r\nEND:VCARD")
        #expect(texts(cards.first) == ["FN:a", "N:b", "EMAIL:c"])
    }

    @Test func joinsQuotedPrintableSoftLineBreaksWithoutIndentation() {
        let text = "BEGIN:VCARD\nVERSION:2.1\nNOTE;ENCODING=QUOTED-PRINTABLE:a=\n b=\n#c\nEND:VCARD\n"
        #expect(texts(FidelityCard.cards(inText: text).first) == ["NOTE;ENCODING=QUOTED-PRINTABLE:a b#c"])
    }

    @Test func joinsBase64LinesUpToABlankLineAndSkipsComments() {
        let text = "BEGIN:VCARD\nVERSION:2.1\nPHOTO;BASE64:AQID\nBA==\n\n# comment\nFN:x\nEND:VCARD\n"
        #expect(texts(FidelityCard.cards(inText: text).first) == ["PHOTO;BASE64:AQIDBA==", "FN:x"])
    }

    @Test func endsACardWithoutEndWhereTheNextBegins() {
        let cards = FidelityCard.cards(inText: "BEGIN:VCARD\nFN:a\nBEGIN:VCARD\nFN:b\nEND:VCARD\nBEGIN:VCARD\nFN:c\n")
        #expect(cards.map(\.startLine) == [1, 3, 6])
        #expect(cards.map { texts($0) } == [["FN:a"], ["FN:b"], ["FN:c"]])
    }

    @Test func keepsANestedAgentCardInsideItsCardAsTheAgentValue() {
        let text = "BEGIN:VCARD\nFN:a\nAGENT:\nBEGIN:VCARD\nN:b;c\nEND:VCARD\nTEL:1\nEND:VCARD\n"
        let cards = FidelityCard.cards(inText: text)
        #expect(cards.count == 1)
        #expect(texts(cards.first) == ["FN:a", #"AGENT:BEGIN:VCARD\nN:b\;c\nEND:VCARD"#, "TEL:1"])
        let sameLine = "BEGIN:VCARD\nFN:a\nAGENT:BEGIN:VCARD\nFN:b\nEND:VCARD\nTEL:1\nEND:VCARD\n"
        #expect(FidelityCard.cards(inText: sameLine).map { texts($0) } == [
            ["FN:a", #"AGENT:BEGIN:VCARD\nFN:b\nEND:VCARD"#, "TEL:1"],
        ])
    }

    @Test func tellsGroupCards() {
        #expect(FidelityCard.cards(inText: "BEGIN:VCARD\nKIND:group\nEND:VCARD\n").first?.isGroup == true)
        #expect(FidelityCard.cards(inText: "BEGIN:VCARD\nX-ADDRESSBOOKSERVER-KIND:GROUP\nEND:VCARD\n").first?.isGroup == true)
        #expect(FidelityCard.cards(inText: "BEGIN:VCARD\nFN:group\nEND:VCARD\n").first?.isGroup == false)
    }

    @Test func decodesUTF16WithAByteOrderMarkAndFallsBackToWindows1252() throws {
        var utf16 = Data([0xFF, 0xFE])
        utf16.append(try #require("BEGIN:VCARD\r\nFN:Zoë\r\nEND:VCARD\r\n".data(using: .utf16LittleEndian)))
        #expect(texts(FidelityCard.cards(in: utf16).first) == ["FN:Zoë"])
        let cp1252 = Data("BEGIN:VCARD\nFN:Zo".utf8) + Data([0xEB, 0x80]) + Data("\nEND:VCARD\n".utf8)
        #expect(texts(FidelityCard.cards(in: cp1252).first) == ["FN:Zoë€"])
    }
}
