import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct VCardOriginTests {
    /// A card whose mapped values carry what the model has no place for: `PREF`, `X-` and
    /// `LANGUAGE` parameters, an Apple item label, a second `NOTE`.
    private let richCard = [
        "N:Doe;John;;;",
        "FN:John Doe",
        "item1.TEL;type=CELL;type=pref:+1 555 0100",
        "item1.X-ABLabel:_$!<Mobile>!$_",
        "TEL;TYPE=HOME;X-FOO=bar:555 0101",
        "EMAIL;TYPE=INTERNET;TYPE=WORK;X-EXTRA=1:j@example.com",
        "IMPP;X-SERVICE-TYPE=Skype;type=HOME;type=pref:skype:johnd",
        "item2.ADR;TYPE=HOME;X-FORMATTED=yes:;;1 Main St;Atlanta;GA;30303;USA",
        "item2.X-ABADR:us",
        "NOTE;LANGUAGE=en:hello",
        "GENDER:M",
        "X-ABShowAs:PERSON",
    ]

    private func card(_ lines: [String], version: String = "3.0") -> String {
        (["BEGIN:VCARD", "VERSION:\(version)"] + lines + ["END:VCARD"]).joined(separator: "\r\n") + "\r\n"
    }

    /// The unfolded content lines of vCard text, without BEGIN, END and VERSION.
    private func contentLines(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n").filter { line in
            !line.isEmpty && !line.hasPrefix("BEGIN:") && !line.hasPrefix("END:") && !line.hasPrefix("VERSION:")
        }
    }

    /// A book holding the one person of `text`, imported and saved.
    private func imported(_ text: String, in store: TemporaryStore) throws -> (AddressBook, Person) {
        let book = try store.makeBook()
        _ = try book.importVCards(from: Data(text.utf8), source: "card.vcf")
        let person = try #require(book.allPeople().first)
        return (book, person)
    }

    @Test func everyLineOfACardSurvivesAnEditOfAnotherField() throws {
        let store = try TemporaryStore()
        let (book, person) = try imported(card(richCard), in: store)
        person.jobTitle = "Boss"
        try book.save()

        let reread = try #require(try store.makeBook().allPeople().first)
        let exported = Set(contentLines(try book.exportVCards([reread], version: .v3)))
        for line in richCard {
            #expect(exported.contains(line), "\(line) was not exported back")
        }
        #expect(exported.contains("TITLE:Boss"))
    }

    @Test func anEditedValueIsWrittenAfreshAndTheOthersAsTheyCame() throws {
        let store = try TemporaryStore()
        let (book, person) = try imported(card(richCard), in: store)
        var phones = person.phones
        phones.replaceValue(at: 1, with: "555 0199")
        person.phones = phones
        try book.save()

        let exported = contentLines(try book.exportVCards([person], version: .v3))
        #expect(exported.contains("TEL;TYPE=HOME:555 0199"))
        #expect(!exported.contains { $0.contains("555 0101") })
        #expect(exported.contains("item1.TEL;type=CELL;type=pref:+1 555 0100"))
        #expect(exported.contains("EMAIL;TYPE=INTERNET;TYPE=WORK;X-EXTRA=1:j@example.com"))
    }

    @Test func aCardExportWouldWriteAlikeKeepsNoOrigin() throws {
        let store = try TemporaryStore()
        let plain = ["N:Doe;John;;;", "FN:John Doe", "TEL;TYPE=CELL:555 0100", "EMAIL;TYPE=INTERNET,WORK:j@example.com"]
        let (_, person) = try imported(card(plain), in: store)
        #expect(VCardOrigin(of: person.state) == nil)
    }

    @Test func anotherVersionIsWrittenAfreshWithTheLinesExtraParameters() throws {
        let store = try TemporaryStore()
        let (book, person) = try imported(card(richCard), in: store)
        let exported = contentLines(try book.exportVCards([person], version: .v4))
        #expect(!exported.contains { $0.hasPrefix("item1.X-ABLabel") })
        #expect(exported.contains("TEL;TYPE=HOME;X-FOO=bar:555 0101"))
        #expect(exported.contains("TEL;TYPE=CELL;PREF=1:+1 555 0100"))
    }

    @Test func keptItemGroupsLeaveTheOthersNumberedAsBefore() throws {
        // Exporting, importing the export and exporting again gives the same text.
        let store = try TemporaryStore()
        let (book, person) = try imported(card(richCard + ["URL;TYPE=home:http://example.com", "X-ABDATE:2009-08-08"]), in: store)
        let first = try book.exportVCards([person], version: .v3)
        let copyStore = try TemporaryStore()
        let copy = try copyStore.makeBook()
        _ = try copy.importVCards(from: Data(first.utf8), source: "first.vcf")
        let second = try copy.exportVCards(copy.allPeople(), version: .v3)
        #expect(contentLines(second).filter { !$0.hasPrefix("UID:") } == contentLines(first).filter { !$0.hasPrefix("UID:") })
    }

    @Test func anOriginRoundTripsThroughTheRecordState() {
        let origin = VCardOrigin(
            version: "3.0",
            sources: ["NOTE": .init(lines: ["NOTE;LANGUAGE=en:hi"], fingerprint: "0123456789abcdef")])
        var state = PersonState()
        origin.store(in: &state)
        #expect(VCardOrigin(of: state) == origin)
        VCardOrigin(version: "3.0", sources: [:]).store(in: &state)
        #expect(state.unknownFields[VCardOrigin.key] == nil)
    }

    @Test func aFingerprintFollowsItsValueOnly() throws {
        let person = Person()
        person.firstName = "John"
        person.phones = MultiValue([("555 0100", .mobile), ("555 0101", .home)])
        let phone = VCardOrigin.name(of: .phones, person.phones.identifier(at: 1))
        let before = try #require(VCardOrigin.fingerprint(of: phone, in: person.state))
        let name = try #require(VCardOrigin.fingerprint(of: "N", in: person.state))

        var phones = person.phones
        phones.replaceValue(at: 0, with: "555 0102")
        person.phones = phones
        #expect(VCardOrigin.fingerprint(of: phone, in: person.state) == before)
        phones.replaceLabel(at: 1, with: .work)
        person.phones = phones
        #expect(VCardOrigin.fingerprint(of: phone, in: person.state) != before)

        person.lastName = "Doe"
        #expect(VCardOrigin.fingerprint(of: "N", in: person.state) != name)
        #expect(VCardOrigin.fingerprint(of: "phones/999", in: person.state) == nil)
    }
}

@Suite struct VCardOriginAcrossVersionsTests {
    private func exported(_ lines: [String], from version: String, to target: VCardVersion) throws -> [String] {
        let text = (["BEGIN:VCARD", "VERSION:\(version)"] + lines + ["END:VCARD"]).joined(separator: "\r\n") + "\r\n"
        let store = try TemporaryStore()
        let book = try store.makeBook()
        _ = try book.importVCards(from: Data(text.utf8), source: "card.vcf")
        let person = try #require(book.allPeople().first)
        return try book.exportVCards([person], version: target).components(separatedBy: "\r\n")
    }

    @Test func aVersion21CardKeepsItsPreferenceAndSecondTypeInA30Export() throws {
        let lines = try exported(
            ["N:Doe;John;;;", "TEL;CELL;PREF:555 0100", "TEL;HOME;VOICE:555 0101", "EMAIL;PREF;INTERNET:j@example.com",
             "EMAIL;HOME;WORK:k@example.com"],
            from: "2.1", to: .v3)
        #expect(lines.contains("TEL;TYPE=CELL,PREF:555 0100"))
        #expect(lines.contains("TEL;TYPE=HOME:555 0101"))
        #expect(lines.contains("EMAIL;TYPE=INTERNET,PREF:j@example.com"))
        #expect(lines.contains { $0.hasPrefix("EMAIL;TYPE=INTERNET,") && $0.contains("HOME") && $0.contains("WORK") })
    }

    @Test func aPreferenceCrossesBetween30And40() throws {
        let to40 = try exported(["N:Doe;John;;;", "TEL;TYPE=CELL;TYPE=pref;X-FOO=bar:555 0100"], from: "3.0", to: .v4)
        #expect(to40.contains { $0.hasPrefix("TEL;") && $0.contains("PREF=1") && $0.contains("X-FOO=bar") })
        let to30 = try exported(["N:Doe;John;;;", "EMAIL;TYPE=work;PREF=1:j@example.com"], from: "4.0", to: .v3)
        #expect(to30.contains("EMAIL;TYPE=INTERNET,WORK,PREF:j@example.com"))
    }
}

@Suite struct VCardSecondFormattedNameTests {
    @Test func aSecondFNIsExportedIn40AndLeftOutOf30() throws {
        let text = ["BEGIN:VCARD", "VERSION:4.0", "N:Doe;John;;;", "FN:John Doe", "FN;LANGUAGE=ja;ALTID=1:ジョン・ドウ", "END:VCARD", ""]
            .joined(separator: "\r\n")
        let store = try TemporaryStore()
        let book = try store.makeBook()
        _ = try book.importVCards(from: Data(text.utf8), source: "card.vcf")
        let person = try #require(book.allPeople().first)
        let v4 = try book.exportVCards([person], version: .v4).components(separatedBy: "\r\n")
        #expect(v4.contains("FN;LANGUAGE=ja;ALTID=1:ジョン・ドウ"))
        #expect(v4.contains("FN:John Doe"))
        let v3 = try book.exportVCards([person], version: .v3).components(separatedBy: "\r\n")
        #expect(v3.filter { $0.hasPrefix("FN") } == ["FN:John Doe"])
    }
}
