import DAVTestSupport
import Foundation
import TestTags
import Testing
@testable import PlainContacts

@Suite struct AddressBookSaveTests {
    /// The modification time and inode of every file in a store folder.
    private func stamps(_ store: TemporaryStore, _ folder: String) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for name in try store.files(in: folder) {
            let attributes = try FileManager.default.attributesOfItem(atPath: store.path("\(folder)/\(name)").path)
            let date = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            result[name] = ["\(date)", "\(attributes[.systemFileNumber] ?? "")"]
        }
        return result
    }

    @Test(.tags(.slow), .slowTestsEnabled) func savingOneEditedPersonOfTenThousandRewritesExactlyOneFile() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        for index in 0..<10_000 {
            try book.add(makePerson("Person\(index)", "Family\(index % 97)"))
        }
        try book.save()
        let before = try stamps(store, "people")
        #expect(before.count == 10_000)

        let reopened = try store.openBook()
        let target = try #require(reopened.people(matchingName: "Person4321").first)
        target.jobTitle = "Engineer"
        try reopened.save()

        let after = try stamps(store, "people")
        let changed = after.filter { before[$0.key] != $0.value }.map(\.key)
        #expect(changed == ["\(try #require(target.key).rawValue).json"])
    }

    @Test func anUnchangedRecordKeepsItsExactBytes() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        let john = makePerson("John", "Appleseed")
        try book.add(katie)
        try book.add(john)
        try book.save()
        let johnFile = try store.personFile(john)
        let bytes = try Data(contentsOf: store.path(johnFile))
        katie.nickname = "Kat"
        try book.save()
        #expect(try Data(contentsOf: store.path(johnFile)) == bytes)
    }

    @Test func aHandAddedUnknownKeySurvivesLoadEditAndSave() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        try book.add(katie)
        try book.save()
        let file = try store.personFile(katie)
        var text = try store.read(file)
        text = text.replacingOccurrences(
            of: "  \"firstName\"", with: "  \"favoriteColor\": {\n    \"name\": \"teal\"\n  },\n  \"firstName\"")
        try store.write(text, to: file)

        let reopened = try store.openBook()
        let person = try #require(reopened.person(withID: katie.recordID))
        person.jobTitle = "Pilot"
        try reopened.save()
        let saved = try store.read(file)
        #expect(saved.contains("\"favoriteColor\": {\n    \"name\": \"teal\"\n  }"))
        #expect(saved.contains("\"jobTitle\": \"Pilot\""))
    }

    @Test func unknownKeysInsideMultiValueEntriesAreKept() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        katie.addresses = MultiValue([(value: PostalAddress(city: "Atlanta"), label: .home)])
        try book.add(katie)
        try book.save()
        let file = try store.personFile(katie)
        let text = try store.read(file).replacingOccurrences(
            of: "\"city\": \"Atlanta\"", with: "\"city\": \"Atlanta\",\n        \"subLocality\": \"Midtown\"")
        try store.write(text, to: file)
        let reopened = try store.openBook()
        let person = try #require(reopened.person(withID: katie.recordID))
        person.note = "edited"
        try reopened.save()
        #expect(try store.read(file).contains("\"subLocality\": \"Midtown\""))
    }

    @Test func recordFilesHaveCanonicalBytes() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        katie.phones = MultiValue([(value: "555-555-1234", label: .mobile)])
        katie.urls = MultiValue([(value: "https://example.com/katie", label: .homePage)])
        try book.add(katie)
        try book.save()
        let text = try store.read(store.personFile(katie))
        let created = try #require(katie.creationDate)
        let stamp = Timestamp.format(created)
        #expect(text == """
            {
              "created": "\(stamp)",
              "firstName": "Katie",
              "id": \(katie.recordID),
              "lastName": "Bell",
              "modified": "\(stamp)",
              "nameHash": "\(NameHash.of(firstName: "Katie", lastName: "Bell").rawValue)",
              "nextValueID": 2,
              "phones": [
                {
                  "id": 0,
                  "label": "mobile",
                  "value": "555-555-1234"
                }
              ],
              "urls": [
                {
                  "id": 1,
                  "label": "homePage",
                  "value": "https://example.com/katie"
                }
              ]
            }

            """)
    }

    @Test func aValueChangedAndChangedBackIsNotAnUnsavedChange() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        try book.add(katie)
        try book.save()
        #expect(!book.hasUnsavedChanges)
        katie.firstName = "Kate"
        #expect(book.hasUnsavedChanges)
        katie.firstName = "Katie"
        #expect(!book.hasUnsavedChanges)
    }

    @Test func savingWithoutChangesWritesNothing() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        try book.add(makePerson("Katie", "Bell"))
        try book.save()
        let before = try stamps(store, "people")
        let manifest = try Data(contentsOf: store.path("store.json"))
        try book.save()
        #expect(try stamps(store, "people") == before)
        #expect(try Data(contentsOf: store.path("store.json")) == manifest)
    }

    @Test func revertDiscardsUnsavedChanges() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        try book.add(katie)
        try book.save()
        katie.lastName = "Typo"
        try book.add(makePerson("Unsaved", "Person"))
        try book.revert()
        #expect(!book.hasUnsavedChanges)
        #expect(book.personCount == 1)
        #expect(book.person(withID: katie.recordID)?.lastName == "Bell")
    }

    @Test func saveSetsCreationAndModificationDates() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        #expect(katie.creationDate == nil)
        let start = Date().addingTimeInterval(-1)
        try book.add(katie)
        try book.save()
        let created = try #require(katie.creationDate)
        #expect(created >= start.addingTimeInterval(-1))
        #expect(katie.modificationDate == created)
        #expect {
            try katie.setValue(.timestamp(Date()), for: .creationDate)
        } throws: { ($0 as? ContactsError)?.code == .invalidValue }
    }

    @Test func theFirstSaveWritesPeopleGroupsAndMembershipInSeparateFiles() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        try book.add(makePerson("Katie", "Bell"))
        try book.add(Group(name: "Friends"))
        try book.save()
        #expect(try store.files(in: "people").count == 1)
        #expect(try store.files(in: "groups").count == 2)  // the group file and its (empty) membership file
    }

    @Test func everyPropertyRoundTripsThroughSaveAndLoad() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let person = Person()
        let strings: [PropertyID] = [
            .firstName, .lastName, .middleName, .prefix, .suffix, .nickname, .firstNamePhonetic,
            .lastNamePhonetic, .middleNamePhonetic, .organization, .department, .jobTitle, .note,
        ]
        for property in strings { try person.setValue(.string("v-\(property.key)\n\"/é"), for: property) }
        try person.setValue(.date(try ContactDate(parsing: "--02-29")), for: .birthday)
        try person.setValue(.kind(.organization), for: .kind)
        try person.setValue(.multiString(MultiValue([(value: "555", label: .iPhone)])), for: .phones)
        try person.setValue(.multiString(MultiValue([(value: "a@example.com", label: .work)])), for: .emails)
        try person.setValue(.multiString(MultiValue([(value: "https://x.example", label: .homePage)])), for: .urls)
        try person.setValue(.multiString(MultiValue([(value: "Ann", label: .spouse)])), for: .relatedNames)
        try person.setValue(.multiDate(MultiValue([(value: try ContactDate(parsing: "2010-06-12"), label: .anniversary)])), for: .dates)
        try person.setValue(.multiAddress(MultiValue([(value: PostalAddress(street: "1 Loop", city: "Cupertino", state: "CA", zip: "95014", country: "USA", countryCode: "us"), label: .work)])), for: .addresses)
        try person.setValue(.multiInstantMessage(MultiValue([(value: InstantMessage(service: "Matrix", username: "@k:example.org"), label: .home)])), for: .instantMessages)
        try person.setValue(.multiSocialProfile(MultiValue([(value: SocialProfile(url: "https://m.example/@k", service: "Mastodon", username: "k", identifier: "42"), label: nil)])), for: .socialProfiles)
        try book.add(person)
        try book.save()

        let reopened = try store.openBook()
        let copy = try #require(reopened.person(withID: person.recordID))
        for property in PropertyID.personProperties {
            #expect(copy.value(for: property) == person.value(for: property), "\(property.key) differs")
        }
        #expect(copy.kind == .organization)
        #expect(copy.birthday?.year == nil)
        #expect(!reopened.hasUnsavedChanges)
    }
}
