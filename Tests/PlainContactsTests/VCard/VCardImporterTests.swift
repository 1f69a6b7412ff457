import Foundation
import Testing
@testable import PlainContacts

@Suite struct VCardImporterTests {
    /// The people of a fixture file.
    private func people(_ fixture: String) throws -> [ImportedPerson] {
        try VCardFixtures.cards(fixture).compactMap { card in
            if case .person(let person) = try VCardImporter.map(card, source: fixture) { return person }
            return nil
        }
    }

    /// The one person of a fixture file.
    private func person(_ fixture: String) throws -> ImportedPerson {
        let all = try people(fixture)
        try #require(all.count == 1)
        return all[0]
    }

    /// The one card of vCard text.
    private func imported(_ text: String) throws -> ImportedCard {
        let cards = try VCardTesting.parse(text)
        try #require(cards.count == 1)
        return try VCardImporter.map(cards[0], source: "test.vcf")
    }

    /// The person of a vCard 3.0 card with these content lines.
    private func person(lines: [String]) throws -> ImportedPerson {
        let text = (["BEGIN:VCARD", "VERSION:3.0"] + lines + ["END:VCARD"]).joined(separator: "\r\n") + "\r\n"
        guard case .person(let person) = try imported(text) else {
            Issue.record("expected a person card")
            throw CancellationError()
        }
        return person
    }

    private func pairs<Value>(_ values: MultiValue<Value>) -> [String] {
        values.entries.map { "\($0.label?.rawValue ?? "-")=\($0.value)" }
    }

    private func keptLines(_ person: Person) -> [String] {
        VCardRecordFields.lines(of: person.state)
    }

    @Test(arguments: VCardFixtures.parsable)
    func everyParsableFixtureMapsWithoutError(_ fixture: String) throws {
        let cards = try VCardFixtures.cards(fixture)
        #expect(!cards.isEmpty)
        for card in cards {
            _ = try VCardImporter.map(card, source: fixture)
        }
    }

    @Test func allFieldsCardMapsNamesOrganizationAndSingleValues() throws {
        let imported = try person("vcard4android/allfields-vcard3.vcf")
        let person = imported.person
        #expect(person.lastName == "Lastname")
        #expect(person.firstName == "Firstname")
        #expect(person.middleName == "Middlename1 Middlename2")
        #expect(person.prefix == "DDDr.")
        #expect(person.suffix == "MBA")
        #expect(person.firstNamePhonetic == "Förstnehm")
        #expect(person.middleNamePhonetic == "Mittelnehm")
        #expect(person.lastNamePhonetic == "Laastnehm")
        #expect(person.organization == "ABC, Inc.")
        #expect(person.department == "North American Division, Marketing")
        #expect(person.jobTitle == "Director, Research and Development")
        #expect(person.nickname == "Nick1, Nick2")
        #expect(person.note == "This fax number is operational 0800 to 1715 EST, Mon-Fri.\n\nSecond note")
        #expect(person.birthday == (try ContactDate(year: 1996, month: 4, day: 15)))
        #expect(imported.uid == "mostfields1@at.bitfire.vcard4android")
        #expect(VCardRecordFields.uid(of: person.state) == "mostfields1@at.bitfire.vcard4android")
        #expect(imported.groupNames == ["A", "B\\'C"])
        #expect(imported.line == 1)
    }

    @Test func allFieldsCardMapsLabelledValuesWithAppleItemLabels() throws {
        let person = try person("vcard4android/allfields-vcard3.vcf").person
        #expect(pairs(person.phones) == ["Useless=+49 1234 56788", "otherFax=+1-800-MYFAX"])
        #expect(pairs(person.emails) == ["home=private@example.com", "@work=work@example.com"])
        #expect(pairs(person.urls) == ["-=https://www.davx5.com/", "blog=http://www.swbyps.restaurant.french/~chezchic.html"])
        #expect(pairs(person.relatedNames) == ["co-worker=Ägidius"])
        #expect(pairs(person.dates) == ["anniversary=2014-08-12", "Custom Date=2021-07-29"])
        let addresses = person.addresses
        try #require(addresses.count == 2)
        #expect(addresses[0].label == .work)
        #expect(addresses[0].value == PostalAddress(
            street: "6544 Battleford Drive", city: "Raleigh", state: "NC", zip: "27613-3502", country: "U.S.A."))
        #expect(addresses[1].label == Label("Monkey Tree"))
        #expect(addresses[1].value == PostalAddress(
            poBox: "Postfach 314", extendedAddress: "vorne hinten", street: "Teststraße 22",
            city: "Mönchspfaffingen", zip: "4043", country: "Klöster-Reich"))
        let accounts = person.instantMessages
        try #require(accounts.count == 2)
        #expect(accounts[0].label == Label("MyIM"))
        #expect(accounts[0].value == InstantMessage(service: "myIM", username: "anonymous@example.com"))
        #expect(accounts[1].label == .work)
        #expect(accounts[1].value == InstantMessage(service: "Skype", username: "echo@example.com"))
    }

    @Test func allFieldsCardKeepsUnmappedPropertiesVerbatim() throws {
        let person = try person("vcard4android/allfields-vcard3.vcf").person
        let kept = keptLines(person)
        #expect(person.formattedName == "Ämi Display")
        #expect(kept == [
            "ROLE:Programmer",
            "X-SIP:mysip@example.com",
            "RELATED;TYPE=parent;VALUE=uri:muuum@example.com",
            "X-TEST;A=B:Value",
        ])
        let image = try #require(try person.imageData())
        #expect(Array(image.prefix(3)) == [0xFF, 0xD8, 0xFF])
    }

    @Test func yearlessBirthdayOfVCard4HasNoYear() throws {
        let person = try person("vcard4android/vcard4.vcf").person
        #expect(person.birthday == (try ContactDate(month: 4, day: 16)))
        #expect(person.firstName == "VCard 4 Test")
    }

    @Test func inlinePhotosOfVCard3AndVCard4GiveTheSameBytes() throws {
        let v3 = try #require(try person("khard/photov3.vcf").person.imageData())
        let v4 = try #require(try person("khard/photov4.vcf").person.imageData())
        #expect(v3 == v4)
        #expect(Array(v3.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        #expect(v3.count == 123)
    }

    @Test func categoriesBecomeGroupNames() throws {
        let imported = try person("khard/category.vcf")
        #expect(imported.groupNames == ["bar"])
        #expect(imported.uid == "cat1")
        #expect(pairs(imported.person.emails) == ["-=foo@example.org"])
    }

    @Test func macOSExportsMapNamesWorkAndLabels() throws {
        let all = try people("vcardimport/amelie-alpha-3x.vcf")
        #expect(all.count == 3)
        #expect(all.map(\.person.jobTitle) == [
            "Test Subject", "Duplicated Test Subject", "Another Duplicated Test Subject",
        ])
        let first = try person("vcardimport/amelie-alpha.vcf")
        #expect(first.person.firstName == "Amelie")
        #expect(first.person.lastName == "Alpha")
        #expect(first.person.organization == "VCardImport Tests")
        #expect(first.person.department == nil)
        #expect(pairs(first.person.emails) == ["home=amelie.alpha@example.com"])
        #expect(pairs(first.person.phones) == ["mobile=5551001001"])
        #expect(first.uid == "d69c71e5-4a6f-4b9b-97fc-4f9f5770c907")
        #expect(keptLines(first.person) == ["X-ABUID:D69C71E5-4A6F-4B9B-97FC-4F9F5770C907:ABPerson"])
    }

    @Test func quotedPrintableVCard21MapsCharsetsPhotoAndAgent() throws {
        let all = try people("handmade/quoted-printable-21.vcf")
        try #require(all.count == 2)
        let hans = all[0].person
        #expect(hans.lastName == "Ärger")
        #expect(hans.firstName == "Hans-Jürgen")
        #expect(pairs(hans.phones) == ["mobile=+49 170 0000000", "home=+49 30 0000000"])
        #expect(pairs(hans.emails) == ["-=hj@example.com"])
        #expect(pairs(hans.addresses) == [
            "home=\(PostalAddress(street: "Straße 1", city: "München", zip: "80331", country: "Deutschland"))"
        ])
        #expect(hans.note == "Erste Zeile\nZweite Zeile, mit Komma und einem  langen Rest")
        let image = try #require(try hans.imageData())
        #expect(String(decoding: image.prefix(4), as: UTF8.self) == "GIF8")
        #expect(keptLines(hans).isEmpty)
        let erika = all[1].person
        #expect(pairs(erika.phones) == ["workFax=+49 89 0000001"])
        #expect(keptLines(erika).count == 1)
        #expect(keptLines(erika).first?.hasPrefix("AGENT:BEGIN:VCARD\\nVERSION:2.1\\nFN:Assistenz") == true)
    }

    @Test func organizationCardIsOfKindOrganization() throws {
        let org = try person("khard/org.vcf").person
        #expect(org.kind == .organization)
        #expect(org.organization == "ACME Inc.")
        #expect(org.firstName == nil)
        #expect(org.compositeName == "ACME Inc.")
        #expect(keptLines(org).isEmpty)
        let company = try person(lines: ["N:;;;;", "FN:Globex", "X-ABShowAs:COMPANY"]).person
        #expect(company.kind == .organization)
        #expect(company.organization == "Globex")
        #expect(company.firstName == nil)
    }

    @Test func formattedNameIsTheFirstNameWhenTheStructuredNameIsEmpty() throws {
        let korean = try person("khard/korean-c.vcf").person
        #expect(korean.firstName == "최유림")
        #expect(korean.lastName == nil)
        #expect(keptLines(korean).isEmpty)
        let empty = try person(lines: ["N:;;;;", "FN:Solo Name"]).person
        #expect(empty.firstName == "Solo Name")
    }

    @Test func unparseableBirthdayIsKeptAsALine() throws {
        let person = try person("khard/text-bday.vcf").person
        #expect(person.birthday == nil)
        #expect(keptLines(person) == ["BDAY;VALUE=text:circa 1800"])
    }

    @Test(arguments: [
        ("BDAY:1996-04-15", "1996-04-15"),
        ("BDAY:19960415", "1996-04-15"),
        ("BDAY:--04-15", "--04-15"),
        ("BDAY:--0415", "--04-15"),
        ("BDAY:1996-04-15T201243+04:00", "1996-04-15"),
        ("BDAY;VALUE=date-and-or-time:19960415T120000Z", "1996-04-15"),
        ("BDAY;X-APPLE-OMIT-YEAR=1604:1604-04-15", "--04-15"),
        ("BDAY:1604-04-15", "--04-15"),
        ("BDAY:1604-02-29", "--02-29"),
    ])
    func birthdayFormatsAreRead(_ line: String, _ expected: String) throws {
        let person = try person(lines: [line]).person
        #expect(person.birthday?.description == expected)
        #expect(keptLines(person).isEmpty)
    }

    @Test(arguments: ["BDAY:1996-13-01", "BDAY:1996-02-30", "BDAY:April", "BDAY:1996-04"])
    func impossibleBirthdaysAreKeptAsLines(_ line: String) throws {
        let person = try person(lines: [line]).person
        #expect(person.birthday == nil)
        #expect(keptLines(person) == [line])
    }

    @Test(arguments: [
        ("TEL;TYPE=CELL:1", "mobile"),
        ("TEL;TYPE=cell,voice,pref:1", "mobile"),
        ("TEL;TYPE=IPHONE,CELL,VOICE:1", "iPhone"),
        ("TEL;TYPE=MAIN:1", "main"),
        ("TEL;TYPE=HOME:1", "home"),
        ("TEL;TYPE=WORK,VOICE:1", "work"),
        ("TEL;TYPE=FAX,HOME:1", "homeFax"),
        ("TEL;TYPE=FAX;TYPE=WORK:1", "workFax"),
        ("TEL;TYPE=FAX:1", "otherFax"),
        ("TEL;TYPE=PAGER:1", "pager"),
        ("TEL;TYPE=OTHER:1", "other"),
        ("TEL;TYPE=CAR:1", "car"),
        ("TEL;TYPE=VOICE,PREF,X-CUSTOM:1", "-"),
        ("TEL:1", "-"),
        ("TEL;CELL;PREF:1", "mobile"),
        ("EMAIL;TYPE=INTERNET,HOME:a@b", "home"),
        ("EMAIL;TYPE=INTERNET,WORK,PREF:a@b", "work"),
        ("EMAIL;TYPE=INTERNET:a@b", "-"),
        ("URL;TYPE=HOME:http://a", "homePage"),
        ("URL;TYPE=homepage:http://a", "homePage"),
        ("URL;TYPE=WORK:http://a", "work"),
        ("ADR;TYPE=HOME,POSTAL:;;1 Main St;;;;", "home"),
        ("ADR;TYPE=WORK,PARCEL,PREF:;;1 Main St;;;;", "work"),
        ("IMPP;TYPE=personal:xmpp:a@b", "home"),
        ("IMPP;TYPE=business:xmpp:a@b", "work"),
        ("X-AIM;TYPE=HOME:joe", "home"),
    ])
    func typeParametersMapToLabels(_ line: String, _ expected: String) throws {
        let person = try person(lines: [line]).person
        let labels =
            person.phones.map { $0.label?.rawValue ?? "-" } + person.emails.map { $0.label?.rawValue ?? "-" }
            + person.urls.map { $0.label?.rawValue ?? "-" } + person.addresses.map { $0.label?.rawValue ?? "-" }
            + person.instantMessages.map { $0.label?.rawValue ?? "-" }
        #expect(labels == [expected])
    }

    @Test(arguments: [
        ("_$!<Mobile>!$_", "mobile"), ("_$!<iPhone>!$_", "iPhone"), ("_$!<HomePage>!$_", "homePage"),
        ("_$!<Anniversary>!$_", "anniversary"), ("_$!<Other>!$_", "other"), ("_$!<Father>!$_", "father"),
        ("_$!<Mother>!$_", "mother"), ("_$!<Parent>!$_", "parent"), ("_$!<Brother>!$_", "brother"),
        ("_$!<Sister>!$_", "sister"), ("_$!<Child>!$_", "child"), ("_$!<Friend>!$_", "friend"),
        ("_$!<Spouse>!$_", "spouse"), ("_$!<Partner>!$_", "partner"), ("_$!<Assistant>!$_", "assistant"),
        ("_$!<Manager>!$_", "manager"), ("_$!<Home>!$_", "home"), ("_$!<Work>!$_", "work"),
        ("_$!<Main>!$_", "main"), ("_$!<HomeFAX>!$_", "homeFax"), ("_$!<WorkFAX>!$_", "workFax"),
        ("_$!<OtherFAX>!$_", "otherFax"), ("_$!<Pager>!$_", "pager"), ("_$!<School>!$_", "_$!<School>!$_"),
        ("Summer house", "Summer house"), ("work", "work"),
    ])
    func appleItemLabelsMapToLabelsAndWinOverType(_ abLabel: String, _ expected: String) throws {
        let person = try person(lines: ["item7.TEL;TYPE=HOME:+1 555 0100", "item7.X-ABLabel:\(abLabel)"]).person
        #expect(person.phones.map { $0.label?.rawValue } == [expected])
        #expect(keptLines(person).isEmpty)
    }

    @Test func relatedNamesComeFromAppleItemsAndTextRelated() throws {
        let person = try person(lines: [
            "item1.X-ABRELATEDNAMES:Jane", "item1.X-ABLabel:_$!<Spouse>!$_",
            "item2.X-ABRELATEDNAMES:Bob", "item2.X-ABLabel:Coach",
            "RELATED;TYPE=child;VALUE=text:Tim",
            "RELATED;TYPE=friend:Ann",
            "RELATED;TYPE=parent:urn:uuid:1234",
        ]).person
        #expect(pairs(person.relatedNames) == ["spouse=Jane", "Coach=Bob", "child=Tim", "friend=Ann"])
        #expect(keptLines(person) == ["RELATED;TYPE=parent:urn:uuid:1234"])
    }

    @Test func appleDatesTakeTheirItemLabels() throws {
        let person = try person(lines: [
            "item1.X-ABDATE;type=pref:2004-06-05", "item1.X-ABLabel:_$!<Anniversary>!$_",
            "item2.X-ABDATE;X-APPLE-OMIT-YEAR=1604:1604-12-24", "item2.X-ABLabel:_$!<Other>!$_",
            "ANNIVERSARY:20100101",
        ]).person
        #expect(pairs(person.dates) == ["anniversary=2004-06-05", "other=--12-24", "anniversary=2010-01-01"])
    }

    @Test func instantMessagesComeFromIMPPAndOlderProperties() throws {
        let person = try person(lines: [
            "IMPP;X-SERVICE-TYPE=Jabber;type=HOME:xmpp:katie@example.org",
            "IMPP:skype:katie.bell",
            "IMPP;X-SERVICE-TYPE=GoogleTalk:x-apple:kb@gmail.com",
            "IMPP:matrix:@kb:example.org",
            "X-AIM;TYPE=WORK:katieaim",
            "X-JABBER:katie@example.org",
            "X-ICQ:12345",
        ]).person
        #expect(person.instantMessages.values == [
            InstantMessage(service: "Jabber", username: "katie@example.org"),
            InstantMessage(service: "Skype", username: "katie.bell"),
            InstantMessage(service: "GoogleTalk", username: "kb@gmail.com"),
            InstantMessage(service: "Matrix", username: "@kb:example.org"),
            InstantMessage(service: "AIM", username: "katieaim"),
            InstantMessage(service: "ICQ", username: "12345"),
        ])
        #expect(person.instantMessages.map(\.label) == [.home, nil, nil, nil, .work, nil])
    }

    @Test func socialProfilesTakeServiceUserAndAddress() throws {
        let person = try person(lines: [
            "X-SOCIALPROFILE;type=twitter;x-user=johnny:http://twitter.com/johnny",
            "X-SOCIALPROFILE;TYPE=linkedin;X-USERID=42:https://linkedin.com/in/jo",
        ]).person
        #expect(person.socialProfiles.values == [
            SocialProfile(url: "http://twitter.com/johnny", service: "twitter", username: "johnny"),
            SocialProfile(url: "https://linkedin.com/in/jo", service: "linkedin", identifier: "42"),
        ])
    }

    @Test func postOfficeBoxAndExtendedAddressKeepTheirOwnFields() throws {
        let person = try person("khard/post.vcf").person
        #expect(person.addresses.values == [
            PostalAddress(
                poBox: "PostBox", extendedAddress: "Ext", street: "Main Street 1", city: "The City",
                state: "SomeState", zip: "00000", country: "HomeCountry")
        ])
        let apple = try self.person(lines: [
            "item1.ADR;type=HOME:;;1 Infinite Loop;Cupertino;CA;95014;USA", "item1.X-ABADR:US",
        ]).person
        #expect(apple.addresses.values.first?.countryCode == "us")
        #expect(apple.addresses.first?.label == .home)
        #expect(keptLines(apple).isEmpty)
    }

    @Test(arguments: [
        (["N:Gump;Forrest;;Mr.;", "FN:Forrest Gump"], "Forrest Gump"),
        (["N:Doe;John;;;", "FN:J. Doe"], "J. Doe"),
        (["N:Doe;John;;;", "ORG:ABC Marketing", "FN:ABC Marketing"], "ABC Marketing"),
    ])
    func formattedNameDifferingFromTheCompositeNameIsKept(lines: [String], formatted: String) throws {
        let person = try person(lines: lines).person
        #expect(person.formattedName == formatted)
        #expect(keptLines(person).isEmpty)
    }

    @Test(arguments: [
        ["N:Doe;John;;;", "FN:John Doe"],
        ["N:;;;;", "FN:John Doe"],
        ["N:Doe;John;;Dr.;", "FN:Dr. John Doe"],
        ["ORG:ACME", "X-ABShowAs:COMPANY", "FN:ACME"],
    ])
    func formattedNameTheCompositeNameGivesIsNotStored(lines: [String]) throws {
        let person = try person(lines: lines).person
        #expect(person.formattedName == nil)
        #expect(keptLines(person).isEmpty)
    }

    @Test func telephoneURIValuesLoseTheirScheme() throws {
        #expect(pairs(try person("khard/tel-value-uri.vcf").person.phones) == ["mobile=67545678"])
        let uri = try person(lines: ["TEL;VALUE=uri;TYPE=home:tel:+1-555-0100"]).person
        #expect(pairs(uri.phones) == ["home=+1-555-0100"])
    }

    @Test func unknownPropertiesWithLabelsKeepBothLines() throws {
        let person = try person("vcard4android/unknown-properties-with-labels.vcf").person
        #expect(keptLines(person) == ["item1.X-Unknown:TestValue", "item1.X-ABLabel:TestLabel"])
    }

    @Test func labelOfAnItemWithoutLabelledValueIsKept() throws {
        let person = try person("khard/labels.vcf").person
        #expect(person.organization == "Test Inc")
        #expect(keptLines(person) == ["item1.X-ABLabel:Work"])
    }

    @Test func laterStructuredNameIsKeptAndTheFirstOneMapped() throws {
        let person = try person("khard/altid.vcf").person
        #expect(person.firstName == "one")
        #expect(person.lastName == "representation")
        #expect(person.formattedName == "altid")
        #expect(keptLines(person) == ["N;ALTID=1:representation;two;;;"])
    }

    @Test func productAndRevisionAreDropped() throws {
        let person = try person("vcard4android/strange-rev.vcf").person
        #expect(keptLines(person).isEmpty)
        #expect(pairs(person.phones) == ["otherFax=+49000000", "-=+49000000"])
    }

    @Test func externalPhotoIsKeptAsALine() throws {
        let person = try person(lines: ["FN:A", "PHOTO;VALUE=uri:https://example.com/a.jpg"]).person
        #expect(person.hasImage == false)
        #expect(keptLines(person) == ["PHOTO;VALUE=uri:https://example.com/a.jpg"])
    }

    @Test func invalidBase64PhotoFailsWithMalformedVCardAtItsLine() throws {
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nPHOTO;ENCODING=b;TYPE=JPEG:@@not base64@@\r\nEND:VCARD\r\n"
        var card = try #require(try VCardTesting.parse(text, source: "bad.vcf").first)
        // As a strict reader leaves it: the base64 text as written, without white space.
        card.properties[1].rawValue = "@@notbase64@@"
        let error = try #require(VCardTesting.interchangeError { _ = try VCardImporter.map(card, source: "bad.vcf") })
        #expect(error.code == .malformedVCard)
        #expect(error.line == 4)
        #expect(error.path == "bad.vcf")
    }

    @Test func vCard4GroupCardListsItsMembers() throws {
        let card = try imported("""
            BEGIN:VCARD\r
            VERSION:4.0\r
            KIND:group\r
            FN:Friends\r
            UID:urn:uuid:g1\r
            MEMBER:urn:uuid:p1\r
            MEMBER:urn:uuid:p2\r
            END:VCARD\r

            """)
        guard case .group(let group) = card else {
            Issue.record("expected a group")
            return
        }
        #expect(group.name == "Friends")
        #expect(group.uid == "urn:uuid:g1")
        #expect(group.memberUIDs == ["urn:uuid:p1", "urn:uuid:p2"])
    }

    @Test func appleGroupCardListsItsMembers() throws {
        let card = try imported("""
            BEGIN:VCARD\r
            VERSION:3.0\r
            N:Team\r
            X-ADDRESSBOOKSERVER-KIND:group\r
            X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:ABC\r
            END:VCARD\r

            """)
        guard case .group(let group) = card else {
            Issue.record("expected a group")
            return
        }
        #expect(group.name == "Team")
        #expect(group.memberUIDs == ["urn:uuid:ABC"])
    }

    @Test func groupCardWithoutNameIsMalformed() throws {
        let card = try #require(try VCardTesting.parse("BEGIN:VCARD\r\nKIND:group\r\nEND:VCARD\r\n").first)
        let error = VCardTesting.interchangeError { _ = try VCardImporter.map(card, source: "g.vcf") }
        #expect(error?.code == .malformedVCard)
        #expect(error?.line == 1)
    }
}
