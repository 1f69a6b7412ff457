import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct AddressBookImportInputsTests {
    private let katie = Data("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Katie Bell\r\nN:Bell;Katie;;;\r\nTEL:+1 555 0100\r\nEND:VCARD\r\n".utf8)
    private let csv = Data("First Name,Last Name,Mobile Phone\nAda,Zed,+1 555 0111\nKatie,Bell,+1 555 0199\n".utf8)

    /// A store with Katie Bell saved, and its book.
    private func storeWithKatie() throws -> (TemporaryStore, AddressBook) {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        try book.add(makePerson("Katie", "Bell"))
        try book.save()
        return (store, book)
    }

    @Test func inputsInTheirOwnFormatsAreImportedInOneSave() throws {
        let (store, book) = try storeWithKatie()
        defer { withExtendedLifetime(store) {} }
        let report = try book.importContacts(from: [ContactInput(name: "phone.vcf", data: katie), ContactInput(name: "export.csv", data: csv)])
        #expect(report.added.count == 1)
        #expect(report.updated.count == 1)   // Katie, by both inputs
        #expect(report.formatsRead.count == 1 && report.formatsRead[0].hasPrefix("export.csv: "))
        let found = book.people(matchingName: "Katie Bell")
        #expect(found.count == 1)
        #expect(found.first?.phones.values == ["+1 555 0100", "+1 555 0199"])
    }

    @Test func aMatchNamesTheInputAndTheLineOfTheOriginalFile() throws {
        let (store, book) = try storeWithKatie()
        defer { withExtendedLifetime(store) {} }
        var asked: [String] = []
        _ = try book.importContacts(from: [ContactInput(name: "phone.vcf", data: katie), ContactInput(name: "export.csv", data: csv)]) { match in
            asked.append("\(match.source):\(match.line)")
            return .skip
        }
        #expect(asked == ["phone.vcf:1", "export.csv:3"])
    }

    @Test func aMalformedCardIsNamedByItsInputAndLineAndNothingIsWrittenWithoutSkipInvalid() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let broken = Data("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ada Zed\r\nEND:VCARD\r\nBEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bo Ray\r\nBROKEN LINE\r\nEND:VCARD\r\n".utf8)
        let inputs = [ContactInput(name: "good.vcf", data: katie), ContactInput(name: "bad.vcf", data: broken)]
        #expect {
            try book.importContacts(from: inputs, options: VCardImportOptions(strict: true))
        } throws: { error in
            guard let error = error as? InterchangeError else { return false }
            return error.code == .malformedVCard && error.path == "bad.vcf" && error.line == 8
        }
        #expect(try store.files(in: "people").isEmpty)
        let report = try book.importContacts(from: inputs, options: VCardImportOptions(skipInvalid: true, strict: true))
        #expect(report.added.count == 2)
        #expect(report.invalidCards.map { "\($0.path ?? ""):\($0.line ?? 0)" } == ["bad.vcf:8"])
    }

    @Test func anInputEndingInsideACardIsEndedForItWithAWarningAndTheNextInputKeepsItsFirstCard() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let unended = Data("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann Lee\r\nN:Lee;Ann;;;\r\n".utf8)
        let report = try book.importContacts(from: [ContactInput(name: "cut.vcf", data: unended), ContactInput(name: "phone.vcf", data: katie)])
        #expect(report.added.count == 2)
        #expect(report.warnings.contains { $0.path == "cut.vcf" && $0.line == 1 })
    }
}
