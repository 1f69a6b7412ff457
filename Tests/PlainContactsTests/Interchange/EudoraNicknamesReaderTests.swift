import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct EudoraNicknamesReaderTests {
    private typealias Fixtures = InterchangeFixtures

    private func importedFixture() throws -> (TemporaryStore, AddressBook) {
        let store = try TemporaryStore()
        let converted = try Fixtures.convert(fixture: "eudora-NNdbase.txt", format: .eudora)
        #expect(converted.warnings.isEmpty)
        #expect(converted.formatRead == "eudora")
        return (store, try Fixtures.importIntoFreshBook(converted, store: store))
    }

    @Test func theFormatIsFoundFromItsNoteLines() throws {
        let bytes = try Fixtures.bytes("eudora-NNdbase.txt")
        #expect(ContactFileFormat.detect(bytes, fileName: "addresses.txt") == .eudora)
        #expect(ContactFileFormat.detect(Array("alias kb Katie <k@x.example>\n".utf8), fileName: nil) == .mutt)
    }

    @Test func everyFieldOfTheNoteIsKept() throws {
        let (_, book) = try importedFixture()
        let katie = try Fixtures.person(book, email: "katie@example.org")
        #expect(katie.firstName == "Katie")
        #expect(katie.lastName == "Bell")
        #expect(katie.nickname == "katie")
        #expect(katie.organization == "Acme")
        #expect(katie.jobTitle == "Engineer")
        #expect(Fixtures.pairs(katie.emails) == ["-=katie@example.org", "other=kb@example.net"])
        #expect(Fixtures.pairs(katie.phones) == [
            "home=+1 555 0100", "mobile=+1 555 0102", "homeFax=+1 555 0101", "work=+1 555 0200", "workFax=+1 555 0201",
            "other=+1 555 0300",
        ])
        #expect(Fixtures.pairs(katie.urls) == ["homePage=https://katie.example.org", "work=https://acme.example.com"])
        let home = try #require(katie.addresses.entries.first { $0.label == .home }?.value)
        #expect(home.street == "12 Peachtree St\nSuite 4")
        #expect(home.city == "Atlanta")
        #expect(home.state == "GA")
        #expect(home.zip == "30303")
        #expect(home.country == "USA")
        let work = try #require(katie.addresses.entries.first { $0.label == .work }?.value)
        #expect(work.street == "1 Acme Way")
        #expect(work.city == "Springfield IL 62701")
        #expect(katie.note == "Met at the fair.\nLikes climbing.")
        #expect(VCardRecordFields.lines(of: katie.state).contains("X-IMPORTED-FIELD;X-FORMAT=eudora;X-NAME=\"shoe\":38"))
        #expect(Fixtures.groupNames(book, of: katie) == ["climbing"])
    }

    @Test func aQuotedNicknameAndTheNotesNameMakeThePerson() throws {
        let (_, book) = try importedFixture()
        let hank = try Fixtures.person(book, email: "hank@example.com")
        #expect(hank.nickname == "Hank Zakroff")
        #expect(hank.compositeName == "Hank M. Zakroff")
        #expect(Fixtures.pairs(hank.phones) == ["work=+1 555 0400"])
    }

    @Test func aListOfAliasesAndAddressesIsAGroup() throws {
        let (_, book) = try importedFixture()
        #expect(book.personCount == 4)
        let lee = try Fixtures.person(book, email: "lee@example.org")
        #expect(lee.firstName == "Lee")
        #expect(Fixtures.groupNames(book, of: lee) == ["climbing"])
        let ann = try Fixtures.person(book, email: "ann@example.org")
        #expect(Fixtures.groupNames(book, of: ann) == ["climbing"])
    }

    @Test func aNoteWithoutItsAliasAndAnUnknownLineAreSkippedWithTheirLines() throws {
        let converted = try Fixtures.convert(
            "alias kb k@x.example\nnote nobody <phone:1>\nset x\n", format: .eudora)
        #expect(converted.warnings.map(\.line) == [2, 3])
        #expect(throws: (any Error).self) {
            _ = try Fixtures.convert("alias kb k@x.example\nnote nobody <phone:1>\n", format: .eudora, strict: true)
        }
    }
}
