import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct AddressBookVCardTests {
    private func card(_ lines: [String], version: String = "3.0") -> String {
        (["BEGIN:VCARD", "VERSION:\(version)"] + lines + ["END:VCARD"]).joined(separator: "\r\n") + "\r\n"
    }

    private func importText(
        _ text: String, into book: AddressBook, options: VCardImportOptions = VCardImportOptions(),
        decide: ((VCardMatch) throws -> VCardMatchDecision)? = nil
    ) throws -> VCardImportReport {
        try book.importVCards(from: Data(text.utf8), source: "test.vcf", options: options, decide: decide)
    }

    private func importFixture(_ fixture: String, into book: AddressBook, options: VCardImportOptions = VCardImportOptions()) throws -> VCardImportReport {
        try book.importVCards(from: VCardFixtures.data(fixture), source: fixture, options: options)
    }

    /// Every file of the store's people folder with its bytes.
    private func peopleFiles(_ store: TemporaryStore) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try store.files(in: "people") {
            files[name] = try Data(contentsOf: store.path("people/\(name)"))
        }
        return files
    }

    /// The snapshot of every person of a book, sorted, without UIDs.
    private func snapshots(_ book: AddressBook) throws -> [String] {
        try book.allPeople().map { person in
            let groups = book.groups(containing: person).compactMap(\.name)
            return try PersonSnapshot.lines(person, groupNames: groups, includeUID: false).joined(separator: "\n")
        }.sorted()
    }

    private func uids(_ book: AddressBook) -> Set<String> {
        Set(book.allPeople().compactMap { VCardRecordFields.uid(of: $0.state) })
    }

    private func personCards(_ fixture: String) throws -> Int {
        try VCardFixtures.cards(fixture).filter { !VCardImporter.isGroupCard($0) }.count
    }

    // MARK: Fixtures

    @Test(arguments: VCardFixtures.parsable)
    func everyParsableFixtureImportsAndSaves(_ fixture: String) throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let report = try importFixture(fixture, into: book)
        let cards = try personCards(fixture)
        #expect(report.added.count == cards)
        #expect(report.added.allSatisfy { $0.isValid })
        #expect(report.invalidCards.isEmpty)
        #expect(report.membershipError == nil)
        #expect(!book.hasUnsavedChanges)
        #expect(try store.openBook().personCount == cards)
    }

    @Test func aGroupCardWithoutANameIsImportedUnnamedWithAWarningAndRefusedWhenStrict() throws {
        let text = card(["KIND:group", "UID:g-1", "MEMBER:urn:uuid:p-1"], version: "4.0")
            + card(["UID:p-1", "N:Bell;Katie;;;", "FN:Katie Bell"], version: "4.0")
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let report = try importText(text, into: book)
        #expect(report.warnings.map(\.code) == [.malformedVCard])
        #expect(report.warnings.first?.line == 1)
        let group = try #require(book.groups(named: VCardImporter.unnamedGroupName).first)
        #expect(group.members().compactMap(\.firstName) == ["Katie"])

        let strictStore = try TemporaryStore()
        let strictBook = try strictStore.makeBook()
        #expect {
            _ = try importText(text, into: strictBook, options: VCardImportOptions(strict: true))
        } throws: { ($0 as? InterchangeError)?.code == .malformedVCard }
        #expect(strictBook.personCount == 0)
    }

    @Test func anUnreadablePhotoIsKeptAsWrittenWithAWarningAndRefusedWhenStrict() throws {
        // The reader already cleans base64 text; a value that still cannot be decoded reaches
        // the mapping only from a card made in code.
        let photo = VCardProperty(name: "PHOTO", parameters: [VCardParameter(name: "ENCODING", values: ["b"])], rawValue: "A")
        let card = VCard(
            version: "3.0", properties: [VCardProperty(name: "N", structured: [["Bell"], ["Katie"]]), photo], startLine: 1)
        guard case .person(let imported) = try VCardImporter.map(card, source: "x.vcf", strict: false) else {
            Issue.record("expected a person")
            return
        }
        #expect(imported.warnings.map(\.code) == [.malformedVCard])
        #expect(!imported.person.hasImage)
        #expect(VCardRecordFields.lines(of: imported.person.state) == ["PHOTO;ENCODING=b:A"])
        #expect {
            _ = try VCardImporter.map(card, source: "x.vcf", strict: true)
        } throws: { ($0 as? InterchangeError)?.code == .malformedVCard }
    }

    @Test func unparsableFixtureFailsWithItsLineAndWritesNothingWhenStrict() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let error = VCardTesting.interchangeError {
            _ = try importFixture(VCardFixtures.unparsable, into: book, options: VCardImportOptions(strict: true))
        }
        #expect(error?.code == .malformedVCard)
        #expect(error?.line == 1)
        #expect(error?.path == VCardFixtures.unparsable)
        #expect(try store.files(in: "people").isEmpty)
        #expect(book.personCount == 0)
    }

    @Test(arguments: VCardFixtures.parsable, VCardVersion.allCases)
    func exportedStoreImportsIntoANewStoreWithTheSamePeople(_ fixture: String, _ version: VCardVersion) throws {
        let first = try TemporaryStore()
        let source = try first.makeBook()
        _ = try importFixture(fixture, into: source)
        let reopened = try first.openBook()
        let text = try reopened.exportVCards(reopened.allPeople(sortedBy: .lastName), version: version)

        let second = try TemporaryStore()
        let target = try second.makeBook()
        let report = try target.importVCards(from: Data(text.utf8), source: "export.vcf")
        #expect(report.added.count == reopened.personCount)
        let copy = try second.openBook()
        #expect(try snapshots(copy) == snapshots(reopened))
        #expect(uids(reopened).isSubset(of: uids(copy)))
        #expect(copy.allGroups().compactMap(\.name) == reopened.allGroups().compactMap(\.name))
    }

    @Test func allFieldsCardIsSavedWithItsValuesLabelsAndKeptLines() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let report = try importFixture("vcard4android/allfields-vcard3.vcf", into: book)
        #expect(report.groupsCreated == ["A", "B\\'C"])
        let person = try #require(try store.openBook().person(withID: report.added[0]))
        #expect(person.phones.map(\.label) == [Label("Useless"), .otherFax])
        #expect(person.relatedNames.first?.label == Label("co-worker"))
        #expect(person.dates.map(\.label) == [.anniversary, Label("Custom Date")])
        let record = try store.read(store.personFile(person))
        #expect(record.contains(#""uid": "mostfields1@at.bitfire.vcard4android""#))
        #expect(record.contains(#""X-TEST;A=B:Value""#))
        #expect(try person.imageData()?.prefix(3) == Data([0xFF, 0xD8, 0xFF]))
    }

    // MARK: Groups

    @Test func categoriesCreateMissingGroupsAndMemberships() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let report = try importFixture("khard/category.vcf", into: book)
        #expect(report.groupsCreated == ["bar"])
        let reopened = try store.openBook()
        let group = try #require(reopened.groups(named: "bar").first)
        #expect(group.members().map(\.recordID) == report.added)
    }

    @Test func categoriesJoinAnExistingGroupOfTheExactName() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let friends = Group(name: "Friends")
        let other = Group(name: "friends")
        try book.add(friends)
        try book.add(other)
        try book.save()
        let report = try importText(card(["N:Bell;Katie;;;", "CATEGORIES:Friends,New"]), into: book)
        #expect(report.groupsCreated == ["New"])
        let reopened = try store.openBook()
        #expect(try #require(reopened.group(withID: friends.recordID)).members().map(\.recordID) == report.added)
        #expect(try #require(reopened.group(withID: other.recordID)).members().isEmpty)
        #expect(reopened.groupCount == 3)
    }

    @Test func groupCardsCollectTheirMembersByUID() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let text =
            card(["KIND:group", "FN:Team", "UID:urn:uuid:g-1", "MEMBER:urn:uuid:p-1", "MEMBER:urn:uuid:p-2",
                  "MEMBER:urn:uuid:missing"], version: "4.0")
            + card(["N:Bell;Katie;;;", "UID:p-1"])
            + card(["N:Wood;Oliver;;;", "UID:urn:uuid:p-2"])
            + card(["N:Team;;;;", "X-ADDRESSBOOKSERVER-KIND:group", "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:p-1"])
        let report = try importText(text, into: book)
        #expect(report.added.count == 2)
        #expect(report.groupsCreated == ["Team"])
        let reopened = try store.openBook()
        let team = try #require(reopened.groups(named: "Team").first)
        #expect(Set(team.members().compactMap(\.lastName)) == ["Bell", "Wood"])
        #expect(reopened.groupCount == 1)
    }

    // MARK: Matching

    @Test func reimportingACardWithTheSameUIDUpdatesThePerson() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let first = try importFixture("vcardimport/amelie-alpha.vcf", into: book)
        let changed = card([
            "N:Alpha;Amelie;;;", "TITLE:Promoted", "TEL;TYPE=CELL:555-100-1001", "TEL;TYPE=WORK:555 0200",
            "UID:d69c71e5-4a6f-4b9b-97fc-4f9f5770c907",
        ])
        let second = try importText(changed, into: book, options: VCardImportOptions(onMatch: .createNew))
        #expect(second.added.isEmpty)
        #expect(second.updated == first.added)
        let reopened = try store.openBook()
        #expect(reopened.personCount == 1)
        let amelie = try #require(reopened.person(withID: first.added[0]))
        #expect(amelie.jobTitle == "Promoted")
        #expect(amelie.organization == "VCardImport Tests")
        #expect(amelie.phones.values == ["5551001001", "555 0200"])
        #expect(amelie.phones.map(\.label) == [.mobile, .work])
    }

    @Test func uidMatchIsLeftAloneWhenMatchesAreSkipped() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let first = try importFixture("vcardimport/amelie-alpha.vcf", into: book)
        let before = try peopleFiles(store)
        let text = card(["N:Alpha;Amelie;;;", "TITLE:Changed", "UID:d69c71e5-4a6f-4b9b-97fc-4f9f5770c907"])
        let report = try importText(text, into: book, options: VCardImportOptions(onMatch: .skip))
        #expect(report.skipped == first.added)
        #expect(report.added.isEmpty && report.updated.isEmpty)
        #expect(try peopleFiles(store) == before)
    }

    @Test func nameMatchIsMergedByDefault() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let existing = makePerson("AMELIE", "alpha")
        existing.phones = MultiValue([("(555) 100-1001", .home)])
        existing.emails = MultiValue([("Amelie.Alpha@Example.com", .work)])
        existing.jobTitle = "Old title"
        existing.note = "Keep me"
        try book.add(existing)
        try book.save()
        let report = try importFixture("vcardimport/amelie-alpha.vcf", into: book)
        #expect(report.updated == [existing.recordID])
        let amelie = try #require(try store.openBook().person(withID: existing.recordID))
        #expect(amelie.firstName == "Amelie")
        #expect(amelie.lastName == "Alpha")
        #expect(amelie.jobTitle == "Test Subject")
        #expect(amelie.note == "Keep me")
        #expect(amelie.phones.values == ["(555) 100-1001"])
        #expect(amelie.emails.values == ["Amelie.Alpha@Example.com"])
        #expect(VCardRecordFields.uid(of: amelie.state) == "d69c71e5-4a6f-4b9b-97fc-4f9f5770c907")
        #expect(VCardRecordFields.lines(of: amelie.state) == ["X-ABUID:D69C71E5-4A6F-4B9B-97FC-4F9F5770C907:ABPerson"])
    }

    @Test func nameMatchAddsANewPersonWithCreateNew() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        try book.add(makePerson("Amelie", "Alpha"))
        try book.save()
        let report = try importFixture("vcardimport/amelie-alpha-3x.vcf", into: book, options: VCardImportOptions(onMatch: .createNew))
        #expect(report.added.count == 3)
        #expect(try store.openBook().personCount == 4)
    }

    @Test func nameMatchIsLeftAloneWithSkip() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let existing = makePerson("Amelie", "Alpha")
        try book.add(existing)
        try book.save()
        let before = try peopleFiles(store)
        let report = try importFixture("vcardimport/amelie-alpha-3x.vcf", into: book, options: VCardImportOptions(onMatch: .skip))
        #expect(report.skipped == [existing.recordID])
        #expect(report.added.isEmpty)
        #expect(try peopleFiles(store) == before)
    }

    @Test func cardsOfOneImportMatchEarlierCardsOnlyByUID() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let text =
            card(["N:Bell;Katie;;;", "UID:k-1", "TEL:1"]) + card(["N:Bell;Katie;;;", "UID:k-1", "TEL:2"])
            + card(["N:Bell;Katie;;;", "TEL:3"])
        let report = try importText(text, into: book)
        #expect(report.added.count == 2)
        #expect(report.updated.isEmpty)
        let people = try store.openBook().allPeople()
        #expect(people.map { $0.phones.values }.sorted { $0.count > $1.count } == [["1", "2"], ["3"]])
    }

    @Test func decideIsAskedAboutEveryMatchAndItsAnswerApplies() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let existing = makePerson("Amelie", "Alpha")
        try book.add(existing)
        try book.save()
        var asked: [(VCardMatch.Reason, RecordID, String?, String?, Int)] = []
        var answers: [VCardMatchDecision] = [.merge, .createNew, .skip]
        let report = try book.importVCards(
            from: VCardFixtures.data("vcardimport/amelie-alpha-3x.vcf"), source: "3x.vcf",
            options: VCardImportOptions(onMatch: .skip)
        ) { match in
            asked.append((match.matchedBy, match.existingRecordID, match.existingName, match.cardName, match.line))
            #expect(match.card.owner == nil)
            #expect(match.existing === existing)
            return answers.removeFirst()
        }
        #expect(asked.map(\.0) == [.name, .name, .name])
        #expect(asked.map(\.1) == [existing.recordID, existing.recordID, existing.recordID])
        #expect(asked.map(\.3) == ["Amelie Alpha", "Amelie Alpha", "Amelie Alpha"])
        #expect(asked.map(\.4) == [1, 13, 24])
        #expect(report.updated == [existing.recordID])
        #expect(report.added.count == 1)
        #expect(report.skipped == [existing.recordID])
        #expect(try store.openBook().personCount == 2)
    }

    @Test func throwingFromDecideWritesNothing() throws {
        struct Stop: Error {}
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let existing = makePerson("Amelie", "Alpha")
        try book.add(existing)
        try book.save()
        let before = try peopleFiles(store)
        let text = card(["N:New;Person;;;"]) + card(["N:Alpha;Amelie;;;", "TITLE:Changed"])
        #expect(throws: Stop.self) {
            _ = try book.importVCards(from: Data(text.utf8), source: "t.vcf") { _ in throw Stop() }
        }
        #expect(try peopleFiles(store) == before)
        #expect(!book.hasUnsavedChanges)
        #expect(existing.jobTitle == nil)
        #expect(book.personCount == 1)
    }

    @Test func exportedPeopleImportBackIntoTheSameStoreWithoutDuplicates() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        try book.add(katie)
        try book.save()
        let text = try book.exportVCards([katie], version: .v4)
        let report = try importText(text, into: book, options: VCardImportOptions(onMatch: .createNew))
        #expect(report.updated == [katie.recordID])
        #expect(book.personCount == 1)
    }

    // MARK: Bad input

    @Test func malformedCardFailsAndLeavesTheStoreAndBookUnchangedWhenStrict() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let existing = makePerson("Katie", "Bell")
        try book.add(existing)
        try book.save()
        let before = try peopleFiles(store)
        let text =
            card(["N:Bell;Katie;;;", "TITLE:Changed", "CATEGORIES:New"]) + card(["N:Wood;Oliver;;;"])
            + card(["N:Bad;Photo;;;", "PHOTO;ENCODING=b:@@@"])
        let error = VCardTesting.interchangeError {
            _ = try importText(text, into: book, options: VCardImportOptions(strict: true))
        }
        #expect(error?.code == .malformedVCard)
        #expect(error?.line == 14)
        #expect(try peopleFiles(store) == before)
        #expect(try store.files(in: "groups").isEmpty)
        #expect(!book.hasUnsavedChanges)
        #expect(book.personCount == 1)
        #expect(book.groupCount == 0)
        #expect(existing.jobTitle == nil)
    }

    @Test func skipInvalidListsBadCardsAndImportsTheRestWhenStrict() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let text =
            card(["N:Bell;Katie;;;"])
            + card(["N:Bad;Photo;;;", "PHOTO;ENCODING=b:@@@"])
            + card(["N:Bad;Syntax;;;", "this line has no colon", "TEL:1"])
            + "stray text\r\n"
            + card(["N:Wood;Oliver;;;"])
            + "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Never;Ended;;;\r\n"
        let report = try importText(text, into: book, options: VCardImportOptions(skipInvalid: true, strict: true))
        #expect(report.invalidCards.map(\.code) == [.malformedVCard, .malformedVCard, .malformedVCard, .malformedVCard])
        let lines = report.invalidCards.compactMap(\.line)
        #expect(lines.prefix(2) == [8, 13])
        #expect(lines.count == 4 && lines == lines.sorted() && Set(lines).count == 4)
        #expect(report.added.count == 2)
        #expect(Set(try store.openBook().allPeople().compactMap(\.lastName)) == ["Bell", "Wood"])
    }

    @Test func failedSaveLeavesTheStoreAndBookAsBefore() throws {
        let store = try TemporaryStore()
        _ = try store.makeBook()
        let book = try AddressBook(url: store.storeURL, options: AddressBookOptions(lockTimeout: .milliseconds(50)))
        let existing = makePerson("Katie", "Bell")
        try book.add(existing)
        try book.save()
        let before = try peopleFiles(store)
        let text = card(["N:Bell;Katie;;;", "TITLE:Changed", "CATEGORIES:New"]) + card(["N:Wood;Oliver;;;"])
        let error = try StoreLock(storeRoot: store.storeURL).withExclusive(timeout: .seconds(5)) {
            VCardTesting.contactsError { _ = try importText(text, into: book) }
        }
        #expect(error?.code == .busy)
        #expect(try peopleFiles(store) == before)
        #expect(!book.hasUnsavedChanges)
        #expect(book.personCount == 1 && book.groupCount == 0)
        #expect(existing.jobTitle == nil)
        let retry = try importText(text, into: book)
        #expect(retry.updated == [existing.recordID] && retry.added.count == 1)
    }

    @Test func importWithUnsavedChangesIsRefused() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        try book.add(makePerson("Katie", "Bell"))
        let error = VCardTesting.contactsError { _ = try importText(card(["N:Wood;Oliver;;;"]), into: book) }
        #expect(error?.code == .invalidValue)
        #expect(book.personCount == 1)
        #expect(try store.files(in: "people").isEmpty)
    }

    // MARK: Files and export

    @Test func importFromAFileReadsEveryCard() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        var text = ""
        for index in 0..<300 {
            text += card(["N:Person;Number \(index);;;", "UID:gen-\(index)", "TEL;TYPE=CELL:555 \(index)", "CATEGORIES:Bulk"])
        }
        let file = store.url.appending(path: "bulk.vcf")
        try Data(text.utf8).write(to: file)
        let report = try book.importVCards(contentsOf: file)
        #expect(report.added.count == 300)
        #expect(report.groupsCreated == ["Bulk"])
        let reopened = try store.openBook()
        #expect(reopened.personCount == 300)
        #expect(try #require(reopened.groups(named: "Bulk").first).members().count == 300)
        let again = try reopened.importVCards(contentsOf: file)
        #expect(again.updated.count == 300)
        #expect(again.added.isEmpty)
    }

    @Test func importFromAMissingFileFailsWithIO() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let error = VCardTesting.contactsError { _ = try book.importVCards(contentsOf: store.url.appending(path: "none.vcf")) }
        #expect(error?.code == .io)
    }

    @Test func exportWritesGroupsAndTheSavedImage() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let report = try importFixture("khard/photov3.vcf", into: book)
        let friends = Group(name: "Friends")
        try book.add(friends)
        try book.save()
        let reopened = try store.openBook()
        let person = try #require(reopened.person(withID: report.added[0]))
        try #require(reopened.group(withID: friends.recordID)).addMember(person)
        try reopened.save()
        let v3 = try reopened.exportVCards([person])
        #expect(v3.hasPrefix("BEGIN:VCARD\r\nVERSION:3.0\r\n"))
        #expect(v3.contains("\r\nCATEGORIES:Friends\r\n"))
        #expect(v3.contains("\r\nPHOTO;ENCODING=b;TYPE=PNG:iVBORw0KGgo"))
        #expect(v3.contains("\r\nUID:photov3\r\n"))
        let v4 = try reopened.exportVCards([person], version: .v4)
        #expect(v4.contains("\r\nPHOTO:data:image/png;base64,iVBORw0KGgo"))
    }

    @Test func exportRefusesAPersonOfAnotherBook() throws {
        let store = try TemporaryStore()
        let other = try TemporaryStore()
        let book = try store.makeBook()
        let otherBook = try other.makeBook()
        let stranger = makePerson("Katie", "Bell")
        try otherBook.add(stranger)
        let error = VCardTesting.contactsError { _ = try book.exportVCards([stranger]) }
        #expect(error?.code == .recordInAnotherBook)
    }

    @Test func mergingACardIntoAPersonWithoutIdentifiersLeftIsAnExhaustedRange() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let person = makePerson("Katie", "Bell")
        person.phones = MultiValue([(value: "555-0100", label: nil)])
        try book.add(person)
        try book.save()
        try editJSONFile(store.path(try store.personFile(person))) { $0["nextValueID"] = 2147483647 }
        let before = try peopleFiles(store)

        let reopened = try store.openBook()
        do {
            _ = try importText(card(["FN:Katie Bell", "N:Bell;Katie;;;", "TEL:555-0199"]), into: reopened)
            Issue.record("no error")
        } catch let error as ContactsError {
            #expect(error.code == .identifiersExhausted)
        }
        #expect(try peopleFiles(store) == before)
    }

    @Test func aCardWithAnOversizedNameIsImportedWithoutItAndAWarning() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let long = String(repeating: "é", count: 1_000_000)
        let text = card(["FN:\(long)", "N:\(long);Katie;;;", "TEL:555-0100"])
        let report = try importText(text, into: book)
        #expect(report.added.count == 1)
        #expect(report.warnings.map(\.line) == [3, 4])
        #expect(report.warnings.allSatisfy { $0.code == .oversizedValue && $0.path == "test.vcf" })
        let person = try #require(book.allPeople().first)
        #expect(person.phones.values == ["555-0100"])
        #expect(person.lastName == nil)
    }

    // MARK: Recovery

    @Test func defaultImportRecoversAndReportsOneWarningPerRecovery() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let fixture = "recovery/unreadable-lines.vcf"
        let report = try importFixture(fixture, into: book)
        #expect(report.added.count == 1)
        #expect(report.warnings.map(\.code) == [.malformedVCard, .malformedVCard, .malformedVCard])
        #expect(report.warnings.map(\.line) == [4, 6, 7])
        #expect(report.warnings.allSatisfy { $0.path == fixture })
        let person = try #require(try store.openBook().allPeople().first)
        #expect(person.phones.values == ["+1 555 0101"])
        let text = try book.exportVCards([person], version: .v4)
        #expect(text.contains("\r\nX-messaging/twitter-All:@kimdoe\r\n"))
        #expect(text.contains("\r\na line of text without a colon\r\n"))
    }

    @Test func strictImportOfABrokenFileWritesNothing() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let error = VCardTesting.interchangeError {
            _ = try importFixture("recovery/missing-end.vcf", into: book, options: VCardImportOptions(strict: true))
        }
        #expect(error?.code == .malformedVCard)
        #expect(error?.line == 5)
        #expect(try store.files(in: "people").isEmpty)
        #expect(try importFixture("recovery/missing-end.vcf", into: book).added.count == 3)
    }

    @Test func photosWithStrayBase64OrADataURIMarkedBase64AreImported() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let report = try importFixture("recovery/base64-and-data-uri.vcf", into: book)
        #expect(report.added.count == 2)
        #expect(report.warnings.count == 2)
        #expect(book.allPeople().allSatisfy { $0.hasImage })
    }

    @Test func aFileWithoutAnyCardIsRefused() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let error = VCardTesting.interchangeError { _ = try importFixture("recovery/not-a-vcard.vcf", into: book) }
        #expect(error?.code == .malformedVCard)
        #expect(try store.files(in: "people").isEmpty)
    }

    @Test func lowercaseNamesTypeSpellingsBareParametersAndMissingNamesImportWithoutWarnings() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let report = try importFixture("recovery/names-and-parameters.vcf", into: book)
        #expect(report.added.count == 4)
        #expect(report.warnings.isEmpty)
        let people = book.allPeople()
        let lucy = try #require(people.first { $0.firstName == "Lucy" })
        #expect(lucy.phones.values == ["+1 555 0102", "+1 555 0103"])
        #expect([lucy.phones.label(at: 0), lucy.phones.label(at: 1)] == [.mobile, .workFax])
        #expect(lucy.emails.values == ["lucy@example.com"])
        let ben = try #require(people.first { $0.firstName == "Ben" })
        #expect(ben.lastName == "Bare")
        #expect(ben.phones.label(at: 0) == .mobile)
        #expect(people.contains { $0.firstName == "Only Formatted" })
        #expect(people.contains { $0.phones.values == ["+1 555 0105"] && $0.compositeName == nil })
    }
}
