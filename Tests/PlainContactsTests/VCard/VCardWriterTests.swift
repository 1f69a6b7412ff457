import Foundation
@testable import PlainContacts
import Testing

@Suite("VCardWriter")
struct VCardWriterTests {
    /// The physical lines of serialized text, split on CRLF.
    private func physicalLines(_ text: String) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        var bytes = Array(text.utf8).makeIterator()
        while let byte = bytes.next() {
            if byte == 13 {
                #expect(bytes.next() == 10, "CR must be followed by LF")
                lines.append(current)
                current = []
            } else {
                #expect(byte != 10, "LF must follow CR")
                current.append(byte)
            }
        }
        #expect(current.isEmpty, "the text must end with CRLF")
        return lines
    }

    @Test("a card is BEGIN, VERSION, its properties in order and END, each ended by CRLF")
    func writesCardStructure() {
        let card = VCard(version: "3.0", properties: [
            VCardProperty(name: "fn", text: "Jane Doe"),
            VCardProperty(name: "N", structured: [["Doe"], ["Jane"], [], [], []]),
            VCardProperty(group: "item1", name: "TEL", parameters: [.type("cell", "pref")], rawValue: "+1 555 0100"),
            VCardProperty(group: "item1", name: "X-ABLabel", text: "Boat"),
            VCardProperty(name: "TEL", parameters: [VCardParameter(name: "CELL")], rawValue: "2"),
        ])
        #expect(VCardWriter.serialize(card) == """
            BEGIN:VCARD\r
            VERSION:3.0\r
            FN:Jane Doe\r
            N:Doe;Jane;;;\r
            item1.TEL;TYPE=cell,pref:+1 555 0100\r
            item1.X-ABLABEL:Boat\r
            TEL;CELL:2\r
            END:VCARD\r

            """)
    }

    @Test("several cards follow one another, and an empty version writes no VERSION line")
    func writesSeveralCards() {
        let cards = [
            VCard(version: "4.0", properties: [VCardProperty(name: "FN", text: "A")]),
            VCard(version: "", properties: [VCardProperty(name: "FN", text: "B")]),
        ]
        #expect(VCardWriter.serialize(cards)
            == "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nEND:VCARD\r\nBEGIN:VCARD\r\nFN:B\r\nEND:VCARD\r\n")
        #expect(VCardWriter.serialize([]) == "")
    }

    @Test(
        "long lines fold at 75 octets without splitting a UTF-8 sequence",
        arguments: [
            String(repeating: "a", count: 300),
            String(repeating: "é", count: 120),
            String(repeating: "漢字", count: 70),
            String(repeating: "x😀", count: 60),
            "a" + String(repeating: "😀", count: 50),
            String(repeating: "ab", count: 36) + "é",
        ]
    )
    func foldsLongLines(_ value: String) throws {
        let card = VCard(version: "4.0", properties: [VCardProperty(name: "NOTE", text: value)])
        let text = VCardWriter.serialize(card)
        let lines = physicalLines(text)
        #expect(lines.count > 4)
        #expect(lines.first == Array("BEGIN:VCARD".utf8))
        #expect(lines.last == Array("END:VCARD".utf8))
        #expect(lines[2].starts(with: Array("NOTE:".utf8)))
        for line in lines {
            #expect(line.count <= VCardWriter.maximumLineLength)
            #expect(String(validating: line, as: UTF8.self) != nil, "each line is whole UTF-8")
        }
        for continuation in lines[3..<(lines.count - 1)] {
            #expect(continuation.first == UInt8(ascii: " "))
            #expect(continuation.count > 1)
        }
        let parsed = try #require(try VCardReader.parse(Data(text.utf8), source: "fold.vcf").first)
        #expect(parsed.first(named: "NOTE")?.text == value)
    }

    @Test("a line of exactly 75 octets is not folded, one of 76 is")
    func foldingBoundary() {
        let exact = VCardProperty(name: "NOTE", rawValue: String(repeating: "a", count: 70))  // "NOTE:" + 70
        let longer = VCardProperty(name: "NOTE", rawValue: String(repeating: "a", count: 71))
        let exactText = VCardWriter.serialize(VCard(version: "", properties: [exact]))
        let longerText = VCardWriter.serialize(VCard(version: "", properties: [longer]))
        #expect(physicalLines(exactText).count == 3)
        #expect(physicalLines(longerText).count == 4)
        #expect(physicalLines(longerText)[2] == Array(" a".utf8))
    }

    @Test("parameter values with colon, semicolon or comma are quoted")
    func quotesParameterValues() {
        let property = VCardProperty(
            name: "ADR",
            parameters: [
                VCardParameter(name: "label", values: ["1 Main St; Town: North, Earth"]),
                VCardParameter(name: "TYPE", values: ["home", "a,b"]),
                VCardParameter(name: "X-PLAIN", values: ["simple value"]),
            ],
            rawValue: ";;1 Main St"
        )
        #expect(VCardWriter.contentLine(property)
            == #"ADR;LABEL="1 Main St; Town: North, Earth";TYPE=home,"a,b";X-PLAIN=simple value:;;1 Main St"#)
    }

    @Test("caret, double quote and line breaks in parameter values use RFC 6868 escapes")
    func caretEscapesParameterValues() {
        let property = VCardProperty(
            name: "ADR",
            parameters: [VCardParameter(name: "LABEL", values: ["Line 1\nLine \"2\" ^"])],
            rawValue: ";;"
        )
        #expect(VCardWriter.contentLine(property) == #"ADR;LABEL=Line 1^nLine ^'2^' ^^:;;"#)
    }

    @Test("a line break left in a raw value is written as \\n")
    func rawLineBreaksBecomeEscapes() {
        let property = VCardProperty(name: "NOTE", rawValue: "a\r\nb\nc\rd")
        #expect(VCardWriter.contentLine(property) == #"NOTE:a\nb\nc\nd"#)
    }

    @Test("escape helpers escape backslash, line breaks, comma and semicolon")
    func escapeHelpers() {
        #expect(VCardText.escape("a\\b\nc,d;e\r\nf") == #"a\\b\nc\,d\;e\nf"#)
        #expect(VCardText.escape("plain") == "plain")
        #expect(VCardText.structured([["Doe"], ["Jane"], ["Ann", "Marie"], [], ["Jr., PhD"]])
            == #"Doe;Jane;Ann,Marie;;Jr.\, PhD"#)
        #expect(VCardText.unescape(VCardText.escape("x,\\;\ny")) == "x,\\;\ny")
        let components = [["a;b"], ["c", "d,e"], [""]]
        #expect(VCardText.structuredValues(VCardText.structured(components)) == components)
        #expect(VCardText.components("") == [""])
        #expect(VCardText.listValues(#"a\\,b"#) == ["a\\", "b"])
    }

    @Test("every fixture survives serialize and parse unchanged", arguments: VCardFixtures.parsable)
    func fixtureRoundTrip(_ path: String) throws {
        let cards = VCardTesting.writable(try VCardFixtures.cards(path))
        let text = VCardWriter.serialize(cards)
        let again = try VCardReader.parse(Data(text.utf8), source: path)
        #expect(VCardTesting.withoutLines(again) == VCardTesting.withoutLines(cards))
        #expect(physicalLines(text).allSatisfy { $0.count <= VCardWriter.maximumLineLength })
    }

    @Test("a card with awkward content survives serialize and parse unchanged")
    func awkwardRoundTrip() throws {
        let card = VCard(version: "4.0", properties: [
            VCardProperty(name: "FN", text: " leading and trailing spaces "),
            VCardProperty(
                name: "NOTE",
                text: "Line 1\nLine 2; with, punctuation \\ and 漢字 😀 " + String(repeating: "é", count: 80)
            ),
            VCardProperty(group: "Item7", name: "EMAIL", parameters: [
                VCardParameter(name: "TYPE", values: ["work", "x-a,b"]),
                VCardParameter(name: "LABEL", values: ["a:b;c\n\"d\" ^"]),
                VCardParameter(name: "PREF", values: ["1"]),
                VCardParameter(name: "X-EMPTY", values: [""]),
                VCardParameter(name: "X-BARE"),
            ], rawValue: "a@example.com"),
            VCardProperty(name: "PHOTO", parameters: [VCardParameter(name: "ENCODING", values: ["b"])],
                          rawValue: String(repeating: "QUJD", count: 60)),
            VCardProperty(
                name: "ADR",
                structured: [[""], [""], ["1 Main St", "Apt 2"], ["Town"], [], ["12345"], ["Land"]]
            ),
            VCardProperty(name: "X-EMPTY-VALUE", rawValue: ""),
        ])
        let text = VCardWriter.serialize([card, card])
        let parsed = try VCardReader.parse(Data(text.utf8), source: "awkward.vcf")
        #expect(VCardTesting.withoutLines(parsed) == [card, card])
        #expect(physicalLines(text).allSatisfy { $0.count <= VCardWriter.maximumLineLength })
    }

    @Test("a quoted-printable card is written as plain UTF-8 text that reads back the same")
    func quotedPrintableRoundTrip() throws {
        let cards = VCardTesting.writable(try VCardFixtures.cards("handmade/quoted-printable-21.vcf"))
        let text = VCardWriter.serialize(cards)
        #expect(!text.contains("QUOTED-PRINTABLE"))
        #expect(!text.contains("CHARSET"))
        #expect(text.contains("N:Ärger;Hans-Jürgen;;;\r\n"))
        let again = try VCardReader.parse(Data(text.utf8), source: "again.vcf")
        #expect(VCardTesting.withoutLines(again) == VCardTesting.withoutLines(cards))
    }

    @Test("writing then reading gives consistent line numbers for folded properties")
    func lineNumbersAfterFolding() throws {
        let card = VCard(version: "3.0", properties: [
            VCardProperty(name: "NOTE", text: String(repeating: "n", count: 200)),
            VCardProperty(name: "FN", text: "A"),
        ])
        let parsed = try #require(try VCardReader.parse(Data(VCardWriter.serialize(card).utf8), source: "x").first)
        #expect(parsed.startLine == 1)
        #expect(parsed.properties.map(\.line) == [3, 6])
    }
}
