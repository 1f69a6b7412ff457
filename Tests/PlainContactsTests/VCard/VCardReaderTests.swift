import Foundation
@testable import PlainContacts
import Testing

@Suite("VCardReader")
struct VCardReaderTests {
    // MARK: - Fixtures

    @Test("fixtures are found")
    func fixturesAreFound() {
        #expect(VCardFixtures.all.count >= 27)
        #expect(VCardFixtures.all.contains(VCardFixtures.unparsable))
    }

    @Test("every real-world fixture parses", arguments: VCardFixtures.parsable)
    func everyFixtureParses(_ path: String) throws {
        let cards = try VCardFixtures.cards(path)
        #expect(!cards.isEmpty)
        for card in cards {
            #expect(["2.1", "3.0", "4.0"].contains(card.version))
            #expect(card.startLine >= 1)
            #expect(!card.properties.isEmpty)
            for property in card.properties {
                #expect(property.line > card.startLine)
                #expect(property.name == property.name.uppercased())
                #expect(!["BEGIN", "END", "VERSION"].contains(property.name))
            }
        }
    }

    @Test("the broken khard fixture fails at the line of its unclosed BEGIN when strict")
    func unparsableFixtureFails() throws {
        let data = try VCardFixtures.data(VCardFixtures.unparsable)
        let error = VCardTesting.interchangeError {
            _ = try VCardReader.parse(data, source: "unparsable.vcf", strict: true)
        }
        #expect(error?.code == .malformedVCard)
        #expect(error?.line == 1)
        #expect(error?.path == "unparsable.vcf")
    }

    @Test("several cards in one file keep their order and start lines")
    func severalCardsPerFile() throws {
        let cards = try VCardFixtures.cards("vcardimport/amelie-alpha-3x.vcf")
        #expect(cards.count == 3)
        #expect(cards.map(\.startLine) == [1, 13, 24])
        #expect(cards.map { $0.first(named: "TITLE")?.text } == [
            "Test Subject", "Duplicated Test Subject", "Another Duplicated Test Subject",
        ])
        let email = try #require(cards[0].first(named: "EMAIL"))
        #expect(email.types == ["INTERNET", "HOME", "PREF"])
        #expect(email.parameter(named: "type") == ["INTERNET", "HOME", "pref"])
    }

    @Test("the all-fields card unfolds values and links Apple labels by group")
    func allFieldsCard() throws {
        let card = try #require(try VCardFixtures.cards("vcard4android/allfields-vcard3.vcf").first)
        #expect(card.first(named: "FN")?.text == "Ämi Display")
        #expect(card.first(named: "FN")?.parameters == [])
        let address = try #require(card.first(named: "ADR"))
        #expect(address.components == ["", "", "6544 Battleford Drive", "Raleigh", "NC", "27613-3502", "U.S.A."])
        #expect(address.types == ["WORK", "POSTAL", "PARCEL", "PREF"])
        #expect(address.isPreferred)
        let notes = card.properties(named: "NOTE")
        #expect(notes.first?.text == "This fax number is operational 0800 to 1715 EST, Mon-Fri.")
        let monkey = card.properties(inGroup: "MONKEY")
        #expect(monkey.map(\.name) == ["ADR", "X-ABLABEL"])
        #expect(card.label(for: monkey[0]) == "Monkey Tree")
        #expect(monkey[0].components[2] == "Teststraße 22")
        let phone = try #require(card.first(named: "TEL"))
        #expect(phone.group == "item1")
        #expect(card.label(for: phone) == "Useless")
        #expect(card.first(named: "ORG")?.components == ["ABC, Inc.", "North American Division", "Marketing"])
        #expect(card.first(named: "NICKNAME")?.listValues == ["Nick1", "Nick2"])
        #expect(card.first(named: "X-TEST")?.parameter(named: "a") == ["B"])
        let photo = try #require(card.first(named: "PHOTO"))
        #expect(photo.isBase64Encoded)
        let jpeg = try #require(Data(base64Encoded: photo.rawValue))
        #expect(jpeg.prefix(2) == Data([0xFF, 0xD8]))
    }

    // MARK: - Lines

    @Test("folded lines lose the line break and exactly one space or tab")
    func unfoldsContinuationLines() throws {
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nNOTE:one\r\n  two\r\n\tthree\r\nFN:x\r\nEND:VCARD\r\n"
        let card = try #require(try VCardTesting.parse(text).first)
        #expect(card.first(named: "NOTE")?.rawValue == "one twothree")
        #expect(card.first(named: "FN")?.line == 6)
    }

    @Test("a fold inside a multi-byte character joins the character again")
    func unfoldsInsideMultibyteCharacter() throws {
        var bytes = Array("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Stra".utf8)
        bytes += [0xC3, 0x0D, 0x0A, 0x20, 0x9F]  // "ß" split between two lines
        bytes += Array("e \u{1F600}\r\nEND:VCARD\r\n".utf8)
        let card = try #require(try VCardTesting.parse(bytes: bytes).first)
        #expect(card.first(named: "FN")?.text == "Straße \u{1F600}")
    }

    @Test("CRLF, LF and lone CR line ends give the same cards and line numbers", arguments: ["\r\n", "\n", "\r"])
    func acceptsEveryLineEnd(_ lineEnd: String) throws {
        let lines = ["BEGIN:VCARD", "VERSION:3.0", "FN:A", "NOTE:long", " er", "TEL:1", "END:VCARD", "", "BEGIN:VCARD",
                     "VERSION:3.0", "FN:B", "END:VCARD"]
        let cards = try VCardTesting.parse(lines.joined(separator: lineEnd) + lineEnd)
        #expect(cards.count == 2)
        #expect(cards[0].first(named: "NOTE")?.rawValue == "longer")
        #expect(cards[0].properties.map(\.line) == [3, 4, 6])
        #expect(cards[1].startLine == 9)
        #expect(cards[1].first(named: "FN")?.line == 11)
    }

    @Test("a UTF-8 byte order mark is skipped")
    func skipsByteOrderMark() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("BEGIN:VCARD\nVERSION:4.0\nFN:A\nEND:VCARD".utf8)
        let cards = try VCardTesting.parse(bytes: bytes)
        #expect(cards.count == 1)
        #expect(cards[0].startLine == 1)
        #expect(cards[0].first(named: "FN")?.rawValue == "A")
    }

    @Test("UTF-16 input is refused when strict")
    func refusesUTF16() {
        let bytes: [UInt8] = [0xFF, 0xFE] + Array("BEGIN:VCARD".utf8).flatMap { [$0, 0] }
        let error = VCardTesting.interchangeError { _ = try VCardTesting.parse(bytes: bytes, strict: true) }
        #expect(error?.code == .malformedVCard)
        #expect(error?.line == 1)
    }

    @Test("blank lines between and inside cards are ignored, and empty input has no cards")
    func ignoresBlankLines() throws {
        let text = "\r\n\r\nBEGIN:VCARD\r\nVERSION:3.0\r\n\r\nFN:A\r\nEND:VCARD\r\n\r\n\r\n"
            + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:B\r\nEND:VCARD"
        let cards = try VCardTesting.parse(text)
        #expect(cards.map { $0.first(named: "FN")?.text } == ["A", "B"])
        #expect(cards.map(\.startLine) == [3, 10])
        #expect(try VCardTesting.parse("").isEmpty)
        #expect(try VCardTesting.parse("\n\n").isEmpty)
    }

    @Test("BEGIN, END, names, parameter names and groups are case-insensitive")
    func namesAreCaseInsensitive() throws {
        let text = "begin:vcard\nversion:3.0\nItem1.tel;type=cell:1\nitem1.X-ABLabel:Boat\nend:VCard\n"
        let card = try #require(try VCardTesting.parse(text).first)
        #expect(card.version == "3.0")
        let phone = try #require(card.first(named: "Tel"))
        #expect(phone.name == "TEL")
        #expect(phone.group == "Item1")
        #expect(phone.parameters == [VCardParameter(name: "TYPE", values: ["cell"])])
        #expect(card.properties(inGroup: "ITEM1").count == 2)
        #expect(card.label(for: phone) == "Boat")
    }

    // MARK: - Values

    @Test("escapes are kept in rawValue and removed by text, components and listValues")
    func escapes() throws {
        let text = #"""
            BEGIN:VCARD
            VERSION:3.0
            NOTE:a\nb\Nc\,d\;e\\f\:g
            N:Doe\;Smith;Jane;Ann,Marie;;
            CATEGORIES:work,home\,garden
            END:VCARD
            """#
        let card = try #require(try VCardTesting.parse(text).first)
        let note = try #require(card.first(named: "NOTE"))
        #expect(note.rawValue == #"a\nb\Nc\,d\;e\\f\:g"#)
        #expect(note.text == "a\nb\nc,d;e\\f:g")
        let name = try #require(card.first(named: "N"))
        #expect(name.components == ["Doe;Smith", "Jane", "Ann,Marie", "", ""])
        #expect(name.structuredValues == [["Doe;Smith"], ["Jane"], ["Ann", "Marie"], [""], [""]])
        #expect(card.first(named: "CATEGORIES")?.listValues == ["work", "home,garden"])
    }

    @Test("uri values and data: URIs are kept as written")
    func uriValuesUntouched() throws {
        let card = try #require(try VCardFixtures.cards("khard/photov4.vcf").first)
        let photo = try #require(card.first(named: "PHOTO"))
        #expect(photo.rawValue.hasPrefix(#"data:image/png;base64\,iVBORw0KGgo"#))
        #expect(photo.rawValue.hasSuffix("AAAAAElFTkSuQmCC"))
        #expect(!photo.isBase64Encoded)
        let tel = try #require(try VCardFixtures.cards("khard/tel-value-uri.vcf").first?.first(named: "TEL"))
        #expect(tel.parameter(named: "VALUE") == ["URI"])
        #expect(tel.rawValue == "67545678")
    }

    // MARK: - Parameters

    @Test("quoted parameter values may hold colon, semicolon and comma")
    func quotedParameterValues() throws {
        let text = #"""
            BEGIN:VCARD
            VERSION:4.0
            ADR;LABEL="1 Main St; Apt 2, Town: North";TYPE=home:;;1 Main St;Town;;;
            END:VCARD
            """#
        let address = try #require(try VCardTesting.parse(text).first?.first(named: "ADR"))
        #expect(address.parameter(named: "LABEL") == ["1 Main St; Apt 2, Town: North"])
        #expect(address.types == ["HOME"])
        #expect(address.rawValue == ";;1 Main St;Town;;;")
    }

    @Test("comma-separated parameter values become separate values")
    func commaSeparatedParameterValues() throws {
        let text = "BEGIN:VCARD\nVERSION:3.0\nTEL;TYPE=work,voice;TYPE=\"fax,pref\":1\nEND:VCARD\n"
        let tel = try #require(try VCardTesting.parse(text).first?.first(named: "TEL"))
        #expect(tel.parameters == [
            VCardParameter(name: "TYPE", values: ["work", "voice"]),
            VCardParameter(name: "TYPE", values: ["fax,pref"]),
        ])
        #expect(tel.types == ["WORK", "VOICE", "FAX", "PREF"])
    }

    @Test("RFC 6868 caret escapes in parameter values are decoded")
    func caretEscapes() throws {
        let text = "BEGIN:VCARD\nVERSION:4.0\nADR;LABEL=\"a^nb ^'c^' ^^ ^x\":;;\nEND:VCARD\n"
        let address = try #require(try VCardTesting.parse(text).first?.first(named: "ADR"))
        #expect(address.parameter(named: "LABEL") == ["a\nb \"c\" ^ ^x"])
    }

    @Test("vCard 2.1 bare parameters count as types")
    func bareTypesOfVersion21() throws {
        let card = try #require(try VCardFixtures.cards("handmade/quoted-printable-21.vcf").first)
        let phones = card.properties(named: "TEL")
        #expect(phones.map(\.types) == [["CELL", "PREF"], ["HOME", "VOICE"]])
        #expect(phones[0].parameters == [VCardParameter(name: "CELL"), VCardParameter(name: "PREF")])
        #expect(phones[0].isPreferred)
        #expect(card.first(named: "EMAIL")?.types == ["INTERNET"])
    }

    // MARK: - vCard 2.1 encodings

    @Test("quoted-printable values with soft line breaks and charsets are decoded")
    func quotedPrintableFixture() throws {
        let card = try #require(try VCardFixtures.cards("handmade/quoted-printable-21.vcf").first)
        #expect(card.version == "2.1")
        let name = try #require(card.first(named: "N"))
        #expect(name.components == ["Ärger", "Hans-Jürgen", "", "", ""])
        #expect(name.parameters.isEmpty)
        #expect(name.line == 3)
        #expect(card.first(named: "FN")?.text == "Hans-Jürgen Ärger")
        #expect(card.first(named: "FN")?.line == 5)
        let address = try #require(card.first(named: "ADR"))
        #expect(address.components == ["", "", "Straße 1", "München", "", "80331", "Deutschland"])
        #expect(address.parameters == [VCardParameter(name: "HOME")])
        let note = try #require(card.first(named: "NOTE"))
        #expect(note.text == "Erste Zeile\nZweite Zeile, mit Komma und einem  langen Rest")
        #expect(note.line == 11)
    }

    @Test("a latin1 or windows-1252 charset decodes raw bytes, and invalid UTF-8 falls back to windows-1252")
    func charsetsOfRawBytes() throws {
        var bytes = Array("BEGIN:VCARD\r\nVERSION:2.1\r\nFN;CHARSET=ISO-8859-1:M".utf8) + [0xFC]
        bytes += Array("ller\r\nNOTE;CHARSET=windows-1252:".utf8) + [0x80, 0x20, 0x93, 0x41, 0x94]
        bytes += Array("\r\nORG:Caf".utf8) + [0xE9] + Array("\r\nEND:VCARD\r\n".utf8)
        let card = try #require(try VCardTesting.parse(bytes: bytes).first)
        #expect(card.first(named: "FN")?.text == "Müller")
        #expect(card.first(named: "FN")?.parameters == [])
        #expect(card.first(named: "NOTE")?.text == "€ “A”")
        #expect(card.first(named: "ORG")?.text == "Café")
    }

    @Test("quoted-printable with a latin1 charset and a bare encoding word")
    func quotedPrintableLatin1() throws {
        let text = "BEGIN:VCARD\nVERSION:2.1\nNOTE;QUOTED-PRINTABLE;CHARSET=latin1:Gr=FC=DFe=\n aus K=F6ln=\n\n"
            + "END:VCARD\n"
        let note = try #require(try VCardTesting.parse(text).first?.first(named: "NOTE"))
        #expect(note.text == "Grüße aus Köln")
        #expect(note.parameters.isEmpty)
    }

    @Test("malformed quoted-printable fails at the physical line of the bad escape when strict")
    func malformedQuotedPrintable() {
        let text = "BEGIN:VCARD\nVERSION:2.1\nNOTE;ENCODING=QUOTED-PRINTABLE:ok=\nstill ok=\nbad =ZZ\nEND:VCARD\n"
        let error = VCardTesting.interchangeError { _ = try VCardTesting.parse(text, source: "qp.vcf", strict: true) }
        #expect(error?.code == .malformedVCard)
        #expect(error?.line == 5)
        #expect(error?.path == "qp.vcf")
    }

    @Test("an unknown charset is refused with the property's line when strict")
    func unknownCharset() {
        let text = "BEGIN:VCARD\nVERSION:2.1\nFN:A\nNOTE;CHARSET=X-NO-SUCH-CHARSET:x\nEND:VCARD\n"
        let error = VCardTesting.interchangeError { _ = try VCardTesting.parse(text, strict: true) }
        #expect(error?.code == .malformedVCard)
        #expect(error?.line == 4)
    }

    // MARK: - Base64

    @Test("vCard 2.1 base64 continues on indented lines up to a blank line")
    func base64IndentedIn21() throws {
        let card = try #require(try VCardFixtures.cards("handmade/quoted-printable-21.vcf").first)
        let photo = try #require(card.first(named: "PHOTO"))
        #expect(photo.isBase64Encoded)
        #expect(photo.types == ["GIF"])
        #expect(photo.rawValue == "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7")
        let gif = try #require(Data(base64Encoded: photo.rawValue))
        #expect(gif.prefix(6) == Data("GIF89a".utf8))
    }

    @Test("vCard 2.1 base64 continues on lines that are not indented")
    func base64UnindentedIn21() throws {
        let text = "BEGIN:VCARD\r\nVERSION:2.1\r\nPHOTO;BASE64;JPEG:/9j/4AAQ\r\nSkZJRgAB\r\nAQEASABI==\r\n\r\n"
            + "FN:A\r\nEND:VCARD\r\n"
        let card = try #require(try VCardTesting.parse(text).first)
        #expect(card.first(named: "PHOTO")?.rawValue == "/9j/4AAQSkZJRgABAQEASABI")
        #expect(card.first(named: "PHOTO")?.types == ["JPEG"])
        #expect(card.first(named: "FN")?.line == 7)
    }

    @Test("vCard 3.0 base64 continues on folded lines")
    func base64FoldedIn30() throws {
        let card = try #require(try VCardFixtures.cards("khard/photov3.vcf").first)
        let photo = try #require(card.first(named: "PHOTO"))
        #expect(photo.parameters == [
            VCardParameter(name: "ENCODING", values: ["b"]), VCardParameter(name: "TYPE", values: ["PNG"]),
        ])
        let png = try #require(Data(base64Encoded: photo.rawValue))
        #expect(png.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
    }

    @Test("a nested vCard 2.1 AGENT becomes the AGENT property's value")
    func nestedAgent() throws {
        let cards = try VCardFixtures.cards("handmade/quoted-printable-21.vcf")
        #expect(cards.count == 2)
        let card = cards[1]
        #expect(card.startLine == 19)
        let agent = try #require(card.first(named: "AGENT"))
        #expect(agent.text == "BEGIN:VCARD\nVERSION:2.1\nFN:Assistenz\nTEL;WORK:+49 89 0000000\nEND:VCARD")
        let inner = try VCardTesting.parse(agent.text)
        #expect(inner.first?.first(named: "FN")?.text == "Assistenz")
        #expect(card.properties.map(\.name) == ["N", "FN", "AGENT", "TEL"])
        #expect(card.properties.last?.line == 29)
    }

    // MARK: - Errors

    @Test("a card without END:VCARD fails at its BEGIN line when strict")
    func missingEnd() {
        let text = "BEGIN:VCARD\nVERSION:3.0\nFN:A\nEND:VCARD\nBEGIN:VCARD\nVERSION:3.0\nFN:B\n"
        let error = VCardTesting.interchangeError { _ = try VCardTesting.parse(text, source: "two.vcf", strict: true) }
        #expect(error?.code == .malformedVCard)
        #expect(error?.line == 5)
        #expect(error?.path == "two.vcf")
    }

    @Test("a BEGIN:VCARD inside an open card fails at that line when strict")
    func beginBeforeEnd() {
        let text = "BEGIN:VCARD\nVERSION:3.0\nFN:A\nBEGIN:VCARD\nFN:B\nEND:VCARD\n"
        let error = VCardTesting.interchangeError { _ = try VCardTesting.parse(text, strict: true) }
        #expect(error?.code == .malformedVCard)
        #expect(error?.line == 4)
    }

    @Test("a content line without a colon fails at its physical line when strict")
    func lineWithoutColon() {
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nNOTE:folded\r\n over\r\n lines\r\nTEL 555 0100\r\nEND:VCARD\r\n"
        let error = VCardTesting.interchangeError { _ = try VCardTesting.parse(text, strict: true) }
        #expect(error?.code == .malformedVCard)
        #expect(error?.line == 6)
    }

    @Test("an unclosed quote in a parameter fails at the property's line when strict")
    func unclosedQuote() {
        let text = "BEGIN:VCARD\nVERSION:4.0\nADR;LABEL=\"open:;;x\nEND:VCARD\n"
        let error = VCardTesting.interchangeError { _ = try VCardTesting.parse(text, strict: true) }
        #expect(error?.code == .malformedVCard)
        #expect(error?.line == 3)
    }

    @Test("text between cards fails at its line when strict", arguments: ["garbage", "FN:stray", "END:VCARD"])
    func textBetweenCards(_ stray: String) {
        let text = "BEGIN:VCARD\nVERSION:3.0\nFN:A\nEND:VCARD\n\n\(stray)\nBEGIN:VCARD\nVERSION:3.0\nFN:B\nEND:VCARD\n"
        let error = VCardTesting.interchangeError { _ = try VCardTesting.parse(text, strict: true) }
        #expect(error?.code == .malformedVCard)
        #expect(error?.line == 6)
    }

    // MARK: - Streaming

    @Test(
        "the stream reader yields the same cards and lines in chunks of any size",
        arguments: [1, 2, 3, 7, 64, 4096]
    )
    func streamReaderMatchesReader(_ chunkSize: Int) throws {
        var data = Data()
        for path in VCardFixtures.parsable {
            data += try VCardFixtures.data(path)
            data += Data("\r\n".utf8)
        }
        data += Data("BEGIN:VCARD\rVERSION:3.0\rFN:lone CR\rEND:VCARD\r".utf8)
        let expected = try VCardReader.parse(data, source: "all.vcf")
        var offset = 0
        var reader = VCardStreamReader(source: "all.vcf") {
            guard offset < data.count else { return nil }
            let chunk = data.subdata(in: offset..<min(offset + chunkSize, data.count))
            offset += chunk.count
            return chunk
        }
        var streamed: [VCard] = []
        try reader.forEachCard { streamed.append($0) }
        #expect(streamed == expected)
        #expect(try reader.next() == nil)
    }

    @Test("the stream reader reads a file and, when strict, reports errors with the same line")
    func streamReaderReadsFile() throws {
        let folder = try VCardTesting.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("good.vcf")
        try VCardFixtures.data("vcardimport/amelie-alpha-3x.vcf").write(to: good)
        var reader = try VCardStreamReader(contentsOf: good)
        var count = 0
        while let card = try reader.next() {
            count += 1
            #expect(card.first(named: "FN")?.text == "Amelie Alpha")
        }
        #expect(count == 3)

        let bad = folder.appendingPathComponent("bad.vcf")
        let badText = "BEGIN:VCARD\nVERSION:3.0\nFN:A\nEND:VCARD\nBEGIN:VCARD\nFN:B\nno colon\nEND:VCARD\n"
        try Data(badText.utf8).write(to: bad)
        var badReader = try VCardStreamReader(contentsOf: bad)
        badReader.isStrict = true
        #expect(try badReader.next()?.first(named: "FN")?.text == "A")
        let error = VCardTesting.interchangeError { _ = try badReader.next() }
        #expect(error?.code == .malformedVCard)
        #expect(error?.line == 7)
        #expect(error?.path == bad.path)
    }

    @Test("opening a missing file fails with an io error")
    func streamReaderMissingFile() throws {
        let folder = try VCardTesting.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = VCardTesting.contactsError {
            _ = try VCardStreamReader(contentsOf: folder.appendingPathComponent("missing.vcf"))
        }
        #expect(error?.code == .io)
    }
}
