import Foundation
import Testing
@testable import PlainContacts

@Suite struct ContactFileFormatTests {
    /// A fixture and the format its content must be detected as, with and without its name.
    struct Detection: Sendable, CustomTestStringConvertible {
        let fixture: String
        let format: ContactFileFormat
        var testDescription: String { fixture }
    }

    static let detections: [Detection] = [
        Detection(fixture: "horde-turba-import.ldif", format: .ldif),
        Detection(fixture: "horde-turba-bug6518.ldif", format: .ldif),
        Detection(fixture: "thunderbird-lists.ldif", format: .ldif),
        Detection(fixture: "thunderbird-basic_ldif_addressbook.ldif", format: .ldif),
        Detection(fixture: "abook-0.6.addressbook", format: .abook),
        Detection(fixture: "neomutt.aliases", format: .mutt),
    ]

    @Test(arguments: detections)
    func realLookingFilesAreDetectedFromTheirContent(_ detection: Detection) throws {
        let bytes = try InterchangeFixtures.bytes(detection.fixture)
        #expect(ContactFileFormat.detect(bytes, fileName: nil) == detection.format)
        #expect(ContactFileFormat.detect(bytes, fileName: "contacts.txt") == detection.format)
        #expect(ContactFileFormat.detect(bytes, fileName: detection.fixture) == detection.format)
    }

    @Test func ldifWithAVersionLineIsDetected() {
        let text = "version: 1\ndn: cn=Katie Bell,mail=k@x.example\nobjectclass: top\ncn: Katie Bell\n"
        #expect(ContactFileFormat.detect(Array(text.utf8), fileName: nil) == .ldif)
    }

    @Test func ldifWithABase64DNIsDetected() {
        let text = "dn:: Y249Sm9obiBQw7xibGljLG1haWw9am9obkBleGFtcGxlLmNvbQ==\ncn: John\n"
        #expect(ContactFileFormat.detect(Array(text.utf8), fileName: nil) == .ldif)
    }

    @Test func abookFileWithoutFormatSectionIsDetected() {
        let text = "[0]\nname=Katie Bell\nemail=k@x.example\n\n[1]\nname=Lee Jordan\n"
        #expect(ContactFileFormat.detect(Array(text.utf8), fileName: nil) == .abook)
    }

    @Test func muttAliasesAmongOtherCommandsAreDetected() {
        let text = "# my aliases\nset reverse_alias=yes\nalias kb Katie Bell <k@x.example>\nalias lee lee@x.example\n"
        #expect(ContactFileFormat.detect(Array(text.utf8), fileName: nil) == .mutt)
    }

    @Test func anAbookFileNamedAddressbookIsDetectedFromItsName() {
        #expect(ContactFileFormat.detect(Array("# abook addressbook file\n".utf8), fileName: "/home/u/.abook/addressbook") == .abook)
    }
}
