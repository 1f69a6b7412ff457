import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct LDIFContactReaderTests {
    private typealias Fixtures = InterchangeFixtures

    private func convert(_ text: String, strict: Bool = false) throws -> ConvertedContacts {
        try Fixtures.convert(text, format: .ldif, strict: strict)
    }

    private func imported(_ text: String) throws -> (TemporaryStore, AddressBook) {
        let store = try TemporaryStore()
        let book = try Fixtures.importIntoFreshBook(convert(text), store: store)
        return (store, book)
    }

    // MARK: Fixtures

    @Test(arguments: InterchangeFixtures.names(endingIn: ".ldif"))
    func everyLDIFFixtureConvertsWithoutWarningAndImports(_ fixture: String) throws {
        let converted = try Fixtures.convert(fixture: fixture, format: .ldif)
        #expect(converted.warnings.isEmpty)
        let store = try TemporaryStore()
        let book = try Fixtures.importIntoFreshBook(converted, store: store)
        #expect(book.personCount > 0)
    }

    @Test func hordeExportMapsEveryThunderbirdField() throws {
        let store = try TemporaryStore()
        let book = try Fixtures.importIntoFreshBook(
            Fixtures.convert(fixture: "horde-turba-import.ldif", format: .ldif), store: store)
        #expect(book.personCount == 2)
        let charlie = try Fixtures.person(book, email: "brown@school.edu")
        #expect(charlie.firstName == "Charles")
        #expect(charlie.lastName == "Brown")
        #expect(charlie.formattedName == "Charlie Brown")
        #expect(charlie.nickname == "Chuck")
        #expect(charlie.emails.values == ["brown@school.edu", "brown@gmail.com"])
        #expect(
            Fixtures.pairs(charlie.phones) == [
                "work=+1 212 876 5432", "home=+1 203 234 5678", "otherFax=+1 203 999 9999",
                "pager=+1 203 111 1111", "mobile=+1 917 321 0987",
            ])
        let home = try #require(charlie.addresses.entries.first { $0.label == .home }?.value)
        #expect(home.street == "12 west 57 street")
        #expect(home.extendedAddress == "Apt 2076")
        #expect(home.city == "New York")
        #expect(home.zip == "10001")
        #expect(home.country == "USA")
        let work = try #require(charlie.addresses.entries.first { $0.label == .work }?.value)
        #expect(work.street == "12 West 55th Street")
        #expect(work.extendedAddress == "Room 22")
        #expect(charlie.jobTitle == "Senior Systems Programmer")
        #expect(charlie.department == "CUIT")
        #expect(charlie.organization == "School University")
        #expect(
            Fixtures.pairs(charlie.urls) == ["work=http://www.school.edu/", "homePage=http://www.school.edu/~brown/"])
        #expect(charlie.instantMessages.values.map(\.username) == ["CharlieBrown"])
        #expect(charlie.note == "hi mom")
    }

    @Test func thunderbirdsOwnTestExportMapsToTheSameValues() throws {
        let store = try TemporaryStore()
        let book = try Fixtures.importIntoFreshBook(
            Fixtures.convert(fixture: "thunderbird-basic_ldif_addressbook.ldif", format: .ldif), store: store)
        let person = try Fixtures.person(book, email: "primaryemail@host.invalid")
        #expect(person.firstName == "First")
        #expect(person.lastName == "Last")
        #expect(person.formattedName == "Display Name")
        #expect(person.nickname == "Nickname")
        #expect(person.emails.values == ["primaryemail@host.invalid", "secondemail@host.invalid"])
        #expect(
            Fixtures.pairs(person.phones) == [
                "work=123-456-7890", "home=234-567-8901", "otherFax=345-678-9012", "pager=456-789-0123",
                "mobile=567-890-1234",
            ])
        #expect(
            person.addresses.entries.map { "\($0.label?.rawValue ?? "-"):\($0.value.street ?? "")/\($0.value.extendedAddress ?? "")" }
                == ["home:Home Address Line 1/Home Address Line 2", "work:Work Address Line 1/Work Address Line 2"])
        #expect(person.organization == "Organization Name")
        #expect(person.department == "Department")
        #expect(person.jobTitle == "Job Title")
        #expect(Fixtures.pairs(person.urls) == ["work=http://127.0.0.1", "homePage=http://localhost"])
        #expect(person.note == "Notes line 1\nNotes line 2\nNotes line 3\nNotes line 4")
        #expect(person.birthday == nil)
        let kept = VCardRecordFields.lines(of: person.state)
        #expect(kept.contains("X-IMPORTED-FIELD;X-FORMAT=ldif;X-NAME=\"birthyear\":1900"))
        #expect(kept.filter { $0.contains("X-NAME=\"mozillaCustom") }.count == 4)
        // Whether the person prefers HTML mail is the person's, and goes back to Thunderbird.
        #expect(kept.contains("X-IMPORTED-FIELD;X-FORMAT=ldif;X-NAME=\"mozillaUseHtmlMail\":true"))
    }

    @Test func base64ValuesAreDecodedAsUTF8() throws {
        let converted = try Fixtures.convert(fixture: "horde-turba-bug6518.ldif", format: .ldif)
        let store = try TemporaryStore()
        let book = try Fixtures.importIntoFreshBook(converted, store: store)
        let john = try Fixtures.person(book, email: "john@example.com")
        #expect(john.lastName == "Püblic")
        #expect(john.firstName == "John")
    }

    @Test func listsBeforeTheirMembersBecomeGroupsAndEmptyListsStillExist() throws {
        let store = try TemporaryStore()
        let book = try Fixtures.importIntoFreshBook(
            Fixtures.convert(fixture: "thunderbird-lists.ldif", format: .ldif), store: store)
        #expect(book.personCount == 2)
        let katie = try Fixtures.person(book, email: "katie@example.org")
        let zoe = try Fixtures.person(book, email: "zoe@example.org")
        #expect(Fixtures.groupNames(book, of: katie) == ["Book Club"])
        #expect(Fixtures.groupNames(book, of: zoe) == ["Book Club"])
        #expect(book.groups(named: "Nobody Yet").count == 1)
        #expect(book.groups(named: "Book Club").count == 1)
    }

    @Test func aListsDescriptionIsKeptWithItsGroup() throws {
        let store = try TemporaryStore()
        let book = try Fixtures.importIntoFreshBook(
            Fixtures.convert(fixture: "thunderbird-lists.ldif", format: .ldif), store: store)
        let club = try #require(book.groups(named: "Book Club").first)
        #expect(
            VCardRecordFields.lines(of: club.state) == [#"X-IMPORTED-FIELD;X-FORMAT=ldif;X-NAME="description":Monthly readers"#])
        #expect(KeptField.fields(of: club, format: "ldif").map(\.value) == ["Monthly readers"])
        let empty = try #require(book.groups(named: "Nobody Yet").first)
        #expect(VCardRecordFields.lines(of: empty.state).isEmpty)
    }

    @Test func importingAListTwiceKeepsItsDescriptionOnce() throws {
        let store = try TemporaryStore()
        let converted = try Fixtures.convert(fixture: "thunderbird-lists.ldif", format: .ldif)
        let book = try Fixtures.importIntoFreshBook(converted, store: store)
        _ = try book.importVCards(
            from: Data(converted.vCardText), source: "converted.vcf", options: VCardImportOptions(onMatch: .merge))
        let club = try #require(book.groups(named: "Book Club").first)
        #expect(VCardRecordFields.lines(of: club.state).count == 1)
    }

    @Test func thunderbirdFieldsMapToLabelsDatesAndKeptFields() throws {
        let store = try TemporaryStore()
        let book = try Fixtures.importIntoFreshBook(
            Fixtures.convert(fixture: "thunderbird-lists.ldif", format: .ldif), store: store)
        let katie = try Fixtures.person(book, email: "katie@example.org")
        #expect(katie.birthday?.description == "1984-07-21")
        #expect(katie.note == "Met at the conference.\nLikes tea – not coffee.")
        #expect(
            Fixtures.pairs(katie.phones) == [
                "work=+44 20 7946 0001", "home=+44 20 7946 0002", "mobile=+44 7700 900003",
                "otherFax=+44 20 7946 0004", "pager=+44 20 7946 0005",
            ])
        #expect(katie.emails.values == ["katie@example.org", "k.bell@work.example"])
        #expect(VCardRecordFields.lines(of: katie.state).contains {
            $0.contains("X-NAME=\"mozillaCustom1\"") && $0.hasSuffix(":favourite shelf 7")
        })
        let zoe = try Fixtures.person(book, email: "zoe@example.org")
        #expect(zoe.firstName == "Zoë")
        #expect(zoe.lastName == "Ångström")
        #expect(zoe.birthday?.description == "--02-29")
    }

    // MARK: Syntax

    @Test func foldedLinesAndCommentsAreRead() throws {
        let (_, book) = try imported(
            "# a comment\n#  folded comment\n dn: not an attribute\ndn: cn=Katie\ncn: Ka\n tie Bell\nmail: k@x.example\n")
        let katie = try Fixtures.person(book, email: "k@x.example")
        #expect(katie.firstName == "Katie")
        #expect(katie.lastName == "Bell")
    }

    @Test func aLeadingVersionLineIsSkipped() throws {
        let converted = try convert("version: 1\ndn: cn=Katie Bell\ncn: Katie Bell\n")
        #expect(converted.warnings.isEmpty)
        #expect(!Fixtures.lines(converted).contains { $0.contains("version") })
        #expect(converted.cardCount == 1)
    }

    @Test func crlfLineEndsAreRead() throws {
        let converted = try convert("dn: cn=Katie Bell\r\ncn: Katie Bell\r\nmail: k@x.example\r\n\r\n")
        #expect(Fixtures.lines(converted).contains("EMAIL;TYPE=PREF:k@x.example"))
    }

    @Test func attributeNamesAreCaseInsensitiveAndOptionsAreDropped() throws {
        let (_, book) = try imported("DN: cn=K\nGIVENNAME: Katie\nSN;lang-en: Bell\nMail: k@x.example\n")
        let katie = try Fixtures.person(book, email: "k@x.example")
        #expect(katie.firstName == "Katie")
        #expect(katie.lastName == "Bell")
    }

    @Test func aURLValueIsKeptAndNotRead() throws {
        let converted = try convert("dn: cn=K\ncn: Katie Bell\njpegPhoto:< file:///etc/passwd\n")
        #expect(
            Fixtures.lines(converted).contains("X-IMPORTED-FIELD;X-FORMAT=ldif;X-NAME=\"jpegPhoto\":file:///etc/passwd"))
        #expect(!Fixtures.lines(converted).contains { $0.hasPrefix("PHOTO") })
    }

    @Test func changeRecordsAreSkippedWithAWarning() throws {
        let text = "dn: cn=Old\nchangetype: delete\n\ndn: cn=K\nchangetype: modify\nreplace: mail\nmail: a@x\n-\n\n"
            + "dn: cn=Katie Bell\nchangetype: add\ncn: Katie Bell\n"
        let converted = try convert(text)
        #expect(converted.cardCount == 1)
        #expect(converted.warnings.map(\.line) == [1, 4])
        #expect(converted.warnings.allSatisfy { $0.code == .malformedInput })
        #expect(Fixtures.interchangeError { _ = try convert(text, strict: true) }?.code == .malformedInput)
    }

    @Test func aLineWithoutAColonIsSkippedWithAWarningNamingIt() throws {
        let converted = try convert("dn: cn=Katie Bell\ncn: Katie Bell\nthis is not ldif\nmail: k@x.example\n")
        #expect(converted.warnings.map(\.line) == [3])
        #expect(Fixtures.lines(converted).contains("EMAIL;TYPE=PREF:k@x.example"))
        let error = Fixtures.interchangeError { _ = try convert("dn: cn=K\ncn: K\nbroken\n", strict: true) }
        #expect(error?.code == .malformedInput)
        #expect(error?.line == 3)
    }

    @Test func badBase64IsSkippedWithAWarning() throws {
        let converted = try convert("dn: cn=Katie Bell\ncn: Katie Bell\ndescription:: !!!notbase64\n")
        #expect(converted.warnings.map(\.line) == [3])
        #expect(!Fixtures.lines(converted).contains { $0.hasPrefix("NOTE") })
    }

    @Test func base64ValuesMayHoldLineBreaks() throws {
        let note = Data("line one\nline two".utf8).base64EncodedString()
        let (_, book) = try imported("dn: cn=K\ncn: Katie Bell\nmail: k@x.example\ndescription:: \(note)\n")
        #expect(try Fixtures.person(book, email: "k@x.example").note == "line one\nline two")
    }

    // MARK: Mapping

    @Test func aCommonNameAloneIsSplitByTheNameRule() throws {
        let (_, book) = try imported(
            "dn: cn=A\ncn: Bell, Katie\nmail: a@x.example\n\ndn: cn=B\ncn: Mary Ann van Berg\nmail: b@x.example\n")
        let katie = try Fixtures.person(book, email: "a@x.example")
        #expect(katie.firstName == "Katie")
        #expect(katie.lastName == "Bell")
        let mary = try Fixtures.person(book, email: "b@x.example")
        #expect(mary.firstName == "Mary Ann van Berg")
        #expect(mary.lastName == nil)
    }

    @Test func otherProgramsAttributeNamesAreRead() throws {
        let text = """
            dn: cn=Katie Bell
            displayName: Katie Bell
            mail: k@x.example
            cellphone: 555-0101
            homeurl: https://katie.example
            workurl: https://work.example
            labeledURI: https://labelled.example My page
            company: Acme
            homeStreet: 1 Road

            """
        let (_, book) = try imported(text)
        let katie = try Fixtures.person(book, email: "k@x.example")
        #expect(katie.firstName == "Katie")
        #expect(Fixtures.pairs(katie.phones) == ["mobile=555-0101"])
        #expect(
            Fixtures.pairs(katie.urls) == [
                "homePage=https://katie.example", "work=https://work.example", "-=https://labelled.example",
            ])
        #expect(katie.organization == "Acme")
        #expect(katie.addresses.entries.first?.value.street == "1 Road")
    }

    @Test func secondStreetLinesAndARepeatedStreetAreKept() throws {
        let text = """
            dn: cn=Katie Bell,mail=k@x.example
            cn: Katie Bell
            mail: k@x.example
            mozillaHomeStreet: 1 Road
            mozillaHomeStreet2: Flat 2
            mozillaHomeLocalityName: Town
            street: 5 Work Street
            street: Floor 3
            mozillaWorkStreet2: Suite 9
            l: City

            """
        let (_, book) = try imported(text)
        let katie = try Fixtures.person(book, email: "k@x.example")
        let home = try #require(katie.addresses.entries.first { $0.label == .home }?.value)
        #expect([home.street, home.extendedAddress, home.city] == ["1 Road", "Flat 2", "Town"])
        let work = try #require(katie.addresses.entries.first { $0.label == .work }?.value)
        #expect([work.street, work.extendedAddress, work.city] == ["5 Work Street\nFloor 3", "Suite 9", "City"])
    }

    @Test func aJPEGPhotoBecomesTheImage() throws {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0xFF, 0xD9]
        let text = "dn: cn=K\ncn: Katie Bell\nmail: k@x.example\njpegPhoto:: \(Data(jpeg).base64EncodedString())\n"
        let (store, _) = try imported(text)
        let katie = try Fixtures.person(try store.openBook(), email: "k@x.example")
        #expect(try katie.imageData() == Data(jpeg))
    }

    @Test func unknownAttributesAreKeptUnderTheirNames() throws {
        let converted = try convert("dn: cn=K\ncn: Katie Bell\nmozillaCustom2: blue\nx-shoe-size: 38\n")
        let lines = Fixtures.lines(converted)
        #expect(lines.contains("X-IMPORTED-FIELD;X-FORMAT=ldif;X-NAME=\"mozillaCustom2\":blue"))
        #expect(lines.contains("X-IMPORTED-FIELD;X-FORMAT=ldif;X-NAME=\"x-shoe-size\":38"))
    }

    @Test func aBirthYearAloneIsKeptAndABadDateWarns() throws {
        let converted = try convert("dn: cn=K\ncn: Katie Bell\nbirthyear: 1984\n\ndn: cn=L\ncn: Lee\nbirthmonth: 13\nbirthday: 1\n")
        let lines = Fixtures.lines(converted)
        #expect(!lines.contains { $0.hasPrefix("BDAY") })
        #expect(lines.contains("X-IMPORTED-FIELD;X-FORMAT=ldif;X-NAME=\"birthyear\":1984"))
        #expect(converted.warnings.map(\.line) == [7])
    }

    @Test func directoryEntriesThatAreNotPeopleArePassedOver() throws {
        let converted = try convert(
            "dn: ou=people,dc=example,dc=org\nobjectclass: organizationalUnit\nou: people\n\ndn: cn=K\ncn: Katie Bell\n")
        #expect(converted.cardCount == 1)
        #expect(converted.warnings.isEmpty)
    }

    @Test func membersAreMatchedByNormalisedDNOrByMail() throws {
        let text = """
            dn: cn=Friends
            objectclass: groupOfNames
            cn: Friends
            member: CN=Katie Bell , MAIL=k@x.example
            member: cn=Someone Renamed,mail=lee@x.example
            member: cn=Not Here,mail=nobody@x.example

            dn: cn=Katie Bell,mail=k@x.example
            cn: Katie Bell
            mail: k@x.example

            dn: uid=lee,ou=people
            cn: Lee Jordan
            mail: lee@x.example

            """
        let converted = try convert(text)
        #expect(converted.warnings.map(\.line) == [6])
        let store = try TemporaryStore()
        let book = try Fixtures.importIntoFreshBook(converted, store: store)
        #expect(Fixtures.groupNames(book, of: try Fixtures.person(book, email: "k@x.example")) == ["Friends"])
        #expect(Fixtures.groupNames(book, of: try Fixtures.person(book, email: "lee@x.example")) == ["Friends"])
    }

    @Test func cardLinesRememberTheirLDIFLines() throws {
        let converted = try convert("# head\ndn: cn=K\ncn: Katie Bell\nmail: k@x.example\ntitle: Chaser\n")
        let lines = Fixtures.lines(converted)
        let title = try #require(lines.firstIndex(of: "TITLE:Chaser"))
        #expect(converted.sourceLine(ofLine: title + 1) == 5)
    }

    @Test func aFileWithoutPeopleIsRefused() {
        let error = Fixtures.interchangeError { _ = try convert("# nothing here\n") }
        #expect(error?.code == .malformedInput)
    }
}
