import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct AbookContactReaderTests {
    private typealias Fixtures = InterchangeFixtures

    private func convert(_ text: String, strict: Bool = false) throws -> ConvertedContacts {
        try Fixtures.convert(text, format: .abook, strict: strict)
    }

    private func importedFixture() throws -> (TemporaryStore, AddressBook) {
        let store = try TemporaryStore()
        let converted = try Fixtures.convert(fixture: "abook-0.6.addressbook", format: .abook)
        #expect(converted.warnings.isEmpty)
        return (store, try Fixtures.importIntoFreshBook(converted, store: store))
    }

    @Test func everyStandardFieldIsMapped() throws {
        let (_, book) = try importedFixture()
        #expect(book.personCount == 3)
        let katie = try Fixtures.person(book, email: "katie@example.org")
        #expect(katie.firstName == "Katie")
        #expect(katie.lastName == "Bell")
        #expect(katie.emails.values == ["katie@example.org", "k.bell@work.example"])
        #expect(
            Fixtures.pairs(katie.phones) == [
                "home=+44 20 7946 0002", "work=+44 20 7946 0001", "otherFax=+44 20 7946 0004",
                "mobile=+44 7700 900003",
            ])
        let address = try #require(katie.addresses.first?.value)
        #expect(address.street == "1 Acacia Avenue")
        #expect(address.extendedAddress == "Flat 2")
        #expect(address.city == "London")
        #expect(address.state == "Greater London")
        #expect(address.zip == "N1 1AA")
        #expect(address.country == "United Kingdom")
        #expect(katie.nickname == "kb")
        #expect(katie.urls.values == ["https://katie.example"])
        #expect(katie.note == "Met at the conference")
        #expect(Fixtures.pairs(katie.dates) == ["anniversary=2010-06-12"])
    }

    @Test func groupsBecomeGroupMemberships() throws {
        let (_, book) = try importedFixture()
        let katie = try Fixtures.person(book, email: "katie@example.org")
        #expect(Fixtures.groupNames(book, of: katie) == ["book club", "friends"])
    }

    @Test func customFieldsAreKept() throws {
        let (_, book) = try importedFixture()
        let katie = try Fixtures.person(book, email: "katie@example.org")
        #expect(VCardRecordFields.lines(of: katie.state).contains("X-IMPORTED-FIELD;X-FORMAT=abook;X-NAME=\"custom1\":favourite shelf 7"))
    }

    @Test func namesAreSplitOnlyWhenCertain() throws {
        let (_, book) = try importedFixture()
        let lee = try Fixtures.person(book, email: "lee@example.org")
        #expect(lee.firstName == "Lee")
        #expect(lee.lastName == "Jordan")
        #expect(Fixtures.pairs(lee.dates) == ["anniversary=--02-29"])
        let mary = try Fixtures.person(book, email: "mary@example.org")
        #expect(mary.firstName == "Mary Ann van Berg")
        #expect(mary.lastName == nil)
    }

    @Test func theFormatSectionAndCommentsAreIgnored() throws {
        let converted = try convert("# c\n[format]\nprogram=abook\nversion=0.6.1\n\n[0]\nname=Katie Bell\n")
        #expect(converted.cardCount == 1)
        #expect(converted.warnings.isEmpty)
        #expect(!Fixtures.lines(converted).contains { $0.contains("program") })
    }

    @Test func aContactWithoutANameIsSkippedWithAWarning() throws {
        let converted = try convert("[0]\nemail=a@x.example\n\n[1]\nname=Katie Bell\n")
        #expect(converted.cardCount == 1)
        #expect(converted.warnings.map(\.line) == [1])
        #expect(Fixtures.interchangeError { _ = try convert("[0]\nemail=a@x.example\n", strict: true) }?.code == .malformedInput)
    }

    @Test func aLineWithoutEqualsIsSkippedWithAWarning() throws {
        let converted = try convert("[0]\nname=Katie Bell\nthis line is broken\nemail=k@x.example\n")
        #expect(converted.warnings.map(\.line) == [3])
        #expect(Fixtures.lines(converted).contains("EMAIL;TYPE=PREF:k@x.example"))
    }

    @Test func aBadAnniversaryIsKeptWithAWarning() throws {
        let converted = try convert("[0]\nname=Katie Bell\nanniversary=June 12\n")
        #expect(converted.warnings.map(\.line) == [3])
        #expect(Fixtures.lines(converted).contains("X-IMPORTED-FIELD;X-FORMAT=abook;X-NAME=\"anniversary\":June 12"))
    }

    @Test func valuesKeepEqualsSignsAfterTheFirst() throws {
        let converted = try convert("[0]\nname=Katie Bell\nurl=https://x.example/?a=b\n")
        #expect(Fixtures.lines(converted).contains("URL:https://x.example/?a=b"))
    }
}
