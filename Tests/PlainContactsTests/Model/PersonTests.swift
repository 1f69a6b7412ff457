import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct PersonTests {
    @Test(arguments: PropertyID.personProperties.filter { !$0.isReadOnly })
    func settingAValueOfTheWrongTypeFailsWithPropertyTypeMismatch(_ property: PropertyID) {
        let person = Person()
        let wrong: PropertyValue = property.type == .string ? .kind(.organization) : .string("text")
        #expect {
            try person.setValue(wrong, for: property)
        } throws: { ($0 as? ContactsError)?.code == .propertyTypeMismatch }
        #expect(person.value(for: property) == nil || property == .kind)
    }

    @Test func getSetAndRemoveByPropertyID() throws {
        let person = Person()
        try person.setValue(.string("Katie"), for: .firstName)
        #expect(person.value(for: .firstName) == .string("Katie"))
        #expect(person.firstName == "Katie")
        person.removeValue(for: .firstName)
        #expect(person.value(for: .firstName) == nil)
        #expect(person.firstName == nil)
    }

    @Test func anEmptyValueRemovesTheProperty() throws {
        let person = Person()
        person.nickname = "Kat"
        try person.setValue(.string(""), for: .nickname)
        #expect(person.nickname == nil)
        person.phones = MultiValue([(value: "555", label: nil)])
        person.phones = MultiValue()
        #expect(person.value(for: .phones) == nil)
    }

    @Test func aGroupPropertyIsNotAPersonProperty() {
        #expect {
            try Person().setValue(.string("Friends"), for: .groupName)
        } throws: { ($0 as? ContactsError)?.code == .unknownProperty }
    }

    @Test func propertiesDeclareTheirTypes() {
        #expect(PropertyID.firstName.type == .string)
        #expect(PropertyID.birthday.type == .date)
        #expect(PropertyID.phones.type == .multiString)
        #expect(PropertyID.addresses.type == .multiAddress)
        #expect(PropertyID.dates.type == .multiDate)
        #expect(PropertyID.instantMessages.type == .multiInstantMessage)
        #expect(PropertyID.socialProfiles.type == .multiSocialProfile)
        #expect(PropertyID.creationDate.type == .timestamp)
        #expect(PropertyID.person(key: "jobTitle") == .jobTitle)
        #expect(PropertyID.person(key: "nope") == nil)
    }

    @Test func theKindDefaultsToPersonAndAnOrganizationShowsItsName() {
        let acme = makePerson("Wile", "Coyote", organization: "Acme")
        #expect(acme.kind == .person)
        #expect(acme.compositeName == "Wile Coyote")
        acme.kind = .organization
        #expect(acme.value(for: .kind) == .kind(.organization))
        #expect(acme.compositeName == "Acme")
    }

    @Test func aPersonWithoutANameFallsBackToOrganizationThenNickname() {
        let person = Person()
        #expect(person.compositeName == nil)
        person.nickname = "Ace"
        #expect(person.compositeName == "Ace")
        person.organization = "Acme"
        #expect(person.compositeName == "Acme")
    }

    @Test func imagesAreSetCopiedAndRemoved() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        #expect(!katie.hasImage)
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 4])
        katie.setImageData(jpeg)
        #expect(katie.hasImage)
        #expect(try katie.imageData() == jpeg)
        try book.add(katie)
        try book.save()
        let key = try #require(katie.key).rawValue
        #expect(try store.files(in: "people").contains("\(key).jpg"))
        #expect(try store.read("people/\(key).json").contains("\"image\": \"\(key).jpg\""))

        let copy = try #require(try store.openBook().person(withID: katie.recordID))
        #expect(copy.hasImage)
        #expect(try copy.imageData() == jpeg)

        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A])
        katie.setImageData(png)
        try book.save()
        #expect(try store.files(in: "people") == ["\(key).json", "\(key).png"])
        katie.removeImage()
        try book.save()
        #expect(try store.files(in: "people") == ["\(key).json"])
        #expect(!katie.hasImage)
    }

    @Test func removingAPersonDeletesItsImage() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        katie.setImageData(Data([0x47, 0x49, 0x46, 0x38, 0x39, 0x61]))
        try book.add(katie)
        try book.save()
        try book.remove(katie)
        try book.save()
        #expect(try store.files(in: "people").isEmpty)
    }

    @Test func timestampsHaveAFixedTextForm() throws {
        let date = Date(timeIntervalSince1970: 1_795_419_391)
        #expect(Timestamp.format(date) == "2026-11-23T07:36:31Z")
        #expect(Timestamp.parse("2026-11-23T07:36:31Z") == date)
        #expect(Timestamp.parse("2026-11-23T08:36:31+01:00") == date)
        #expect(Timestamp.parse("yesterday") == nil)
        #expect(Timestamp.format(Date(timeIntervalSince1970: -86_400)) == "1969-12-31T00:00:00Z")
    }
}
