import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct LDIFExporterTests {
    private typealias Fixtures = InterchangeFixtures

    /// A book with two people carrying every value LDIF has a place for, and two groups.
    private func makeBook(_ store: TemporaryStore) throws -> AddressBook {
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell", organization: "Acme Library")
        katie.nickname = "kb"
        katie.department = "Rare Books"
        katie.jobTitle = "Librarian"
        katie.note = "Met at the conference.\nLikes tea – not coffee."
        katie.birthday = try ContactDate(year: 1984, month: 7, day: 21)
        katie.emails = MultiValue([("katie@example.org", nil), ("k.bell@work.example", nil)])
        katie.phones = MultiValue([
            ("+44 20 7946 0001", .work), ("+44 20 7946 0002", .home), ("+44 7700 900003", .mobile),
            ("+44 20 7946 0004", .otherFax), ("+44 20 7946 0005", .pager),
        ])
        katie.addresses = MultiValue([
            (PostalAddress(extendedAddress: "Flat 2", street: "1 Acacia Avenue", city: "London", state: "Greater London",
                zip: "N1 1AA", country: "United Kingdom"), .home),
            (PostalAddress(street: "10 Downing Street", city: "London", zip: "SW1A 2AA", country: "United Kingdom"), .work),
        ])
        katie.urls = MultiValue([("https://library.example/katie", .work), ("https://katie.example", .homePage)])
        katie.instantMessages = MultiValue([(InstantMessage(service: "AIM", username: "katiebell"), nil)])
        let zoe = makePerson("Zoë", "Ångström")
        zoe.emails = MultiValue([("zoe@example.org", nil)])
        zoe.birthday = try ContactDate(month: 2, day: 29)
        zoe.note = ":starts with a colon <and> ends with a tab\tx"
        try book.add(katie)
        try book.add(zoe)
        let club = Group(name: "Book Club")
        let chasers = Group(name: "Chasers, Inc.")
        try book.add(club)
        try book.add(chasers)
        try book.save()
        try club.addMember(katie)
        try club.addMember(zoe)
        try chasers.addMember(katie)
        try book.save()
        return book
    }

    /// The values of a person LDIF carries, one per line.
    private func snapshot(_ person: Person, in book: AddressBook) -> [String] {
        [
            "first=\(person.firstName ?? "")", "last=\(person.lastName ?? "")", "nick=\(person.nickname ?? "")",
            "org=\(person.organization ?? "")", "dept=\(person.department ?? "")", "title=\(person.jobTitle ?? "")",
            "note=\(person.note ?? "")", "birthday=\(person.birthday?.description ?? "")",
            "emails=\(person.emails.values)", "phones=\(Fixtures.pairs(person.phones))",
            "addresses=\(Fixtures.pairs(person.addresses))", "urls=\(Fixtures.pairs(person.urls))",
            "im=\(person.instantMessages.values.map { "\($0.service ?? ""):\($0.username ?? "")" })",
            "groups=\(Fixtures.groupNames(book, of: person))",
        ]
    }

    @Test func exportConvertAndImportGivesTheSamePeople() throws {
        let store = try TemporaryStore()
        let book = try makeBook(store)
        let text = try book.exportLDIF(book.allPeople())
        let converted = try ContactConverter.convert(Array(text.utf8), source: "export.ldif", format: .ldif, strict: true)
        let copyStore = try TemporaryStore()
        let copy = try Fixtures.importIntoFreshBook(converted, store: copyStore)
        #expect(copy.personCount == 2)
        for email in ["katie@example.org", "zoe@example.org"] {
            let original = try Fixtures.person(book, email: email)
            let imported = try Fixtures.person(copy, email: email)
            #expect(snapshot(imported, in: copy) == snapshot(original, in: book))
        }
    }

    @Test func groupsComeAfterThePeopleAndNameTheirDNs() throws {
        let store = try TemporaryStore()
        let book = try makeBook(store)
        let text = try book.exportLDIF(book.allPeople())
        let records = text.components(separatedBy: "\n\n").filter { !$0.isEmpty }
        #expect(records.count == 4)
        #expect(records.prefix(2).allSatisfy { $0.contains("objectclass: mozillaAbPersonAlpha") })
        let club = try #require(records.first { $0.contains("cn: Book Club") })
        #expect(club.contains("objectclass: groupOfNames"))
        #expect(club.contains("member: cn=Katie Bell,mail=katie@example.org"))
        #expect(text.contains("dn: cn=Chasers\\, Inc.\n"))
    }

    @Test func unsafeValuesAreWrittenInBase64() {
        #expect(LDIFExporter.line("cn", "Katie Bell") == "cn: Katie Bell\n")
        #expect(LDIFExporter.line("cn", "Zoë") == "cn:: Wm/Dqw==\n")
        #expect(LDIFExporter.line("description", "a\nb") == "description:: YQpi\n")
        #expect(LDIFExporter.line("description", ":colon") == "description:: OmNvbG9u\n")
        #expect(LDIFExporter.line("description", "<angle") == "description:: PGFuZ2xl\n")
        #expect(LDIFExporter.line("description", " space") == "description:: IHNwYWNl\n")
        #expect(LDIFExporter.line("description", nil) == "")
    }

    @Test func longLinesAreFoldedAt76Columns() throws {
        let line = LDIFExporter.line("description", String(repeating: "x", count: 200))
        let lines = line.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.utf8.count <= LDIFExporter.lineWidth })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        var log = ConversionLog(source: "t.ldif", strict: true)
        let records = try LDIFReader.records("dn: cn=x\n" + line, log: &log)
        #expect(records.first?.values("description") == [String(repeating: "x", count: 200)])
    }

    @Test func fieldsKeptFromAnLDIFImportAreWrittenBackAsTheirAttributes() throws {
        let converted = try Fixtures.convert(
            "dn: cn=K\ncn: Katie Bell\nmail: k@x.example\nmozillaCustom1: shelf 7\nbirthyear: 1984\n", format: .ldif)
        let store = try TemporaryStore()
        let book = try Fixtures.importIntoFreshBook(converted, store: store)
        let text = try book.exportLDIF(book.allPeople())
        #expect(text.contains("\nmozillaCustom1: shelf 7\n"))
        #expect(text.contains("\nbirthyear: 1984\n"))
    }

    @Test func aListsKeptDescriptionIsWrittenBackOnItsGroupRecord() throws {
        let store = try TemporaryStore()
        let book = try Fixtures.importIntoFreshBook(
            Fixtures.convert(fixture: "thunderbird-lists.ldif", format: .ldif), store: store)
        let text = try book.exportLDIF(book.allPeople())
        #expect(text.contains("\ncn: Book Club\ndescription: Monthly readers\nmember"))
    }

    @Test func aPersonOfAnotherBookIsRefused() throws {
        let store = try TemporaryStore()
        let book = try makeBook(store)
        let otherStore = try TemporaryStore()
        let other = try otherStore.makeBook()
        let error = Fixtures.contactsError { _ = try other.exportLDIF(book.allPeople()) }
        #expect(error?.code == .recordInAnotherBook)
    }
}
