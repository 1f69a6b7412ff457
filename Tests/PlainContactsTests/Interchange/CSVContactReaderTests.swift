import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

/// Imports a CSV fixture (or text) into a fresh store and returns the book and the report.
private func imported(
    _ data: Data, source: String = "export.csv", strict: Bool = false
) throws -> (AddressBook, VCardImportReport, TemporaryStore) {
    let store = try TemporaryStore()
    let book = try store.makeBook()
    let report = try book.importContacts(from: data, source: source, options: VCardImportOptions(strict: strict))
    return (book, report, store)
}

private func fixture(_ name: String) throws -> (AddressBook, VCardImportReport, TemporaryStore) {
    try imported(try InterchangeFixtures.data("csv/" + name), source: name)
}

private func person(_ book: AddressBook, last: String) throws -> Person {
    try #require(book.allPeople().first { $0.lastName == last })
}

private func groupNames(_ book: AddressBook, _ person: Person) -> Set<String> {
    Set(book.groups(containing: person).compactMap(\.name))
}

/// The kept `X-IMPORTED-FIELD` lines of a person.
private func kept(_ person: Person) -> [String] {
    VCardRecordFields.lines(of: person.state).filter { $0.hasPrefix("X-IMPORTED-FIELD") }
}

@Suite struct CSVContactReaderTests {
    @Test(arguments: InterchangeFixtures.csvFiles)
    func everyCSVFixtureIsDetectedAndImports(path: String) throws {
        let data = try InterchangeFixtures.data(path)
        #expect(ContactFileFormat.detect(data, fileName: path) == .csv)
        let (book, report, _) = try imported(data, source: path)
        #expect(!report.added.isEmpty)
        #expect(book.allPeople().count == report.added.count)
    }

    @Test func googlesCurrentLayoutKeepsLabelsPrimaryValuesGroupsAndCustomFields() throws {
        let text = """
            First Name,Last Name,Birthday,Labels,E-mail 1 - Label,E-mail 1 - Value,Phone 1 - Label,Phone 1 - Value,\
            Relation 1 - Label,Relation 1 - Value,Event 1 - Label,Event 1 - Value,Custom Field 1 - Label,Custom Field 1 - Value
            Katie,Bell,--04-12,* myContacts ::: Friends ::: * starred,* Work ::: Gym,katie@acme.example ::: kb@gym.example,\
            Summer house,+1 555 0100,Spouse,John Bell,Anniversary,2010-06-01,Shoe size,38

            """
        let (book, _, _) = try imported(Data(text.utf8))
        let katie = try person(book, last: "Bell")
        #expect(katie.birthday?.description == "--04-12")
        #expect(katie.emails.map(\.value) == ["katie@acme.example", "kb@gym.example"])
        #expect(katie.emails.map(\.label) == [.work, Label("Gym")])
        #expect(katie.phones.first?.label == Label("Summer house"))
        #expect(katie.relatedNames.first?.label == .spouse)
        #expect(katie.dates.first?.label == .anniversary)
        #expect(groupNames(book, katie) == ["Friends", "Starred"])
        #expect(kept(katie) == [#"X-IMPORTED-FIELD;X-FORMAT=csv;X-NAME="Shoe size":38"#])
        let exported = try book.exportVCards([katie])
        #expect(exported.contains("EMAIL;TYPE=WORK,PREF:katie@acme.example"))
        #expect(exported.contains(#"X-IMPORTED-FIELD;X-FORMAT=csv;X-NAME="Shoe size":38"#))
    }

    @Test func googlesOldLayoutInUTF16WithAByteOrderMarkPairsLabelsWithValues() throws {
        let (book, report, _) = try fixture("handmade-google-old-utf16.csv")
        #expect(report.warnings.isEmpty)
        let ola = try person(book, last: "Nordmann")
        #expect(ola.birthday?.description == "--04-12")
        #expect(ola.emails.map(\.label) == [.home, .work])
        #expect(ola.phones.map(\.label) == [.mobile, .workFax])
        #expect(groupNames(book, ola) == ["Friends", "Hiking"])
    }

    @Test func googlesPaddedYearOneIsABirthdayWithoutAYear() throws {
        let (book, _, _) = try fixture("bbdb-gmail.csv")
        #expect(try person(book, last: "contact").birthday?.description == "--01-01")
    }

    @Test func outlookInGermanWindows1252WithSemicolonsDayFirstDatesAndDefaults() throws {
        let (book, report, _) = try fixture("handmade-outlook-de.csv")
        #expect(report.warnings.map(\.code) == [.malformedInput])
        #expect(report.warnings.first?.message.contains("windows-1252") == true)
        let jurgen = try person(book, last: "Müller")
        #expect(jurgen.prefix == "Herr")
        #expect(jurgen.organization == "Bäckerei Müller GmbH")
        #expect(jurgen.birthday?.description == "1971-01-20")
        #expect(jurgen.dates.isEmpty)
        #expect(jurgen.addresses.first?.value.street == "Hauptstraße 5\nHinterhaus")
        #expect(jurgen.addresses.first?.label == .work)
        #expect(jurgen.phones.map(\.label) == [.work, .mobile, .workFax])
        #expect(jurgen.note == "Zeile eins\nZeile zwei")
        // Outlook's defaults (Normal, Aus, SMTP, Nicht angegeben) say nothing and are not kept.
        #expect(kept(jurgen).count == 1)
        // A row shorter than the header is read as far as it goes.
        #expect(try person(book, last: "Schmidt").phones.first?.label == .mobile)
    }

    @Test func outlookInFrenchReadsAmbiguousDatesDayFirst() throws {
        let (book, _, _) = try fixture("handmade-outlook-fr.csv")
        let chloe = try person(book, last: "Dubois")
        #expect(chloe.birthday?.description == "1985-04-03")
        #expect(chloe.prefix == "Mme")
        #expect(groupNames(book, chloe) == ["Amis", "Travail"])
    }

    @Test func outlookInJapaneseShiftJISKeepsFurigana() throws {
        let (book, report, _) = try fixture("handmade-outlook-ja.csv")
        #expect(report.warnings.first?.message.contains("Shift_JIS") == true)
        let taro = try person(book, last: "山田")
        #expect(taro.firstName == "太郎")
        #expect(taro.firstNamePhonetic == "タロウ")
        #expect(taro.birthday?.description == "1980-05-06")
        #expect(taro.addresses.first?.value.city == "千代田区")
        let home = try #require(taro.addresses.entries.first { $0.label == .home }?.value)
        #expect([home.street, home.city, home.state, home.zip, home.country] == ["千代田1-1", "千代田区", "東京都", "100-0001", "日本"])
        let work = try #require(taro.addresses.entries.first { $0.label == .work }?.value)
        #expect([work.street, work.city, work.state, work.zip, work.country] == ["丸の内2-2", "千代田区", "東京都", "100-0005", "日本"])
        #expect(kept(taro).isEmpty)
    }

    @Test func linkedInsOtherCountryIsPartOfTheOtherAddress() throws {
        let (book, _, _) = try fixture("bbdb-linkedin.csv")
        let second = try #require(book.allPeople().first { $0.emails.values.contains("testmeil@hotmail.com2") })
        let other = try #require(second.addresses.entries.first { $0.label == .other }?.value)
        #expect([other.city, other.country] == ["2", "2"])
        #expect(!kept(second).contains { $0.contains("Other Country") })
    }

    @Test func thunderbirdsPagerAndASecondWorkPhoneAreKept() throws {
        let text = "First Name,Last Name,Primary Email,Work Phone,Work Phone 2,Pager Number\nAda,Byron,a@x.example,1,2,3\n"
        let (book, _, _) = try imported(Data(text.utf8))
        let ada = try person(book, last: "Byron")
        #expect(InterchangeFixtures.pairs(ada.phones) == ["work=1", "work=2", "pager=3"])
        #expect(kept(ada).isEmpty)
    }

    @Test(arguments: [
        ("Vorname,Nachname,Mobiltelefon,Geburtstag\nAnna,Berg,+49 1,3.4.1990\n", "1990-04-03"),
        ("Nombre,Apellidos,Teléfono móvil,Cumpleaños\nAnna,Berg,+34 1,3/4/1990\n", "1990-04-03"),
        ("Nome,Cognome,Telefono cellulare,Compleanno\nAnna,Berg,+39 1,3/4/1990\n", "1990-04-03"),
        ("Voornaam,Achternaam,Mobiele telefoon,Verjaardag\nAnna,Berg,+31 1,3-4-1990\n", "1990-04-03"),
        ("First Name,Last Name,Mobile Phone,Birthday\nAnna,Berg,+1 1,3/4/1990\n", "1990-03-04"),
    ])
    func translatedHeadersAreRead(text: String, birthday: String) throws {
        let (book, _, _) = try imported(Data(text.utf8))
        let anna = try person(book, last: "Berg")
        #expect(anna.firstName == "Anna")
        #expect(anna.phones.first?.label == .mobile)
        #expect(anna.birthday?.description == birthday)
    }

    @Test func thunderbirdsTabSeparatedExportKeepsTabsAndLineBreaksInQuotedCells() throws {
        let (book, _, _) = try fixture("handmade-thunderbird.tsv")
        let ada = try person(book, last: "Lovelace")
        #expect(ada.note == "Wrote the first\tprogram\nin 1843")
        #expect(ada.birthday?.description == "1815-12-10")
        #expect(ada.addresses.first?.value.city == "London")
        #expect(ada.urls.first?.label == .homePage)
    }

    @Test func thunderbirdsMonthWrittenAsAWordIsRead() throws {
        let (book, _, _) = try fixture("bbdb-thunderbird.csv")
        #expect(try person(book, last: "Dole").birthday?.description == "1950-12-12")
    }

    @Test func yahoosTitleIsTheJobTitleAndOutlooksTheNamePrefix() throws {
        let (yahoo, _, _) = try fixture("handmade-yahoo.csv")
        #expect(try person(yahoo, last: "Okafor").jobTitle == "Architect")
        let (linkedIn, _, _) = try fixture("bbdb-linkedin.csv")
        let test = try person(linkedIn, last: "testlast")
        #expect(test.prefix == "testtitle")
        #expect(test.jobTitle == "test title")
    }

    @Test func yahoosFullLayoutKeepsTitlesSecondAddressLinesRegionsPostcodesAndCountries() throws {
        let (book, report, _) = try fixture("handmade-yahoo-full.csv")
        #expect(report.warnings.isEmpty)
        let nkechi = try person(book, last: "Eze")
        #expect([nkechi.firstName, nkechi.middleName, nkechi.nickname] == ["Nkechi", "Ada", "Kechi"])
        #expect(nkechi.jobTitle == "Engineer")
        #expect(nkechi.organization == "Eze Studio")
        #expect(InterchangeFixtures.pairs(nkechi.emails) == ["-=nkechi@example.com", "-=nk@work.example", "-=nk@alt.example"])
        #expect(nkechi.instantMessages.values.map(\.username) == ["nkechi_im"])
        #expect(InterchangeFixtures.pairs(nkechi.phones) == [
            "home=+1 555 0160", "work=+1 555 0161", "pager=+1 555 0162", "otherFax=+1 555 0163", "mobile=+1 555 0164",
            "other=+1 555 0165",
        ])
        #expect(InterchangeFixtures.pairs(nkechi.urls) == ["homePage=https://nkechi.example", "work=https://studio.example"])
        let work = try #require(nkechi.addresses.entries.first { $0.label == .work }?.value)
        #expect([work.street, work.city, work.state, work.zip, work.country] == [
            "500 Market St\nSuite 300", "San Francisco", "CA", "94105", "USA",
        ])
        let home = try #require(nkechi.addresses.entries.first { $0.label == .home }?.value)
        #expect([home.street, home.city, home.state, home.zip, home.country] == [
            "12 Oak Lane\nApt 4", "Oakland", "CA", "94601", "USA",
        ])
        #expect(nkechi.birthday?.description == "1985-07-04")
        #expect(nkechi.dates.entries.map { "\($0.label?.rawValue ?? "-")=\($0.value)" } == ["anniversary=2012-06-01"])
        #expect(nkechi.note == "Met at the conference")
        #expect(groupNames(book, nkechi) == ["Friends"])
        #expect(kept(nkechi) == [#"X-IMPORTED-FIELD;X-FORMAT=csv;X-NAME="Custom 1":Gold member"#])
    }

    @Test func gmails2007SectionsKeepEveryValueWithTheSectionsLabel() throws {
        let (book, report, _) = try fixture("handmade-gmail-2007.csv")
        #expect(report.warnings.isEmpty)
        #expect(report.formatsRead == ["handmade-gmail-2007.csv: csv (Gmail's 2007 layout)"])
        let maria = try person(book, last: "Lopez")
        #expect(maria.firstName == "Maria")
        #expect(maria.note == "Old friend")
        // The primary address in `E-mail` is repeated in the Personal section, which labels it.
        #expect(InterchangeFixtures.pairs(maria.emails) == [
            "home=maria@example.com", "home=maria.l@example.net", "work=m.lopez@acme.example",
        ])
        #expect(InterchangeFixtures.pairs(maria.phones) == [
            "home=+1 555 0170", "mobile=+1 555 0171", "work=+1 555 0172", "pager=+1 555 0173", "workFax=+1 555 0174",
        ])
        #expect(maria.instantMessages.entries.map { "\($0.label?.rawValue ?? "-")=\($0.value.service ?? "-"):\($0.value.username ?? "")" } == [
            "home=AIM:marialopez",
        ])
        #expect(maria.addresses.entries.map { "\($0.label?.rawValue ?? "-")=\($0.value.street ?? "")" } == [
            "home=12 Elm St\nSpringfield, IL 62701", "work=1 Acme Way\nChicago, IL 60601",
        ])
        #expect(maria.organization == "Acme Corp")
        #expect(maria.jobTitle == "Buyer")
        #expect(kept(maria) == [#"X-IMPORTED-FIELD;X-FORMAT=csv;X-NAME="Section 1 - Other":Likes tea"#])
    }

    @Test func roundcubesVideoPhoneIsAPhoneLabelledVideo() throws {
        let (book, _, _) = try fixture("roundcube-all.csv")
        let person = try person(book, last: "Last Name")
        #expect(InterchangeFixtures.pairs(person.phones).contains("video=222"))
        #expect(!kept(person).contains { $0.contains("Phone Video") })
    }

    @Test func kAddressBooksLayoutKeepsHomeAndWorkAddressesAndItsTitle() throws {
        let (book, report, _) = try fixture("handmade-kaddressbook.csv")
        #expect(report.warnings.isEmpty)
        let jan = try person(book, last: "Novak")
        #expect([jan.prefix, jan.firstName, jan.middleName, jan.suffix, jan.nickname] == ["Dr.", "Jan", "Erik", "Jr.", "Janek"])
        #expect(jan.birthday?.description == "1975-03-14")
        let home = try #require(jan.addresses.entries.first { $0.label == .home }?.value)
        #expect([home.street, home.city, home.state, home.zip, home.country] == ["Hauptstraße 1", "Berlin", "Berlin", "10115", "Germany"])
        let work = try #require(jan.addresses.entries.first { $0.label == .work }?.value)
        #expect([work.street, work.city, work.state, work.zip, work.country] == ["Marktplatz 2", "Potsdam", "Brandenburg", "14467", "Germany"])
        #expect(InterchangeFixtures.pairs(jan.phones) == [
            "home=+49 30 1234", "work=+49 331 5678", "mobile=+49 170 1111", "homeFax=+49 30 1235", "workFax=+49 331 5679",
            "pager=+49 171 2222",
        ])
        #expect(InterchangeFixtures.pairs(jan.emails) == ["-=jan@example.de"])
        #expect([jan.jobTitle, jan.organization, jan.department] == ["Engineer", "KDE e.V.", "Frameworks"])
        #expect(jan.note == "Maintains the address book")
        #expect(InterchangeFixtures.pairs(jan.urls) == ["-=https://jan.example"])
        #expect(groupNames(book, jan) == ["Friends"])
        #expect(kept(jan).isEmpty)
    }

    @Test func kAddressBooksGermanHeadersAreRead() throws {
        let text = "Familienname,Vorname,Privatanschrift Ort,Geschäftsadresse Ort,Geschäftsadresse Land\nBerg,Anna,Köln,Bonn,Deutschland\n"
        let (book, _, _) = try imported(Data(text.utf8))
        let anna = try person(book, last: "Berg")
        #expect(anna.addresses.entries.map { "\($0.label?.rawValue ?? "-")=\($0.value.city ?? ""),\($0.value.country ?? "")" } == [
            "home=Köln,", "work=Bonn,Deutschland",
        ])
    }

    @Test func aGenericSheetSplitsWholeNames() throws {
        let (book, _, _) = try fixture("handmade-generic.csv")
        #expect(try person(book, last: "Bell").firstName == "Katie")
        #expect(try person(book, last: "Appleseed").firstName == "John")
    }

    @Test func extraCellsAreKeptWithAWarningNamingTheLine() throws {
        let (book, report, _) = try imported(Data("Name,Email\nKim Lee,k@x.example,surplus\n".utf8), source: "x.csv")
        #expect(report.warnings.map(\.line) == [2])
        #expect(report.warnings.first?.path == "x.csv")
        #expect(kept(try person(book, last: "Lee")) == [#"X-IMPORTED-FIELD;X-FORMAT=csv;X-NAME="column 3":surplus"#])
    }

    @Test func aStrictImportRefusesTheFirstRecoveryAndWritesNothing() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let before = try store.files(in: "people")
        #expect {
            try book.importContacts(
                from: Data("Name,Email\nKim Lee,k@x.example,surplus\n".utf8), source: "x.csv",
                options: VCardImportOptions(strict: true))
        } throws: { error in
            (error as? InterchangeError)?.code == .malformedInput && (error as? InterchangeError)?.line == 2
        }
        #expect(try store.files(in: "people") == before)
    }

    @Test func aSheetWithoutAKnownHeaderIsRefusedNamingTheFix() throws {
        #expect {
            try imported(Data("foo,bar\n1,2\n".utf8))
        } throws: { error in
            (error as? InterchangeError)?.code == .malformedInput && (error as? InterchangeError)?.line == 1
        }
    }

    @Test func reimportingTheSameSheetMergesInsteadOfDuplicating() throws {
        let data = try InterchangeFixtures.data("csv/handmade-outlook-fr.csv")
        let (book, _, _) = try imported(data)
        let again = try book.importContacts(from: data, source: "again.csv")
        #expect(again.added.isEmpty)
        #expect(book.allPeople().count == 1)
        #expect(try person(book, last: "Dubois").phones.count == 2)
    }
}

@Suite struct TineFixtureTests {
    @Test func germanOutlook2013LeavesOutItsDefaultsAndReadsItsPhones() throws {
        let (book, report, _) = try fixture("tine20-outlook2013-de.csv")
        #expect(report.warnings.count == 1)
        let cornelius = try person(book, last: "Weiß")
        #expect(cornelius.phones.map(\.label) == [.work, .home, .mobile])
        #expect(cornelius.birthday == nil)
        #expect(cornelius.dates.isEmpty)
        #expect(!kept(cornelius).contains { $0.contains("Keine Angabe") || $0.contains("Normal") || $0.contains("SMTP") })
        #expect(try person(book, last: "Baumann").addresses.first?.value.city == "Hamburg")
    }

    @Test func oldGoogleGroupsBesideMyContactsAreKept() throws {
        let (book, _, _) = try fixture("tine20-google.csv")
        let axel = try person(book, last: "gert")
        #expect(groupNames(book, axel) == ["kunden"])
        #expect(axel.note == "rutan")
    }
}
