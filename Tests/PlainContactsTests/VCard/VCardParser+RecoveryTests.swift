import Foundation
import PlainContacts
import Testing

@testable import PlainContacts

/// The cards under `Fixtures/vcards/recovery`, one file per problem a lenient reader recovers from.
private enum RecoveryFixtures {
    /// Every fixture with a problem: read leniently with at least one recovery, refused when strict.
    static let broken = [
        "blank-and-comment-lines.vcf", "missing-end.vcf", "unreadable-lines.vcf",
        "quoted-printable-21.vcf", "base64-and-data-uri.vcf", "utf16le.vcf", "utf16be.vcf",
        "eight-bit-charsets.vcf",
    ]
    /// Fixtures whose oddities are all valid: read the same way leniently and strictly, with no recovery.
    static let odd = ["ios6-cr-cr-lf.vcf", "escapes.vcf", "names-and-parameters.vcf", "agent-21.vcf"]

    static func cards(_ name: String, strict: Bool = false) throws -> [VCard] {
        try VCardReader.parse(try VCardFixtures.data("recovery/" + name), source: name, strict: strict)
    }
}

@Suite("VCardParser recovery")
struct VCardParserRecoveryTests {
    @Test("a broken fixture is read with recoveries and refused when strict", arguments: RecoveryFixtures.broken)
    func brokenFixtureIsRecoveredOrRefused(_ name: String) throws {
        let cards = try RecoveryFixtures.cards(name)
        #expect(!cards.isEmpty)
        let warnings = cards.flatMap { $0.warnings(source: name) }
        #expect(!warnings.isEmpty)
        #expect(warnings.allSatisfy { $0.code == .malformedVCard && $0.path == name && ($0.line ?? 0) > 0 })
        let error = VCardTesting.interchangeError { _ = try RecoveryFixtures.cards(name, strict: true) }
        #expect(error?.code == .malformedVCard)
        #expect(error?.path == name)
    }

    @Test("an odd but valid fixture reads the same leniently and strictly", arguments: RecoveryFixtures.odd)
    func oddFixtureNeedsNoRecovery(_ name: String) throws {
        let cards = try RecoveryFixtures.cards(name)
        #expect(cards.allSatisfy { $0.recoveries.isEmpty })
        #expect(try RecoveryFixtures.cards(name, strict: true) == cards)
    }

    @Test("CR CR LF line ends are one line break, so folded lines unfold")
    func carriageReturnCarriageReturnLineFeed() throws {
        let card = try #require(try RecoveryFixtures.cards("ios6-cr-cr-lf.vcf").first)
        #expect(card.first(named: "NOTE")?.text == "a note folded over two lines")
        #expect(card.first(named: "TEL")?.line == 7)
        #expect(card.recoveries.isEmpty)
    }

    @Test("blank lines, a blank line inside a folded value and comment lines are skipped")
    func blankAndCommentLines() throws {
        let cards = try RecoveryFixtures.cards("blank-and-comment-lines.vcf")
        let card = try #require(cards.first)
        #expect(cards.count == 1)
        #expect(card.first(named: "NOTE")?.text == "folded value")
        #expect(card.first(named: "FN")?.text == "Jane Doe")
        #expect(card.recoveries.map(\.line) == [1, 8, 10])
    }

    @Test("a card without END:VCARD ends at the next BEGIN or at the end, and END:VCALENDAR ends a card")
    func missingEnd() throws {
        let cards = try RecoveryFixtures.cards("missing-end.vcf")
        #expect(cards.map { $0.first(named: "FN")?.text } == ["Ann One", "Bob Two", "Cy Three"])
        #expect(cards.map(\.startLine) == [1, 5, 10])
        #expect(cards.map { $0.recoveries.map(\.line) } == [[1], [9], [10]])
    }

    @Test("an unreadable line with a value is kept verbatim and written back; one without is dropped")
    func unreadableLines() throws {
        let card = try #require(try RecoveryFixtures.cards("unreadable-lines.vcf").first)
        let verbatim = card.properties.filter(\.isVerbatim)
        #expect(verbatim.map(\.rawValue) == ["X-messaging/twitter-All:@kimdoe", "a line of text without a colon"])
        #expect(verbatim.map(\.line) == [6, 7])
        #expect(card.first(named: "TEL")?.text == "+1 555 0101")
        #expect(card.recoveries.map(\.line) == [4, 6, 7])
        let text = VCardWriter.serialize([card])
        #expect(text.contains("\r\nX-messaging/twitter-All:@kimdoe\r\na line of text without a colon\r\n"))
        let again = try #require(try VCardTesting.parse(text).first)
        #expect(again.properties.filter(\.isVerbatim).map(\.rawValue) == verbatim.map(\.rawValue))
    }

    @Test("an unreadable line longer than the limit for a text value is dropped with a warning")
    func longUnreadableLine() throws {
        let long = String(repeating: "x ", count: VCardParser.maximumTextValueBytes)
        let card = try #require(try VCardTesting.parse("BEGIN:VCARD\nFN:A\n\(long)\nEND:VCARD\n").first)
        #expect(card.properties.map(\.name) == ["FN"])
        #expect(card.recoveries.map(\.line) == [3])
    }

    @Test("quoted-printable keeps a stray '=' literal, joins a soft line break and decodes windows-1251")
    func quotedPrintable() throws {
        let card = try #require(try RecoveryFixtures.cards("quoted-printable-21.vcf").first)
        #expect(card.properties(named: "NOTE").map(\.text) == ["1+1=2 and 3D still", "Иван"])
        #expect(card.recoveries.map(\.line) == [4])
    }

    @Test("base64 loses stray characters and a data: URI marked ENCODING=b loses the marking")
    func base64() throws {
        let cards = try RecoveryFixtures.cards("base64-and-data-uri.vcf")
        let gif = "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"
        #expect(cards[0].first(named: "PHOTO")?.rawValue == gif)
        let uri = try #require(cards[1].first(named: "PHOTO"))
        #expect(uri.rawValue == "data:image/gif;base64," + gif)
        #expect(!uri.isBase64Encoded)
        #expect(cards.map { $0.recoveries.map(\.line) } == [[5], [11]])
    }

    @Test("UTF-16 with a byte order mark is read", arguments: ["utf16le.vcf", "utf16be.vcf"])
    func utf16(_ name: String) throws {
        let card = try #require(try RecoveryFixtures.cards(name).first)
        #expect(card.first(named: "FN")?.text == "Jürgen Müller")
        #expect(card.recoveries.map(\.line) == [1])
    }

    @Test("8-bit text of unknown or bogus charset is read as the likeliest charset")
    func eightBitCharsets() throws {
        let cards = try RecoveryFixtures.cards("eight-bit-charsets.vcf")
        #expect(cards.map { $0.first(named: "N")?.components.prefix(2).joined(separator: " ") } == [
            "Müller Jürgen", "Петров Иван", "Παπαδόπουλος Γιώργος", "山田 太郎",
        ])
        #expect(cards[0].first(named: "NOTE")?.text == "café")
        #expect(cards.map { $0.recoveries.count } == [2, 1, 1, 1])
    }

    @Test("a 2.1 backslash is literal except before ';', 'n' and 'N', and 3.0 unescapes \\: and \\\"")
    func escapes() throws {
        let cards = try RecoveryFixtures.cards("escapes.vcf")
        #expect(cards[0].first(named: "NOTE")?.text == #"C:\temp\files; done"# + "\nsecond line\nthird line")
        #expect(cards[1].first(named: "NOTE")?.text == #"http://example.com says "hi""#)
    }

    @Test("text outside cards is skipped once per gap, but input with no card at all is refused")
    func textOutsideCards() throws {
        let text = "junk\nmore junk\nBEGIN:VCARD\nFN:A\nEND:VCARD\ntrailing\nBEGIN:VCARD\nFN:B\nEND:VCARD\nend\n"
        let cards = try VCardTesting.parse(text)
        #expect(cards.map { $0.recoveries.map(\.line) } == [[1, 6], [10]])
        let error = VCardTesting.interchangeError { _ = try RecoveryFixtures.cards("not-a-vcard.vcf") }
        #expect(error?.code == .malformedVCard)
        #expect(error?.line == 1)
        #expect(try VCardTesting.parse("").isEmpty)
    }

    @Test("the stream reader recovers the same way in chunks of any size", arguments: [1, 2, 3, 5, 4096])
    func streamingInChunks(_ chunkSize: Int) throws {
        for name in RecoveryFixtures.broken {
            let data = try VCardFixtures.data("recovery/" + name)
            var offset = 0
            var reader = VCardStreamReader(source: name) {
                guard offset < data.count else { return nil }
                let chunk = data.subdata(in: offset..<min(offset + chunkSize, data.count))
                offset += chunk.count
                return chunk
            }
            var streamed: [VCard] = []
            try reader.forEachCard { streamed.append($0) }
            #expect(streamed == (try RecoveryFixtures.cards(name)), "\(name)")
        }
    }
}
