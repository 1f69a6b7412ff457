import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct CSVLayoutHeaderlessTests {
    /// Imports a CSV fixture into a fresh store.
    private func imported(_ name: String) throws -> (AddressBook, VCardImportReport, TemporaryStore) {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let report = try book.importContacts(from: try InterchangeFixtures.data("csv/" + name), source: name)
        return (book, report, store)
    }

    @Test func thunderbirdsColumnsWithoutAHeaderRowKeepEveryField() throws {
        let name = "handmade-thunderbird-noheader.csv"
        #expect(ContactFileFormat.detect(try InterchangeFixtures.data("csv/" + name), fileName: name) == .csv)
        let (book, report, _) = try imported(name)
        #expect(report.added.count == 2)
        #expect(report.warnings.isEmpty)
        #expect(report.formatsRead == ["\(name): csv (Thunderbird's columns without a header row)"])
        let grace = try InterchangeFixtures.person(book, email: "grace@navy.example")
        #expect(grace.firstName == "Grace")
        #expect(grace.lastName == "Hopper")
        #expect(grace.compositeName == "Grace Hopper")
        #expect(grace.nickname == "Amazing Grace")
        #expect(InterchangeFixtures.pairs(grace.emails) == ["-=grace@navy.example", "-=ghopper@vassar.example"])
        #expect(grace.instantMessages.values.map(\.username) == ["ghopper"])
        #expect(InterchangeFixtures.pairs(grace.phones) == [
            "work=+1 202 555 0101", "home=+1 202 555 0102", "workFax=+1 202 555 0103", "pager=+1 202 555 0104",
            "mobile=+1 202 555 0105",
        ])
        let home = try #require(grace.addresses.entries.first { $0.label == .home }?.value)
        #expect(home.street == "1 Main Street\nApartment 4")
        #expect([home.city, home.state, home.zip, home.country] == ["Arlington", "VA", "22201", "USA"])
        let work = try #require(grace.addresses.entries.first { $0.label == .work }?.value)
        #expect(work.street == "Navy Yard\nBuilding 36")
        #expect([work.city, work.state, work.zip, work.country] == ["Washington", "DC", "20374", "USA"])
        #expect(grace.jobTitle == "Rear Admiral")
        #expect(grace.department == "Computing")
        #expect(grace.organization == "US Navy")
        #expect(InterchangeFixtures.pairs(grace.urls) == [
            "work=https://navy.example/hopper", "homePage=https://grace.example",
        ])
        #expect(grace.birthday?.description == "1906-12-09")
        #expect(grace.note == "Found the first bug, in 1947")
        #expect(KeptField.fields(of: grace, format: "csv").map { "\($0.name)=\($0.value)" } == ["Custom 1=COBOL"])
        let alan = try InterchangeFixtures.person(book, email: "alan@bletchley.example")
        #expect(alan.firstName == "Alan")
        #expect(alan.lastName == "Turing")
    }

    @Test func aHeaderRowIsNotTakenForThunderbirdsColumns() throws {
        var log = ConversionLog(source: "test.csv", strict: true)
        let header = CSVLayout.thunderbirdColumns.joined(separator: ",") + "\n"
        let table = try CSVTable(parsing: header, log: &log)
        #expect(CSVLayout.headerless(table.rows) == nil)
    }

    @Test func rowsOfAnotherShapeAreStillRefusedNamingTheLine() throws {
        #expect {
            try InterchangeFixtures.convert("alpha,beta,gamma\ndelta,epsilon,zeta\n", format: .csv)
        } throws: { error in
            (error as? InterchangeError)?.code == .malformedInput && (error as? InterchangeError)?.line == 1
        }
    }
}
