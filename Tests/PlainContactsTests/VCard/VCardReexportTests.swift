import Foundation
import Testing
@testable import PlainContacts

@Suite struct VCardReexportTests {
    @Test func peopleReadFromCardsExportAsCardsThatReadBack() throws {
        let text = """
            BEGIN:VCARD\r
            VERSION:3.0\r
            FN:Katie Bell\r
            N:Bell;Katie;;;\r
            TEL;TYPE=CELL:555-555-1234\r
            CATEGORIES:Friends\r
            END:VCARD\r
            BEGIN:VCARD\r
            VERSION:4.0\r
            KIND:group\r
            FN:Friends\r
            END:VCARD\r

            """
        #expect(try VCardReexport.failure(reading: Data(text.utf8), source: "a.vcf") == nil)
    }

    @Test func aCardTheMappingRefusesThrowsItsCode() {
        let unnamedGroup = Data("BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nEND:VCARD\r\n".utf8)
        do {
            _ = try VCardReexport.failure(reading: unnamedGroup, source: "a.vcf")
            Issue.record("a group card without a name was mapped")
        } catch let error as InterchangeError {
            #expect(error.code == .malformedVCard)
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func aCheckMeetsTheErrorsOfAStrictImport() throws {
        let card = try #require(
            try VCardReader.parse(Data("BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nEND:VCARD\r\n".utf8), source: "a.vcf").first)
        do {
            try VCardImporter.check(card, source: "a.vcf")
            Issue.record("a group card without a name passed the check")
        } catch let error as InterchangeError {
            #expect(error.code == .malformedVCard)
        } catch {
            Issue.record("\(error)")
        }
    }
}
