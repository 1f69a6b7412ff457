import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct VCardExporterTests {
    /// A person with a value of nearly every kind, a stored UID and kept lines.
    private func katie() throws -> Person {
        let person = Person()
        person.firstName = "Katie"
        person.lastName = "Bell"
        person.organization = "Acme, Inc."
        person.jobTitle = "Chaser"
        person.birthday = try ContactDate(month: 2, day: 29)
        person.phones = MultiValue([("555-0100", .mobile), ("555-0199", Label("Boat")), ("555-0142", .workFax)])
        person.emails = MultiValue([("katie@example.com", .work)])
        person.addresses = MultiValue([
            (PostalAddress(street: "1 Main St\nApt 2", city: "Atlanta", state: "GA", zip: "30303", country: "USA",
                           countryCode: "us"), .home)
        ])
        person.urls = MultiValue([("https://katie.example", .homePage)])
        person.dates = MultiValue([
            (try ContactDate(year: 2010, month: 6, day: 5), .anniversary), (try ContactDate(month: 1, day: 2), Label("Name day")),
        ])
        person.relatedNames = MultiValue([("Oliver", .spouse)])
        person.instantMessages = MultiValue([(InstantMessage(service: "Skype", username: "katie.b"), .home)])
        person.socialProfiles = MultiValue([(SocialProfile(url: "https://m.example/@kb", service: "Mastodon", username: "kb"), nil)])
        person.note = "Line 1\nLine 2; more"
        var state = person.state
        VCardRecordFields.setUID("katie-uid", in: &state)
        VCardRecordFields.setLines(["item1.X-FOO:bar", "ROLE:Keeper", "FN:Other"], in: &state)
        person.state = state
        return person
    }

    private let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0])

    private func text(_ person: Person, groups: [String] = [], image: Data? = nil, _ version: VCardVersion) -> String {
        VCardWriter.serialize(VCardExporter.card(for: person, groupNames: groups, imageData: image, version: version))
    }

    /// Exports and imports again.
    private func roundTrip(_ person: Person, _ version: VCardVersion) throws -> ImportedPerson {
        let cards = try VCardTesting.parse(text(person, version))
        try #require(cards.count == 1)
        guard case .person(let imported) = try VCardImporter.map(cards[0], source: "round.vcf") else {
            Issue.record("expected a person")
            throw CancellationError()
        }
        return imported
    }

    @Test func vCard3ExportHasTypeParametersAppleItemsAndKeptLines() throws {
        let expected = [
            "BEGIN:VCARD", "VERSION:3.0", "N:Bell;Katie;;;", "FN:Katie Bell", "ORG:Acme\\, Inc.", "TITLE:Chaser",
            "BDAY;X-APPLE-OMIT-YEAR=1604:1604-02-29", "TEL;TYPE=CELL:555-0100", "item2.TEL:555-0199",
            "item2.X-ABLABEL:Boat", "TEL;TYPE=FAX,WORK:555-0142", "EMAIL;TYPE=INTERNET,WORK:katie@example.com",
            "item3.ADR;TYPE=HOME:;;1 Main St\\nApt 2;Atlanta;GA;30303;USA", "item3.X-ABADR:us",
            "item4.URL:https://katie.example", "item4.X-ABLABEL:_$!<HomePage>!$_", "item5.X-ABDATE:2010-06-05",
            "item5.X-ABLABEL:_$!<Anniversary>!$_", "item6.X-ABDATE;X-APPLE-OMIT-YEAR=1604:1604-01-02",
            "item6.X-ABLABEL:Name day", "item7.X-ABRELATEDNAMES:Oliver", "item7.X-ABLABEL:_$!<Spouse>!$_",
            "IMPP;X-SERVICE-TYPE=Skype;TYPE=HOME:skype:katie.b",
            "X-SOCIALPROFILE;TYPE=Mastodon;X-USER=kb:https://m.example/@kb", "NOTE:Line 1\\nLine 2\\; more",
            "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4A==", "CATEGORIES:Friends,Team\\, A", "UID:katie-uid",
            "item1.X-FOO:bar", "ROLE:Keeper", "END:VCARD",
        ]
        #expect(text(try katie(), groups: ["Friends", "Team, A"], image: jpeg, .v3) == expected.joined(separator: "\r\n") + "\r\n")
    }

    @Test func vCard4ExportUsesAnniversaryYearlessDatesAndDataURIs() throws {
        let expected = [
            "BEGIN:VCARD", "VERSION:4.0", "N:Bell;Katie;;;", "FN:Katie Bell", "ORG:Acme\\, Inc.", "TITLE:Chaser",
            "BDAY:--02-29", "TEL;TYPE=CELL:555-0100", "item2.TEL:555-0199", "item2.X-ABLABEL:Boat",
            "TEL;TYPE=FAX,WORK:555-0142", "EMAIL;TYPE=WORK:katie@example.com",
            "item3.ADR;TYPE=HOME:;;1 Main St\\nApt 2;Atlanta;GA;30303;USA", "item3.X-ABADR:us",
            "item4.URL:https://katie.example", "item4.X-ABLABEL:_$!<HomePage>!$_", "ANNIVERSARY:2010-06-05",
            "item5.X-ABDATE:--01-02", "item5.X-ABLABEL:Name day", "item6.X-ABRELATEDNAMES:Oliver",
            "item6.X-ABLABEL:_$!<Spouse>!$_", "IMPP;X-SERVICE-TYPE=Skype;TYPE=HOME:skype:katie.b",
            "X-SOCIALPROFILE;TYPE=Mastodon;X-USER=kb:https://m.example/@kb", "NOTE:Line 1\\nLine 2\\; more",
            "PHOTO:data:image/jpeg;base64,/9j/4A==", "UID:katie-uid", "item1.X-FOO:bar", "ROLE:Keeper", "END:VCARD",
        ]
        #expect(text(try katie(), image: jpeg, .v4) == expected.joined(separator: "\r\n") + "\r\n")
    }

    @Test(arguments: VCardVersion.allCases)
    func exportedPersonImportsBackWithTheSameValues(_ version: VCardVersion) throws {
        let original = try katie()
        let imported = try roundTrip(original, version)
        let copy = imported.person
        #expect(try PersonSnapshot.lines(copy) == PersonSnapshot.lines(original))
        #expect(imported.uid == "katie-uid")
        #expect(VCardRecordFields.lines(of: copy.state) == ["item1.X-FOO:bar", "ROLE:Keeper"])
        #expect(try copy.imageData() == nil)
    }

    @Test(arguments: VCardVersion.allCases)
    func formattedNameIsExportedAsFNAndReadBack(_ version: VCardVersion) throws {
        let person = Person()
        person.prefix = "Mr."
        person.firstName = "Forrest"
        person.lastName = "Gump"
        person.formattedName = "Forrest Gump"
        #expect(text(person, version).contains("\r\nFN:Forrest Gump\r\n"))
        let copy = try roundTrip(person, version).person
        #expect(copy.formattedName == "Forrest Gump")
        #expect(copy.prefix == "Mr.")
    }

    @Test(arguments: VCardVersion.allCases)
    func postOfficeBoxAndExtendedAddressGoBackToTheirPositions(_ version: VCardVersion) throws {
        let person = Person()
        person.lastName = "Doe"
        let address = PostalAddress(
            poBox: "PO Box 7", extendedAddress: "Suite 3", street: "1 Main St", city: "Atlanta", state: "GA",
            zip: "30303", country: "USA")
        person.addresses = MultiValue([(address, .work)])
        #expect(text(person, version).contains("ADR;TYPE=WORK:PO Box 7;Suite 3;1 Main St;Atlanta;GA;30303;USA\r\n"))
        #expect(try roundTrip(person, version).person.addresses.values == [address])
    }

    @Test func organizationIsMarkedPerVersion() throws {
        let acme = Person()
        acme.organization = "ACME"
        acme.kind = .organization
        let v3 = text(acme, .v3)
        #expect(v3.contains("\r\nX-ABSHOWAS:COMPANY\r\n"))
        #expect(v3.contains("\r\nFN:ACME\r\n"))
        #expect(!v3.contains("KIND"))
        let v4 = text(acme, .v4)
        #expect(v4.contains("\r\nKIND:org\r\n"))
        #expect(!v4.contains("X-ABSHOWAS"))
        for version in VCardVersion.allCases {
            let copy = try roundTrip(acme, version).person
            #expect(copy.kind == .organization)
            #expect(copy.organization == "ACME")
            #expect(copy.firstName == nil)
        }
    }

    @Test func personWithoutNameHasEmptyNameProperties() throws {
        let person = Person()
        person.emails = MultiValue([("x@example.com", nil)])
        #expect(text(person, .v3) == "BEGIN:VCARD\r\nVERSION:3.0\r\nN:;;;;\r\nFN:\r\nEMAIL;TYPE=INTERNET:x@example.com\r\nEND:VCARD\r\n")
    }

    @Test func derivedUIDIsStableAndFormedAsAUUID() throws {
        let key = try #require(RecordKey(rawValue: "katie-bell-7kq2mx"))
        let uid = VCardRecordFields.derivedUID(for: key)
        #expect(uid == VCardRecordFields.derivedUID(for: key))
        #expect(uid != VCardRecordFields.derivedUID(for: try #require(RecordKey(rawValue: "katie-bell-7kq2my"))))
        let groups = uid.split(separator: "-").map(\.count)
        #expect(groups == [8, 4, 4, 4, 12])
        #expect(uid.allSatisfy { $0 == "-" || $0.isHexDigit && !$0.isUppercase })
        let characters = Array(uid)
        #expect(characters[14] == "8")
        #expect("89ab".contains(characters[19]))
    }

    @Test func savedPersonWithoutStoredUIDGetsTheDerivedOne() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        try book.add(katie)
        try book.save()
        let key = try #require(katie.key)
        let derived = VCardRecordFields.derivedUID(for: key)
        #expect(text(katie, .v3).contains("\r\nUID:\(derived)\r\n"))
        #expect(text(katie, .v4).contains("\r\nUID:urn:uuid:\(derived)\r\n"))
        #expect(!text(makePerson("Loose", "Person"), .v3).contains("UID"))
    }

    /// Every predefined label, and a custom one, on every kind of labelled value.
    static let labels: [Label] = Label.predefined + [Label("Summer house"), Label("Home"), Label("_$!<School>!$_")]

    @Test(arguments: VCardVersion.allCases, labels)
    func everyLabelSurvivesExportAndImport(_ version: VCardVersion, _ label: Label) throws {
        let person = Person()
        person.firstName = "L"
        person.phones = MultiValue([("555-0100", label)])
        person.emails = MultiValue([("a@example.com", label)])
        person.urls = MultiValue([("https://example.com", label)])
        person.addresses = MultiValue([(PostalAddress(city: "Atlanta"), label)])
        person.dates = MultiValue([(try ContactDate(year: 2001, month: 2, day: 3), label)])
        person.relatedNames = MultiValue([("Jane", label)])
        person.instantMessages = MultiValue([(InstantMessage(service: "Jabber", username: "a@example.com"), label)])
        person.socialProfiles = MultiValue([(SocialProfile(url: "https://s.example/a", service: "mastodon"), label)])
        let copy = try roundTrip(person, version).person
        #expect(copy.phones.map(\.label) == [label])
        #expect(copy.emails.map(\.label) == [label])
        #expect(copy.urls.map(\.label) == [label])
        #expect(copy.addresses.map(\.label) == [label])
        #expect(copy.dates.map(\.label) == [label])
        #expect(copy.relatedNames.map(\.label) == [label])
        #expect(copy.instantMessages.map(\.label) == [label])
        #expect(copy.socialProfiles.map(\.label) == [label])
        #expect(VCardRecordFields.lines(of: copy.state).isEmpty)
    }

    @Test func unusualAccountsAndProfilesSurviveExportAndImport() throws {
        let person = Person()
        person.firstName = "A"
        person.instantMessages = MultiValue([
            (InstantMessage(service: "Google Talk", username: "a@gmail.com"), nil),
            (InstantMessage(service: nil, username: "bare"), nil),
            (InstantMessage(service: "Matrix", username: "@a:example.org"), nil),
        ])
        person.socialProfiles = MultiValue([(SocialProfile(service: "twitter", username: "a", identifier: "7"), nil)])
        let exported = text(person, .v3)
        #expect(exported.contains("IMPP;X-SERVICE-TYPE=Google Talk:x-apple:a@gmail.com\r\n"))
        #expect(exported.contains("IMPP:bare\r\n"))
        let copy = try roundTrip(person, .v3).person
        #expect(copy.instantMessages == person.instantMessages)
        #expect(copy.socialProfiles == person.socialProfiles)
    }

    @Test func keptLinesRepeatingWrittenSingleValuesAreLeftOut() throws {
        let person = makePerson("Katie", "Bell")
        person.birthday = try ContactDate(year: 1990, month: 1, day: 1)
        var state = person.state
        VCardRecordFields.setLines(
            ["FN:Old display name", "BDAY;VALUE=text:circa 1990", "N;ALTID=1:Bell;K;;;", "ROLE:Chaser", "ROLE:Chaser",
             "NOTE:also kept"], in: &state)
        person.state = state
        let exported = text(person, .v3)
        #expect(!exported.contains("Old display name"))
        #expect(!exported.contains("circa"))
        #expect(!exported.contains("ALTID"))
        #expect(exported.components(separatedBy: "ROLE:Chaser").count == 2)
        #expect(exported.contains("\r\nNOTE:also kept\r\n"))
    }

    @Test func keptLinesThatAreNotPropertiesAreWrittenAsTheyCameAndStructuralOnesLeftOut() throws {
        let person = makePerson("Katie", "Bell")
        var state = person.state
        VCardRecordFields.setLines(["no colon here", "END:VCARD", "X-GOOD:yes"], in: &state)
        person.state = state
        let exported = text(person, .v4)
        #expect(exported.contains("\r\nX-GOOD:yes\r\n"))
        #expect(exported.contains("\r\nno colon here\r\n"))
        #expect(exported.components(separatedBy: "END:VCARD").count == 2)
    }

    @Test func longValuesAreFoldedAndReadBack() throws {
        let person = makePerson("Katie", "Bell")
        person.note = String(repeating: "Ünïcödé text, ", count: 20)
        let exported = text(person, .v3)
        #expect(exported.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 75 })
        #expect(try roundTrip(person, .v3).person.note == person.note)
    }
}
