import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct AddressBookPeopleTests {
    @Test func aPersonHasAnInvalidIDUntilSaved() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        #expect(katie.recordID == .invalid)
        #expect(!katie.recordID.isValid)
        try book.add(katie)
        #expect(katie.recordID == .invalid)
        try book.save()
        #expect(katie.recordID.isValid)
        #expect(katie.recordType == .person)
    }

    @Test func personCountIncludesUnsavedAdditionsAndRemovals() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        try book.add(katie)
        try book.add(makePerson("John", "Appleseed"))
        #expect(book.personCount == 2)
        try book.save()
        try book.remove(katie)
        #expect(book.personCount == 1)
        #expect(book.allPeople().count == 1)
    }

    @Test func allPeopleListsEverySavedPersonOnceWhetherReadBeforeOrNot() throws {
        let store = try TemporaryStore()
        let writer = try store.makeBook()
        let people = [makePerson("Katie", "Bell"), makePerson("John", "Appleseed"), makePerson("Ann", "Lee")]
        for person in people { try writer.add(person) }
        try writer.save()

        let book = try store.openBook()
        // John is read by ID before the catalog exists, Ann is removed, and Mia is new.
        let john = try #require(book.person(withID: people[1].recordID))
        try book.remove(try #require(book.person(withID: people[2].recordID)))
        let mia = makePerson("Mia", "Wong")
        try book.add(mia)
        let listed = book.allPeople()
        #expect(listed.count == 3)
        #expect(Set(listed.map(ObjectIdentifier.init)).count == 3)
        #expect(Set(listed.compactMap(\.lastName)) == ["Bell", "Appleseed", "Wong"])
        #expect(listed.contains { $0 === john })
        #expect(listed.contains { $0 === mia })
        // Listing again gives the same records.
        #expect(Set(book.allPeople().map(ObjectIdentifier.init)) == Set(listed.map(ObjectIdentifier.init)))
    }

    @Test func listingManyPeopleReadsTheirFilesAheadYetKeepsEditsAndReportsADamagedFile() throws {
        let store = try TemporaryStore()
        let writer = try store.makeBook()
        let people = (0..<100).map { makePerson("Katie\($0)", "Bell") }
        for person in people { try writer.add(person) }
        try writer.save()

        let book = try store.openBook()
        // One person is read and edited before the listing; another file is damaged once the
        // book has checked the folder, so only the listing's own read can meet it.
        let edited = try #require(book.person(withID: people[3].recordID))
        edited.lastName = "Bell-Smith"
        #expect(book.people(matchingName: "nobody").isEmpty)
        // Files this new are read by the folder's check itself (they changed too lately for
        // their signatures to vouch for them); a store's older files are not, as here.
        book.freshlyRead = [:]
        try store.write("{ not json", to: try store.personFile(people[7]))

        let listed = book.allPeople()
        #expect(listed.count == 99)
        #expect(listed.contains { $0 === edited })
        #expect(edited.lastName == "Bell-Smith")
        #expect(!listed.contains { $0.recordID == people[7].recordID })
        #expect(book.lastLoadError?.code == .malformedFile)
        #expect(book.lastLoadError?.path?.hasSuffix(try #require(people[7].key).rawValue + ".json") == true)
        // The people read ahead are the book's own: listing again gives the same records.
        #expect(Set(book.allPeople().map(ObjectIdentifier.init)) == Set(listed.map(ObjectIdentifier.init)))
    }

    @Test func searchAndSortFollowNamesChangedSinceReadingAndAgainAfterTheSave() throws {
        let store = try TemporaryStore()
        let writer = try store.makeBook()
        let people = [makePerson("Katie", "Bell"), makePerson("Ann", "Lee"), makePerson("Zoe", "Adams")]
        for person in people { try writer.add(person) }
        try writer.save()

        let book = try store.openBook()
        #expect(book.allPeople(sortedBy: .lastName).compactMap(\.lastName) == ["Adams", "Bell", "Lee"])
        // Katie is read (unchanged, so her saved summary answers for her), then renamed.
        let katie = try #require(book.people(matchingName: "katie").first)
        katie.firstName = "Kim"
        katie.lastName = "Zed"
        #expect(book.people(matchingName: "katie").isEmpty)
        #expect(book.people(matchingName: "kim zed").first === katie)
        #expect(book.allPeople(sortedBy: .lastName).compactMap(\.lastName) == ["Adams", "Lee", "Zed"])
        try book.save()
        #expect(book.people(matchingName: "katie").isEmpty)
        #expect(book.people(matchingName: "zed").first === katie)
        #expect(book.allPeople(sortedBy: .firstName).compactMap(\.firstName) == ["Ann", "Kim", "Zoe"])
    }

    @Test func personWithIDFindsTheSavedPerson() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        try book.add(katie)
        try book.save()
        #expect(book.person(withID: katie.recordID) === katie)
        let other = try store.openBook()
        #expect(other.person(withID: katie.recordID)?.lastName == "Bell")
        #expect(other.person(withID: RecordID(9999)) == nil)
    }

    @Test func removingAPersonDeletesItsFileOnSave() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        try book.add(katie)
        try book.save()
        let file = try store.personFile(katie)
        try book.remove(katie)
        #expect(FileManager.default.fileExists(atPath: store.path(file).path))
        try book.save()
        #expect(!FileManager.default.fileExists(atPath: store.path(file).path))
        #expect(try store.openBook().personCount == 0)
    }

    @Test func recordIDsAreNeverReusedAfterADeletion() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let first = makePerson("A", "One")
        let second = makePerson("B", "Two")
        try book.add(first)
        try book.add(second)
        try book.save()
        let retired = second.recordID
        try book.remove(second)
        try book.save()
        let third = makePerson("C", "Three")
        try book.add(third)
        try book.save()
        #expect(third.recordID != retired)
        #expect(third.recordID > retired)
        let reopened = try store.openBook()
        let fourth = makePerson("D", "Four")
        try reopened.add(fourth)
        try reopened.save()
        #expect(fourth.recordID > third.recordID)
    }

    @Test func aPersonCreatedAloneCanBeAddedLater() throws {
        let store = try TemporaryStore()
        let katie = Person()
        katie.firstName = "Katie"
        #expect(katie.compositeName == "Katie")
        let book = try store.makeBook()
        try book.add(katie)
        try book.save()
        #expect(try store.openBook().allPeople().map(\.firstName) == ["Katie"])
    }

    @Test func aPersonOfAnotherBookIsRefused() throws {
        let store = try TemporaryStore()
        let first = try store.makeBook()
        let second = try store.openBook()
        let katie = makePerson("Katie", "Bell")
        try first.add(katie)
        #expect {
            try second.add(katie)
        } throws: { ($0 as? ContactsError)?.code == .recordInAnotherBook }
    }

    @Test func theFileKeyIsANameSlugWithARandomSuffixAndSurvivesRenames() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        try book.add(katie)
        try book.save()
        let key = try #require(katie.key).rawValue
        #expect(key.hasPrefix("katie-bell-"))
        #expect(key.count == "katie-bell-".count + 6)
        katie.lastName = "Appleseed"
        try book.save()
        #expect(katie.key?.rawValue == key)
        #expect(try store.files(in: "people") == ["\(key).json"])
    }

    @Test func keysOfOtherScriptsAreTransliterated() {
        #expect(RecordKey.slug(of: "Zoë Ødegaard") == "zoe-odegaard")
        #expect(RecordKey.slug(of: "Иван Иванов") == "ivan-ivanov")
        #expect(RecordKey.slug(of: "O'Brien") == "obrien")
        #expect(!RecordKey.slug(of: "山田 太郎").isEmpty)
        #expect(RecordKey.slug(of: "!!!").isEmpty)
    }

    @Test func aNamelessPersonGetsAFallbackKey() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let nameless = Person()
        nameless.phones = MultiValue([(value: "555-0100", label: nil)])
        try book.add(nameless)
        try book.save()
        #expect(nameless.key?.rawValue.hasPrefix("person-") == true)
    }

    @Test func peopleMatchingNameAreInTheBooksSortOrder() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        for (first, last) in [("Katie", "Bell"), ("Kate", "Appleseed"), ("John", "Katz"), ("Anna", "Haro")] {
            try book.add(makePerson(first, last))
        }
        try book.save()
        #expect(book.people(matchingName: "ka").map(\.lastName) == ["Appleseed", "Bell", "Katz"])
        #expect(book.people(matchingName: "ka be").map(\.lastName) == ["Bell"])
        #expect(book.people(matchingName: "").isEmpty)
        book.sortOrdering = .firstName
        #expect(book.people(matchingName: "ka").map(\.firstName) == ["John", "Kate", "Katie"])
    }

    @Test func nameSearchIgnoresCaseDiacriticsAndWidth() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        try book.add(makePerson("Zoë", "Ødegaard"))
        try book.add(makePerson("Chloé", "Dubois"))
        try book.save()
        #expect(book.people(matchingName: "ZOE").count == 1)
        #expect(book.people(matchingName: "chloe DUB").count == 1)
        #expect(book.people(matchingName: "ｃｈｌｏｅ").count == 1)
    }

    @Test func allPeopleSortsByPhoneticNamesAndPutsNamelessLast() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let yamada = makePerson("太郎", "山田")
        yamada.firstNamePhonetic = "たろう"
        yamada.lastNamePhonetic = "やまだ"
        let sato = makePerson("花子", "佐藤")
        sato.firstNamePhonetic = "はなこ"
        sato.lastNamePhonetic = "さとう"
        let nameless = Person()
        let acme = makePerson(nil, nil, organization: "Acme")
        acme.kind = .organization
        for person in [nameless, yamada, sato, acme, makePerson("Katie", "Bell")] { try book.add(person) }
        try book.save()
        let names = book.allPeople(sortedBy: .lastName).map { $0.compositeName ?? "-" }
        #expect(names == ["Acme", "Katie Bell", "佐藤花子", "山田太郎", "-"])
    }

    @Test func sortingIsStableForEqualNames() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let first = makePerson("Katie", "Bell")
        let second = makePerson("katie", "BELL")
        try book.add(first)
        try book.add(second)
        try book.save()
        let ordered = book.allPeople(sortedBy: .lastName)
        #expect(ordered.map(\.recordID) == [first.recordID, second.recordID].sorted())
        #expect(AddressBook.comparePeopleByName(ordered[0], ordered[1], ordering: .firstName))
        #expect(!AddressBook.comparePeopleByName(ordered[1], ordered[0], ordering: .firstName))
    }

    @Test func compositeNamesFollowTheBooksFormat() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        katie.prefix = "Dr."
        katie.middleName = "Anne"
        katie.suffix = "PhD"
        try book.add(katie)
        #expect(katie.compositeName == "Dr. Katie Anne Bell PhD")
        book.compositeNameFormat = .lastNameFirst
        #expect(katie.compositeName == "Dr. Bell Katie Anne PhD")
    }
}
